import { parseSearchRequest } from '../../../schemas/search-dsl';
import type { SearchableIndex, TenantScope } from '../../search/port';
import { Decimal } from '../money/decimal';
import type { UsageWindow } from '../schedule/reporting-period';
import { substitutePlaceholders, type MeterMetric, type RunMeter } from './run-meter';

/**
 * The usage of a meter in a window, from grouped aggregation queries (one query per window, not one
 * per subscription): events WITH subscription_id grouped by subscription_id, events WITHOUT it
 * grouped by company_id, each bucket carrying the meter's metric. Windows are [start, end): the
 * search range's `to` is exclusive, so an event on a boundary counts in exactly one window.
 */

export interface WindowUsage {
  /** subscription_id → raw usage of events naming it. */
  readonly bySubscription: Map<string, Decimal>;
  /** company_id → raw usage of events naming no subscription. */
  readonly byCompany: Map<string, Decimal>;
}

/** Terms buckets per query (the DSL's cap); more groups split the window in time (additive metrics only). */
const MAX_GROUPS = 10_000;
const MIN_SPLIT_MS = 1_000;

export function metricAggregation(metric: MeterMetric): Record<string, unknown> {
  if (metric.type === 'sum') return { sum: { field: metric.field, ...(metric.missing !== undefined ? { missing: metric.missing } : {}) } };
  return { [metric.type]: { field: metric.field } };
}

const groups = (field: string, metric: MeterMetric) => ({ groups: { terms: { field, size: MAX_GROUPS }, aggs: { usage: metricAggregation(metric) } } });

/** The grouped search body of a meter (what the run sends for a window). */
export function groupedUsageBody(meter: Pick<RunMeter, 'body' | 'metric'>): Record<string, unknown> {
  return {
    ...meter.body,
    size: 0,
    aggs: {
      with_subscription: { filter: { exists: { field: 'subscription_id' } }, aggs: groups('subscription_id', meter.metric) },
      without_subscription: { filter: { bool: { must_not: [{ exists: { field: 'subscription_id' } }] } }, aggs: groups('company_id', meter.metric) },
    },
  };
}

/**
 * The search body of one report's usage, for explaining it: the meter's query narrowed to events of
 * the subscription (explicit subscription_id) and, when company usage was attributed to it, the
 * company's events without subscription_id. Placeholders are filled for per-subscription meters.
 */
export function reportUsageBody(meter: Pick<RunMeter, 'body' | 'metric'>, target: { subscriptionId: string | null; companyId: string | null; companyAttributed: boolean }): Record<string, unknown> {
  const should: Record<string, unknown>[] = [];
  if (target.subscriptionId !== null) should.push({ term: { subscription_id: target.subscriptionId } });
  if (target.companyId !== null && (target.companyAttributed || target.subscriptionId === null)) {
    should.push({ bool: { filter: [{ term: { company_id: target.companyId } }], must_not: [{ exists: { field: 'subscription_id' } }] } });
  }
  const base = substitutePlaceholders(meter.body, { companyId: target.companyId ?? '', subscriptionId: target.subscriptionId ?? '' });
  const query = base['query'] ?? { match_all: {} };
  return { ...base, query: { bool: { filter: [query, { bool: { should, minimum_should_match: 1 } }] } }, aggs: { usage: metricAggregation(meter.metric) } };
}

export async function windowUsage(index: SearchableIndex, scope: TenantScope, meter: RunMeter, window: UsageWindow, now: Date): Promise<WindowUsage> {
  const result: WindowUsage = { bySubscription: new Map(), byCompany: new Map() };
  await addUsage(index, scope, meter, window, now, result);
  return result;
}

async function addUsage(index: SearchableIndex, scope: TenantScope, meter: RunMeter, window: UsageWindow, now: Date, into: WindowUsage): Promise<void> {
  const request = parseSearchRequest(groupedUsageBody(meter), 'events', { timeZone: 'UTC' });
  const response = await index.search({ scope, kind: 'events', range: { from: window.start, to: window.end }, timeZone: 'UTC', now }, request);
  const aggs = (response.aggregations ?? {}) as Record<string, { groups?: TermsResult }>;
  const withSub = aggs['with_subscription']?.groups;
  const withoutSub = aggs['without_subscription']?.groups;
  const overflow = (withSub?.sum_other_doc_count ?? 0) > 0 || (withoutSub?.sum_other_doc_count ?? 0) > 0;
  if (overflow) {
    // Splitting in time is exact for sums and counts; distinct counts do not add up across halves.
    const span = window.end.getTime() - window.start.getTime();
    if (meter.metric.type === 'cardinality' || span <= MIN_SPLIT_MS) throw new Error(`meter ${meter.id}: more than ${MAX_GROUPS} subscriptions or companies in window ${window.start.toISOString()} for a ${meter.metric.type} metric`);
    const middle = new Date(window.start.getTime() + Math.floor(span / 2));
    await addUsage(index, scope, meter, { start: window.start, end: middle }, now, into);
    await addUsage(index, scope, meter, { start: middle, end: window.end }, now, into);
    return;
  }
  addBuckets(into.bySubscription, withSub);
  addBuckets(into.byCompany, withoutSub);
}

/** Usage of one subscription for a meter whose query names `{{company_id}}` / `{{subscription_id}}`. */
export async function placeholderUsage(index: SearchableIndex, scope: TenantScope, meter: RunMeter, window: UsageWindow, subscription: { companyId: string; subscriptionId: string }, now: Date): Promise<Decimal> {
  const body = { ...substitutePlaceholders(meter.body, subscription), size: 0, aggs: { usage: metricAggregation(meter.metric) } };
  const response = await index.search({ scope, kind: 'events', range: { from: window.start, to: window.end }, timeZone: 'UTC', now }, parseSearchRequest(body, 'events', { timeZone: 'UTC' }));
  return metricValue((response.aggregations as Record<string, unknown> | undefined)?.['usage']);
}

/** Start times of the windows in [from, to) holding at least one event the meter's query matches. */
export async function busyWindows(index: SearchableIndex, scope: TenantScope, meter: RunMeter, range: { from: Date; to: Date }, now: Date): Promise<Date[]> {
  if (range.to <= range.from) return [];
  const body = {
    ...(meter.perSubscription ? {} : meter.body),
    size: 0,
    aggs: { windows: { date_histogram: { field: 'time', fixed_interval: `${meter.periodMs / 60_000}m`, min_doc_count: 1 } } },
  };
  const response = await index.search({ scope, kind: 'events', range, timeZone: 'UTC', now }, parseSearchRequest(body, 'events', { timeZone: 'UTC' }));
  const buckets = ((response.aggregations as Record<string, { buckets?: { key: number | string }[] }> | undefined)?.['windows']?.buckets) ?? [];
  return buckets.map((bucket) => new Date(typeof bucket.key === 'number' ? bucket.key : Date.parse(bucket.key)));
}

interface TermsResult {
  readonly sum_other_doc_count?: number;
  readonly buckets?: readonly { key: string | number; usage?: unknown }[];
}

function addBuckets(into: Map<string, Decimal>, terms: TermsResult | undefined): void {
  for (const bucket of terms?.buckets ?? []) {
    const key = String(bucket.key);
    const value = metricValue(bucket.usage);
    into.set(key, (into.get(key) ?? Decimal.ZERO).plus(value));
  }
}

function metricValue(aggregation: unknown): Decimal {
  const value = (aggregation as { value?: unknown } | undefined)?.value;
  if (typeof value === 'number' && Number.isFinite(value)) return Decimal.from(value);
  if (typeof value === 'string' && Decimal.isDecimalText(value)) return Decimal.from(value);
  return Decimal.ZERO;
}
