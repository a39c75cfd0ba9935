import type { ApiSchema } from '../../../lib/api-types';
import type { Series } from '../../../components/chart-types';
import { analysisFromParams, analysisToParams, DEFAULT_ANALYSIS, funnelBody, retentionBody, type AnalysisSettings } from './analysis-spec';

export type { Series };

/**
 * A chart as the console builds it, the search request that draws it, and the workspace `chart`
 * (the spec's ChartItem) that stores it:
 *   view        what it draws (VIEWS): `time_series` (a line per series over time; with `group_by`,
 *               one line per top value), `segmentation` (the top values of a field, stacked bars over
 *               time), `top_values` (the top N values of a field as totals for the window, drawn as
 *               `display` bar, pie or table), `metric` (one number for the whole window), `table` (the time series as rows),
 *               `funnel` (steps and their conversion; the body goes in `funnel_query`) and `retention`
 *               (cohorts by first period; the body goes in `view_elements.retention_query`), see analysis-spec.ts
 *   url_query   the chart's settings as URL parameters (view, metric, interval, group_by, top, display, q): what reopens it exactly
 *   es_query    the search body it runs, from/to/time_zone its window
 */
export const METRICS = {
  count: { label: 'Event count' },
  sum_weight: { label: 'Sum of weight' },
  avg_latency: { label: 'Average latency (ms)' },
  p50_latency: { label: 'p50 latency (ms)' },
  p90_latency: { label: 'p90 latency (ms)' },
  p99_latency: { label: 'p99 latency (ms)' },
  unique_users: { label: 'Unique users' },
} as const;
export type ChartMetric = keyof typeof METRICS;

export const INTERVALS = {
  auto: 'Automatic (at most about 200 points)',
  '1m': 'Minute',
  '5m': '5 minutes',
  '15m': '15 minutes',
  '1h': 'Hour',
  '6h': '6 hours',
  '1d': 'Day',
  '7d': 'Week',
} as const;
export type ChartInterval = keyof typeof INTERVALS;
type FixedInterval = Exclude<ChartInterval, 'auto'>;

/** Buckets an automatic interval stays under: enough to read a shape, few enough to see each. */
export const MAX_AUTO_POINTS = 200;
const INTERVAL_MS: Readonly<Record<FixedInterval, number>> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '6h': 21_600_000,
  '1d': 86_400_000,
  '7d': 604_800_000,
};
const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, M: 2_592_000_000, y: 31_536_000_000 };

/** A bound as epoch ms: `now`, `-<n><unit>` (relative to now) or an ISO date; undefined when unreadable. */
function boundMs(bound: string, now: number): number | undefined {
  if (bound === 'now') return now;
  const relative = /^-(\d+)([smhdwMy])$/.exec(bound);
  if (relative) return now - Number(relative[1]) * UNIT_MS[relative[2]!]!;
  const parsed = Date.parse(bound);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/**
 * The interval a chart is drawn at: the one chosen, or for `auto` the shortest that keeps the
 * window under MAX_AUTO_POINTS buckets (30 days → 6 hours, 24 hours → 15 minutes).
 */
export function effectiveInterval(spec: Pick<ChartSpec, 'interval' | 'from' | 'to'>, now = Date.now()): FixedInterval {
  if (spec.interval !== 'auto') return spec.interval;
  const from = boundMs(spec.from, now);
  const to = boundMs(spec.to, now);
  const span = from === undefined || to === undefined ? 86_400_000 : Math.max(0, to - from);
  const fits = (Object.keys(INTERVAL_MS) as FixedInterval[]).find((interval) => span / INTERVAL_MS[interval] <= MAX_AUTO_POINTS);
  return fits ?? '7d';
}

export const VIEWS = {
  time_series: 'Time series',
  top_values: 'Top values (totals)',
  segmentation: 'Top values over time (stacked)',
  metric: 'Single number',
  table: 'Table',
  funnel: 'Funnel',
  retention: 'Retention',
} as const;
export type ChartView = keyof typeof VIEWS;
export const TIME_SERIES_VIEW: ChartView = 'time_series';
/** What the segmentation views split by when the chart names no field. */
export const DEFAULT_SEGMENT_FIELD = 'request.route.raw';

/** How `top_values` draws its totals. */
export const DISPLAYS = { bar: 'Bars', pie: 'Pie', table: 'Table' } as const;
export type TotalsDisplay = keyof typeof DISPLAYS;

/** How many top values a grouped chart shows (the API takes up to its terms limit; these are the offered ones). */
export const TOP_SIZES = [5, 10, 20, 50] as const;

/** The views that split by a field's top values, and so always have one. */
const isSegmentation = (view: ChartView) => view === 'segmentation' || view === 'top_values';

export interface ChartSpec {
  readonly view: ChartView;
  readonly metric: ChartMetric;
  readonly interval: ChartInterval;
  readonly from: string;
  readonly to: string;
  readonly timeZone: string;
  /** A field whose top values each get their own series (e.g. `request.route.raw`). */
  readonly groupBy?: string;
  /** How many top values are shown when grouped. */
  readonly top: number;
  /** How `top_values` is drawn. */
  readonly display: TotalsDisplay;
  /** A query-string filter (`field:value` forms). */
  readonly filter?: string;
  /** The funnel and retention views' settings. */
  readonly analysis: AnalysisSettings;
}

/** Views drawn from a funnel or retention answer rather than a search. */
export const isAnalysisView = (view: ChartView): view is 'funnel' | 'retention' => view === 'funnel' || view === 'retention';

export const DEFAULT_SPEC: ChartSpec = {
  view: 'time_series',
  metric: 'count',
  interval: 'auto',
  from: '-24h',
  to: 'now',
  timeZone: 'UTC',
  top: 5,
  display: 'bar',
  analysis: DEFAULT_ANALYSIS,
};

function metricAggregation(metric: ChartMetric): Record<string, unknown> {
  switch (metric) {
    case 'count':
      return {};
    case 'sum_weight':
      return { value: { sum: { field: 'weight' } } };
    case 'avg_latency':
      return { value: { avg: { field: 'duration_ms' } } };
    case 'p50_latency':
      return { value: { percentiles: { field: 'duration_ms', percents: [50] } } };
    case 'p90_latency':
      return { value: { percentiles: { field: 'duration_ms', percents: [90] } } };
    case 'p99_latency':
      return { value: { percentiles: { field: 'duration_ms', percents: [99] } } };
    case 'unique_users':
      return { value: { cardinality: { field: 'user_id.raw' } } };
  }
}

/** The window a chart reads: its range and time zone, as the API's query parameters. */
export const windowOf = (spec: ChartSpec) => ({ query: { from: spec.from, to: spec.to, time_zone: spec.timeZone } });

/** A window bound as the search DSL's date math: `-24h` (the API's query-parameter form) is `now-24h`. */
export function dateMath(bound: string): string {
  return bound.startsWith('-') ? `now${bound}` : bound;
}

/** The field a chart splits by: its own, or the default one for segmentation. */
export function groupField(spec: ChartSpec): string | undefined {
  return spec.groupBy ?? (isSegmentation(spec.view) ? DEFAULT_SEGMENT_FIELD : undefined);
}

function filterQuery(spec: ChartSpec): Record<string, unknown> {
  return spec.filter?.trim() ? { query_string: { query: spec.filter.trim() } } : { match_all: {} };
}

/**
 * The search body of a chart: for `metric`, the metric over the whole window (the count is the
 * total of hits); otherwise a date histogram, each bucket holding the metric (and the top groups).
 */
export function chartBody(spec: ChartSpec): Record<string, unknown> {
  const metric = metricAggregation(spec.metric);
  if (spec.view === 'metric') return { size: 0, track_total_hits: true, query: filterQuery(spec), aggs: metric };
  const groupBy = groupField(spec);
  // Ordered by count: the values with the most events, whatever the metric, as the time views do.
  if (spec.view === 'top_values')
    return { size: 0, track_total_hits: true, query: filterQuery(spec), aggs: { groups: { terms: { field: groupBy, size: spec.top }, aggs: metric } } };
  // Every interval of the window gets a bucket, events or not, so the line spans the whole range.
  const histogram = {
    field: 'request.time',
    fixed_interval: effectiveInterval(spec),
    time_zone: spec.timeZone,
    min_doc_count: 0,
    extended_bounds: { min: dateMath(spec.from), max: dateMath(spec.to) },
  };
  const aggs = groupBy
    ? { over_time: { date_histogram: histogram, aggs: { groups: { terms: { field: groupBy, size: spec.top }, aggs: metric } } } }
    : { over_time: { date_histogram: histogram, aggs: metric } };
  return { size: 0, query: filterQuery(spec), aggs };
}

/** The one number of a `metric` chart, from its answer. */
export function singleValue(spec: ChartSpec, answer: { hits?: { total?: number }; aggregations?: unknown }): number | null {
  if (spec.metric === 'count') return answer.hits?.total ?? 0;
  return metricValue(spec.metric, { doc_count: 0, ...(answer.aggregations as Pick<MetricBucket, 'value'>) });
}

interface MetricBucket {
  readonly doc_count: number;
  readonly value?: { value?: number | null; values?: Record<string, number | null> };
}

/** A bucket's value of the metric (null where the metric has none, e.g. no latency in an empty hour). */
export function metricValue(metric: ChartMetric, bucket: MetricBucket): number | null {
  if (metric === 'count') return bucket.doc_count;
  const value = bucket.value;
  if (!value) return null;
  if (value.values) return Object.values(value.values)[0] ?? null;
  return value.value ?? null;
}

/** The series a time-series answer draws: one for the metric, or one per top group. */
export function seriesOf(spec: ChartSpec, aggregations: unknown): Series[] {
  const buckets = ((aggregations as { over_time?: { buckets?: unknown[] } } | undefined)?.over_time?.buckets ?? []) as (MetricBucket & {
    key: number;
    groups?: { buckets: (MetricBucket & { key: string })[] };
  })[];
  if (!groupField(spec)) return [{ name: METRICS[spec.metric].label, points: buckets.map((b) => [b.key, metricValue(spec.metric, b)]) }];
  const names = new Set<string>();
  for (const bucket of buckets) for (const group of bucket.groups?.buckets ?? []) names.add(String(group.key));
  return [...names].map((name) => ({
    name,
    points: buckets.map((b) => {
      const group = b.groups?.buckets.find((g) => String(g.key) === name);
      return [b.key, group ? metricValue(spec.metric, group) : 0];
    }),
  }));
}

/** One of a `top_values` chart's totals: a value of the field and the metric over its events. */
export interface Total {
  readonly name: string;
  readonly value: number | null;
  /** Events with this value, of all the window's events. */
  readonly share: number;
}

/**
 * The totals of a `top_values` answer, largest first as the API ordered them; for the event count,
 * an `Other values` row holds the events of the values cut off and a `No value` row the events
 * without the field, so the rows add up to the window's events.
 */
export function totalsOf(spec: ChartSpec, answer: { hits?: { total?: number }; aggregations?: unknown }): Total[] {
  const groups = (answer.aggregations as { groups?: { buckets?: (MetricBucket & { key: unknown })[]; sum_other_doc_count?: number } } | undefined)?.groups;
  const buckets = groups?.buckets ?? [];
  const all = answer.hits?.total ?? 0;
  const share = (count: number) => (all > 0 ? count / all : 0);
  const rows = buckets.map((bucket) => ({ name: String(bucket.key), value: metricValue(spec.metric, bucket), share: share(bucket.doc_count) }));
  if (spec.metric !== 'count') return rows;
  const other = groups?.sum_other_doc_count ?? 0;
  const none = all - other - buckets.reduce((sum, bucket) => sum + bucket.doc_count, 0);
  return [
    ...rows,
    ...(other > 0 ? [{ name: OTHER_VALUES, value: other, share: share(other) }] : []),
    ...(none > 0 ? [{ name: NO_VALUE, value: none, share: share(none) }] : []),
  ];
}
export const OTHER_VALUES = 'Other values';
export const NO_VALUE = 'No value';

/** The chart's settings as URL parameters (the chart page's URL, and the workspace's `url_query`). */
export function specToParams(spec: ChartSpec): URLSearchParams {
  const params = new URLSearchParams({ view: spec.view, metric: spec.metric, interval: spec.interval, from: spec.from, to: spec.to, time_zone: spec.timeZone });
  if (spec.groupBy) params.set('group_by', spec.groupBy);
  if (groupField(spec)) params.set('top', String(spec.top));
  if (spec.view === 'top_values') params.set('display', spec.display);
  if (spec.filter) params.set('q', spec.filter);
  if (isAnalysisView(spec.view)) analysisToParams(spec.analysis, params);
  return params;
}

export function specFromParams(params: URLSearchParams, fallback: ChartSpec = DEFAULT_SPEC): ChartSpec {
  const view = params.get('view');
  const metric = params.get('metric');
  const interval = params.get('interval');
  const groupBy = params.get('group_by');
  const filter = params.get('q');
  const top = Number(params.get('top'));
  const display = params.get('display');
  return {
    view: view && view in VIEWS ? (view as ChartView) : fallback.view,
    metric: metric && metric in METRICS ? (metric as ChartMetric) : fallback.metric,
    interval: interval && interval in INTERVALS ? (interval as ChartInterval) : fallback.interval,
    from: params.get('from') ?? fallback.from,
    to: params.get('to') ?? fallback.to,
    timeZone: params.get('time_zone') ?? fallback.timeZone,
    ...(groupBy ? { groupBy } : {}),
    top: (TOP_SIZES as readonly number[]).includes(top) ? top : fallback.top,
    display: display && display in DISPLAYS ? (display as TotalsDisplay) : fallback.display,
    ...(filter ? { filter } : {}),
    analysis: params.has('step') || params.has('first') ? analysisFromParams(params) : fallback.analysis,
  };
}

/** The workspace `chart` (ChartItem) that stores this chart. */
export function workspaceChart(spec: ChartSpec): ApiSchema<'WorkspaceCreate'>['chart'] {
  const chart = { view: spec.view, url_query: specToParams(spec).toString(), from: spec.from, to: spec.to, time_zone: spec.timeZone };
  if (spec.view === 'funnel') return { ...chart, funnel_query: funnelBody(spec.analysis) };
  if (spec.view === 'retention') return { ...chart, view_elements: { retention_query: retentionBody(spec.analysis) } };
  return { ...chart, es_query: chartBody(spec) };
}

/** The chart a stored workspace draws, from its `url_query` (what the console wrote), its window and time zone. */
export function specOfWorkspaceChart(chart: { view?: string; url_query?: string; from?: string; to?: string; time_zone?: string }): ChartSpec {
  const spec = specFromParams(new URLSearchParams(chart.url_query ?? ''));
  return {
    ...spec,
    ...(chart.view && chart.view in VIEWS ? { view: chart.view as ChartView } : {}),
    ...(chart.from ? { from: chart.from } : {}),
    ...(chart.to ? { to: chart.to } : {}),
    ...(chart.time_zone ? { timeZone: chart.time_zone } : {}),
  };
}
