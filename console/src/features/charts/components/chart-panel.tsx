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
import { previousOverlay, previousWindow } from '../../../lib/previous-period';

export function chartLabel(spec: ChartSpec): string {
  if (spec.view === 'funnel') return `Funnel of ${funnelSteps(spec.analysis).length} steps`;
  if (spec.view === 'retention') return `Retention by ${spec.analysis.every}`;
  const by = groupField(spec);
  if (spec.view === 'top_values') return `${METRICS[spec.metric].label} of the top ${spec.top} values of ${by}`;
  return spec.view === 'metric' ? METRICS[spec.metric].label : `${METRICS[spec.metric].label} per ${effectiveInterval(spec)}${by ? ` by ${by}` : ''}`;
}

/**
 * A chart drawn from its own query, in its view, with its loading, error and empty states; with
 * `compare`, beside the previous period of the same length (previous-period.ts).
 */
export function ChartPanel({ spec, drawings, compare = false }: { spec: ChartSpec; drawings?: readonly Drawing[]; compare?: boolean }) {
  if (spec.view === 'funnel' || spec.view === 'retention') {
    return (
      <>
        {spec.view === 'funnel' ? <FunnelView spec={spec} /> : <RetentionView spec={spec} />}
        {compare && <p className="muted">Funnels and retention are not compared with the previous period: each cohort is its own comparison.</p>}
      </>
    );
  }
  return <SearchChart spec={spec} drawings={drawings} compare={compare} />;
}

/** The same chart over the window before its own, when one can be worked out. */
function previousSpecOf(spec: ChartSpec): ChartSpec | undefined {
  const window = previousWindow(spec.from, spec.to);
  return window && { ...spec, ...window };
}

/** The views drawn from one search of the events (two when compared). */
function SearchChart({ spec, drawings, compare }: { spec: ChartSpec; drawings?: readonly Drawing[]; compare: boolean }) {
  // ECharts (most of the console's weight) loads with the first chart, while its search runs.
  const TimeSeriesChart = useTimeSeriesChart();
  const query = useChartData(spec);
  const previousSpec = compare ? previousSpecOf(spec) : undefined;
  const previousQuery = useChartData(previousSpec ?? spec, previousSpec !== undefined);
  const previous = previousSpec && previousQuery.isSuccess ? previousQuery.data : undefined;
  const label = chartLabel(spec);
  if (!query.isSuccess) return <QueryState query={query} loading="Loading the chart…" />;
  const data = query.data;
  if (data.kind === 'value') return <SingleNumber value={data.value} label={label} {...(previous?.kind === 'value' ? { previous: previous.value } : {})} />;
  if (data.kind === 'totals') {
    return data.totals.length === 0 ? (
      <EmptyState title="No values in this range">
        <p>No events match with this field: pick another field or widen the range.</p>
      </EmptyState>
    ) : (
      <TotalsView spec={spec} totals={data.totals} label={label} {...(previous?.kind === 'totals' ? { previous: previous.totals } : {})} />
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
  const stacked = spec.view === 'segmentation';
  // Stacked bars have no place for a second period: a stacked chart says so instead.
  const overlay = previous?.kind === 'series' && !stacked ? previousOverlay(data.series, previous.series) : [];
  const series = [...data.series, ...overlay];
  const note =
    compare && stacked ? <p className="muted">Stacked bars are not compared with the previous period: draw it as a time series to compare.</p> : null;
  if (spec.view === 'table') return <ChartTable series={series} label={label} />;
  if (!TimeSeriesChart) return <Loading label="Drawing the chart…" />;
  return (
    <>
      <TimeSeriesChart series={series} annotations={drawings ?? []} label={label} stacked={stacked} />
      {note}
    </>
  );
}
