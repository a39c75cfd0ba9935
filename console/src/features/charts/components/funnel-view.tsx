import { Suspense } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { Loading } from '../../../components/loading';
import { useFunnel } from '../api/analysis-data';
import { ACTORS, readableDuration } from '../utils/analysis-spec';
import { percent } from '../../../lib/number-format';
import type { ChartSpec } from '../utils/chart-spec';
import { LazyFunnelChart } from './lazy-analysis-charts';
import { QueryState } from '../../../components/query-state';

/** A funnel: drawn as a funnel, and a table with a bar per step as wide as its share of those who entered, with conversion and median time to the next step. */
export function FunnelView({ spec }: { spec: ChartSpec }) {
  const query = useFunnel(spec);
  if (!query.isSuccess) return <QueryState query={query} loading="Following the steps…" />;
  const answer = query.data;
  const actors = ACTORS[spec.analysis.by].toLowerCase();
  if ((answer.steps[0]?.entered ?? 0) === 0) {
    return (
      <EmptyState title="Nobody entered this funnel">
        <p>No {actors} did the first step in this range: widen the range or change the first step.</p>
      </EmptyState>
    );
  }
  return (
    <figure className="analysis">
      <Suspense fallback={<Loading label="Drawing the funnel…" />}>
        <LazyFunnelChart
          label={`Funnel of ${actors}: ${answer.steps.map((step) => `${step.name} ${step.entered}`).join(', ')}`}
          steps={answer.steps.map((step, k) => ({ name: `${k + 1}. ${step.name}`, value: step.entered }))}
        />
      </Suspense>
      <table className="event-table funnel-table" aria-label={`Funnel of ${actors}, conversion window ${spec.analysis.conversionWindow}`}>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Reached</th>
            <th scope="col">Of all who entered</th>
            <th scope="col">Went on</th>
            <th scope="col">Median time to next step</th>
          </tr>
        </thead>
        <tbody>
          {answer.steps.map((step, k) => (
            <tr key={`${k}-${step.name}`}>
              <th scope="row">
                {k + 1}. {step.name}
              </th>
              <td>{step.entered.toLocaleString()}</td>
              <td>
                <span className="funnel-bar" style={{ width: `${Math.max(step.overall_conversion_rate * 60, 0.5)}%` }} aria-hidden="true" />
                {percent(step.overall_conversion_rate)}
              </td>
              <td>{step.converted === null ? '–' : `${step.converted.toLocaleString()} (${percent(step.conversion_rate)})`}</td>
              <td>{step.median_time_to_convert_ms === null ? '–' : readableDuration(step.median_time_to_convert_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!answer.exact && <figcaption>Counted up to the search backend's caps: the figures may be low.</figcaption>}
    </figure>
  );
}
