import { useFormatTime } from '../../../lib/app-time-zone';
import type { Series } from '../../../components/chart-types';

/** A `table` chart: one row per interval, one column per series. */
export function ChartTable({ series, label }: { series: readonly Series[]; label: string }) {
  const format = useFormatTime();
  const times = series[0]?.points.map(([time]) => time) ?? [];
  return (
    <table className="event-table" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Time</th>
          {series.map((s) => (
            <th scope="col" key={s.name}>
              {s.name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {times.map((time, i) => (
          <tr key={time}>
            <td>{format(new Date(time).toISOString())}</td>
            {series.map((s) => (
              <td key={s.name}>{s.points[i]?.[1] ?? ''}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
