import { lazy, Suspense } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { Loading } from '../../../components/loading';
import { useTimeSeries } from '../api/time-series';
import type { Drawing } from '../api/workspaces';
import { METRICS, type ChartSpec } from '../utils/chart-spec';

// ECharts is most of the console's weight: it loads with the first chart, not with sign-in.
const TimeSeriesChart = lazy(() => import('./time-series-chart'));

/** A chart drawn from its own query, with its loading, error and empty states. */
export function ChartPanel({ spec, drawings }: { spec: ChartSpec; drawings?: readonly Drawing[] }) {
  const query = useTimeSeries(spec);
  const label = `${METRICS[spec.metric].label} per ${spec.interval}${spec.groupBy ? ` by ${spec.groupBy}` : ''}`;
  if (query.isPending) return <Loading label="Loading the chart…" />;
  if (query.error) return <ErrorMessage error={query.error} />;
  const empty = query.data.every((series) => series.points.every(([, value]) => !value));
  if (query.data.length === 0 || empty) {
    return (
      <EmptyState title="Nothing to chart in this range">
        <p>No events match: send some through the collector or widen the range.</p>
      </EmptyState>
    );
  }
  return (
    <Suspense fallback={<Loading label="Drawing the chart…" />}>
      <TimeSeriesChart series={query.data} drawings={drawings ?? []} label={label} />
    </Suspense>
  );
}
