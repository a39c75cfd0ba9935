import type { AlertCondition, AlertMetricType, AlertRuleCreate } from '../../schemas/resources/alert-rule';
import { parseSearchRequest } from '../search/dsl';
import type { SearchableIndex, TenantScope } from '../search/port';

/**
 * An alert's metric over a window, from one search: per series (`*` overall, else each of the busiest
 * MAX_SERIES companies or users), the value, or null where the metric has no value (an error rate or
 * a latency of no calls). And the threshold each series is held to: fixed, or from the same window
 * 1…`weeks` weeks before (one search per week).
 */

/** Series per grouped alert: the busiest in the window. */
export const MAX_SERIES = 1000;
export const OVERALL = '*';
const WEEK_MS = 7 * 86_400_000;

export type AlertRuleShape = Pick<AlertRuleCreate, 'query' | 'metric' | 'group_by' | 'window_minutes' | 'condition'>;

export interface MetricWindow {
  readonly start: Date;
  readonly end: Date;
}

const METRIC_AGGS: Record<AlertMetricType, Record<string, unknown> | undefined> = {
  count: undefined,
  sum_weight: { value: { sum: { field: 'weight', missing: 1 } } },
  error_rate: { errors: { filter: { range: { 'response.status': { gte: 400 } } } } },
  avg_latency: { value: { avg: { field: 'duration_ms' } } },
  p50_latency: { value: { percentiles: { field: 'duration_ms', percents: [50], keyed: false } } },
  p90_latency: { value: { percentiles: { field: 'duration_ms', percents: [90], keyed: false } } },
  p99_latency: { value: { percentiles: { field: 'duration_ms', percents: [99], keyed: false } } },
  unique_users: { value: { cardinality: { field: 'user_id' } } },
  unique_companies: { value: { cardinality: { field: 'company_id' } } },
  // Counted by arrival (received_at), not by event time: see windowSearch.
  late_events: undefined,
  // Billing metrics are read from subscriptions (billing-series.ts), never searched.
  quota_used_percent: undefined,
  balance_available: undefined,
  spend_cap_used_percent: undefined,
  reconciliation_drift: undefined,
};

/** The search body measuring the rule's metric (the window is the search's range). */
export function metricBody(rule: Pick<AlertRuleShape, 'query' | 'metric' | 'group_by'>): Record<string, unknown> {
  const sub = METRIC_AGGS[rule.metric];
  const series = rule.group_by ? { terms: { field: rule.group_by, size: MAX_SERIES } } : { filter: { match_all: {} } };
  return { size: 0, track_total_hits: false, query: rule.query ?? { match_all: {} }, aggs: { series: { ...series, ...(sub ? { aggs: sub } : {}) } } };
}

/** Late events (more than 5 minutes old when the collector received them) arrive now for a past time: counted by arrival. */
export const LATE_EVENTS = { field: 'received_at', filter: { term: { is_late: true } } } as const;

/**
 * Where a window's events are: most metrics take the events whose time is in it (the search's range);
 * late_events those that arrived in it, whatever their time (a filter on received_at instead).
 */
export function windowSearch(metric: AlertMetricType, query: Record<string, unknown> | undefined, window: MetricWindow) {
  if (metric !== 'late_events') return { query, range: { from: window.start, to: window.end } };
  const arrived = { range: { [LATE_EVENTS.field]: { gte: window.start.toISOString(), lt: window.end.toISOString() } } };
  return { query: { bool: { filter: [query ?? { match_all: {} }, LATE_EVENTS.filter, arrived] } }, range: undefined };
}

interface Bucket {
  key?: unknown;
  doc_count: number;
  value?: { value?: number | null; values?: { value: number | null }[] };
  errors?: { doc_count: number };
}

/** A bucket's metric value: null for a rate or latency of no calls. */
export function bucketValue(metric: AlertMetricType, bucket: Bucket): number | null {
  if (metric === 'count' || metric === 'late_events') return bucket.doc_count;
  if (metric === 'error_rate') return bucket.doc_count === 0 ? null : ((bucket.errors?.doc_count ?? 0) / bucket.doc_count) * 100;
  const value = bucket.value?.values ? bucket.value.values[0]?.value : bucket.value?.value;
  if (value === undefined || value === null || Number.isNaN(value)) return isAdditive(metric) ? 0 : null;
  return value;
}

export async function measure(
  index: SearchableIndex,
  scope: TenantScope,
  rule: Pick<AlertRuleShape, 'query' | 'metric' | 'group_by'>,
  window: MetricWindow,
  now: Date,
): Promise<Map<string, number | null>> {
  const where = windowSearch(rule.metric, rule.query, window);
  const response = await index.search(
    { scope, kind: 'events', ...(where.range ? { range: where.range } : {}), timeZone: 'UTC', now },
    parseSearchRequest(metricBody({ ...rule, query: where.query }), 'events', { timeZone: 'UTC' }),
  );
  const series = response.aggregations?.['series'] as (Bucket & { buckets?: Bucket[] }) | undefined;
  const values = new Map<string, number | null>();
  if (!series) return values;
  if (!rule.group_by) values.set(OVERALL, bucketValue(rule.metric, series));
  else for (const bucket of series.buckets ?? []) values.set(String(bucket.key), bucketValue(rule.metric, bucket));
  return values;
}

export interface SeriesReading {
  readonly value: number | null;
  /** The threshold the value was held to; null when a dynamic alert has no past to compare with. */
  readonly threshold: number | null;
  /** True: over the threshold (fires); false: back (resolves); null: no value to judge. */
  readonly breaching: boolean | null;
}

/** Each series' value against its threshold, for the window ending at `end`. */
export async function readSeries(index: SearchableIndex, scope: TenantScope, rule: AlertRuleShape, end: Date, now: Date): Promise<Map<string, SeriesReading>> {
  const windowMs = rule.window_minutes * 60_000;
  const current = await measure(index, scope, rule, { start: new Date(end.getTime() - windowMs), end }, now);
  const thresholds = await thresholdsOf(index, scope, rule, end, now, current);
  const readings = new Map<string, SeriesReading>();
  for (const [series, value] of current) {
    const threshold = thresholds(series);
    readings.set(series, { value, threshold, breaching: judge(rule.condition, value, threshold) });
  }
  return readings;
}

async function thresholdsOf(
  index: SearchableIndex,
  scope: TenantScope,
  rule: AlertRuleShape,
  end: Date,
  now: Date,
  current: Map<string, number | null>,
): Promise<(series: string) => number | null> {
  const condition = rule.condition;
  if (condition.type === 'static') return () => condition.threshold;
  const windowMs = rule.window_minutes * 60_000;
  const past: Map<string, number | null>[] = [];
  for (let week = 1; week <= condition.weeks; week++) {
    const shiftedEnd = new Date(end.getTime() - week * WEEK_MS);
    past.push(await measure(index, scope, rule, { start: new Date(shiftedEnd.getTime() - windowMs), end: shiftedEnd }, now));
  }
  const additive = isAdditive(rule.metric);
  return (series) => {
    if (!current.has(series)) return null;
    // A series absent in a past week had none of an additive metric; a rate or latency had no value.
    const values = past.map((week) => (week.has(series) ? week.get(series)! : additive ? 0 : null)).filter((v): v is number => v !== null);
    if (values.length === 0) return null;
    const baseline = values.reduce((sum, v) => sum + v, 0) / values.length;
    return condition.operator === 'above' ? baseline * condition.factor : baseline / condition.factor;
  };
}

/** Metrics that are 0 where there are no events (the others have no value there). */
export const isAdditive = (metric: AlertMetricType) =>
  metric === 'count' || metric === 'sum_weight' || metric === 'late_events' || metric.startsWith('unique_');

/** Whether the value crosses the threshold; null when there is nothing to judge. */
export function judge(condition: AlertCondition, value: number | null, threshold: number | null): boolean | null {
  if (value === null || threshold === null) return null;
  if (condition.operator === 'above')
    return value > threshold && (condition.type === 'static' || condition.minimum === undefined || value >= condition.minimum);
  return value < threshold;
}
