import { Suspense } from 'react';
import { Loading } from '../../../components/loading';
import { METRICS, NO_VALUE, OTHER_VALUES, type ChartSpec, type Total } from '../utils/chart-spec';
import { percent } from '../../../lib/number-format';
import { LazyTotalsChart } from './lazy-analysis-charts';
import { changeText } from '../../../lib/previous-period';

/**
 * A `top_values` chart: its totals as bars, a pie or a table, each row with its share of the events
 * and, when compared, the same value's total in the previous period.
 */
export function TotalsView({ spec, totals, label, previous }: { spec: ChartSpec; totals: readonly Total[]; label: string; previous?: readonly Total[] }) {
  const before = previous && new Map(previous.map((total) => [total.name, total.value]));
  const table = (
    <table className="event-table" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Value</th>
          <th scope="col">{METRICS[spec.metric].label}</th>
          <th scope="col">Share of events</th>
          {before && <th scope="col">Previous period</th>}
        </tr>
      </thead>
      <tbody>
        {totals.map((total) => (
          <tr key={total.name}>
            <th scope="row">{total.name === OTHER_VALUES || total.name === NO_VALUE ? <em>{total.name}</em> : total.name}</th>
            <td>{total.value === null ? '–' : total.value.toLocaleString()}</td>
            <td>{percent(total.share)}</td>
            {before && <td>{previousCell(total.value, before.get(total.name))}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
  if (spec.display === 'table') return table;
  return (
    <figure className="analysis">
      <Suspense fallback={<Loading label="Drawing the chart…" />}>
        <LazyTotalsChart totals={totals} display={spec.display} label={`${label}: ${totals.map((t) => `${t.name} ${t.value ?? '–'}`).join(', ')}`} />
      </Suspense>
      {table}
    </figure>
  );
}

function previousCell(value: number | null, previous: number | null | undefined): string {
  if (previous === undefined || previous === null) return '–';
  const change = changeText(value, previous);
  return `${previous.toLocaleString()}${change ? ` (${change})` : ''}`;
}
