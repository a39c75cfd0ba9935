import { Suspense } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { Loading } from '../../../components/loading';
import { useRetention } from '../api/analysis-data';
import { ACTORS, averageRetention, formatPeriod, RETENTION_INTERVALS } from '../utils/analysis-spec';
import { percent } from '../../../lib/number-format';
import type { ChartSpec } from '../utils/chart-spec';
import { LazyRetentionCurve } from './lazy-analysis-charts';
import { QueryState } from '../../../components/query-state';

/** Retention: its average curve, and a table of a row per cohort (a cell per later period, shaded by the share that came back) and an average row. */
export function RetentionView({ spec }: { spec: ChartSpec }) {
  const query = useRetention(spec);
  if (!query.isSuccess) return <QueryState query={query} loading="Building the cohorts…" />;
  const answer = query.data;
  const unit = RETENTION_INTERVALS[answer.interval].toLowerCase();
  const actors = ACTORS[spec.analysis.by].toLowerCase();
  if (answer.cohorts.every((cohort) => cohort.size === 0)) {
    return (
      <EmptyState title="No cohort in this range">
        <p>No {actors} had a first event in this range: widen the range or change the first event.</p>
      </EmptyState>
    );
  }
  const average = averageRetention(answer.cohorts, answer.periods);
  return (
    <figure className="analysis">
      <Suspense fallback={<Loading label="Drawing the curve…" />}>
        <LazyRetentionCurve label={`Retention curve of ${actors} by ${unit}`} periods={average.map((rate, i) => ({ name: `${unit} ${i + 1}`, rate }))} />
      </Suspense>
      <table className="event-table retention-table" aria-label={`Retention of ${actors} by ${unit}`}>
        <thead>
          <tr>
            <th scope="col">Cohort ({unit} of first event)</th>
            <th scope="col">{ACTORS[spec.analysis.by]}</th>
            {Array.from({ length: answer.periods }, (_, i) => (
              <th scope="col" key={i}>
                {unit} {i + 1}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {answer.cohorts.map((cohort) => (
            <tr key={cohort.start}>
              <th scope="row">{formatPeriod(cohort.start, answer.interval, spec.timeZone)}</th>
              <td>{cohort.size.toLocaleString()}</td>
              {cohort.returned.map((count, i) => {
                // An empty cohort has no rate to show; a period not over yet has no count.
                const rate = cohort.size === 0 ? null : (cohort.rates[i] ?? null);
                return (
                  <td
                    key={i}
                    className="retention-cell"
                    style={rate === null ? undefined : { backgroundColor: `rgba(37, 99, 235, ${(0.08 + rate * 0.6).toFixed(2)})` }}
                    title={count === null ? 'not over yet' : `${count} of ${cohort.size}`}
                  >
                    {count === null ? '' : cohort.size === 0 ? '–' : percent(rate)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Average (weighted by cohort size)</th>
            <td>{answer.cohorts.reduce((sum, cohort) => sum + cohort.size, 0).toLocaleString()}</td>
            {average.map((rate, i) => (
              <td key={i} className="retention-cell">
                {rate === null ? '' : percent(rate)}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </figure>
  );
}
