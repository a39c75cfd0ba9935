import { EmptyState } from '../../../components/empty-state';
import { Loading } from '../../../components/loading';
import { useTimeSeriesChart } from '../../../components/use-time-series-chart';
import { useChartData } from '../api/chart-data';
import type { Drawing } from '../api/workspaces';
import { effectiveInterval, groupField, METRICS, type ChartSpec } from '../utils/chart-spec';
import { funnelSteps } from '../utils/analysis-spec';
import { ChartTable } from './chart-table';
import { FunnelView } from './funnel-view';
import { RetentionView } from './retention-view';
import { SingleNumber } from './single-number';
import { TotalsView } from './totals-view';
import { QueryState } from '../../../components/query-state';

export function chartLabel(spec: ChartSpec): string {
  if (spec.view === 'funnel') return `Funnel of ${funnelSteps(spec.analysis).length} steps`;
  if (spec.view === 'retention') return `Retention by ${spec.analysis.every}`;
  const by = groupField(spec);
  if (spec.view === 'top_values') return `${METRICS[spec.metric].label} of the top ${spec.top} values of ${by}`;
  return spec.view === 'metric' ? METRICS[spec.metric].label : `${METRICS[spec.metric].label} per ${effectiveInterval(spec)}${by ? ` by ${by}` : ''}`;
}

/** A chart drawn from its own query, in its view, with its loading, error and empty states. */
export function ChartPanel({ spec, drawings }: { spec: ChartSpec; drawings?: readonly Drawing[] }) {
  if (spec.view === 'funnel') return <FunnelView spec={spec} />;
  if (spec.view === 'retention') return <RetentionView spec={spec} />;
  return <SearchChart spec={spec} drawings={drawings} />;
}

/** The views drawn from one search of the events. */
function SearchChart({ spec, drawings }: { spec: ChartSpec; drawings?: readonly Drawing[] }) {
  // ECharts (most of the console's weight) loads with the first chart, while its search runs.
  const TimeSeriesChart = useTimeSeriesChart();
  const query = useChartData(spec);
  const label = chartLabel(spec);
  if (!query.isSuccess) return <QueryState query={query} loading="Loading the chart…" />;
  const data = query.data;
  if (data.kind === 'value') return <SingleNumber value={data.value} label={label} />;
  if (data.kind === 'totals') {
    return data.totals.length === 0 ? (
      <EmptyState title="No values in this range">
        <p>No events match with this field: pick another field or widen the range.</p>
      </EmptyState>
    ) : (
      <TotalsView spec={spec} totals={data.totals} label={label} />
    );
  }
  const empty = data.series.length === 0 || data.series.every((series) => series.points.every(([, value]) => !value));
  if (empty) {
    return (
      <EmptyState title="Nothing to chart in this range">
        <p>No events match: send some through the collector or widen the range.</p>
      </EmptyState>
    );
  }
  if (spec.view === 'table') return <ChartTable series={data.series} label={label} />;
  if (!TimeSeriesChart) return <Loading label="Drawing the chart…" />;
  return <TimeSeriesChart series={data.series} annotations={drawings ?? []} label={label} stacked={spec.view === 'segmentation'} />;
}
