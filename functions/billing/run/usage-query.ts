import { parseSearchRequest } from '../../search/dsl';
import type { SearchableIndex, TenantScope } from '../../search/port';
import { ValidationError } from '../../shared/errors';
import { Decimal } from '../../../values/decimal';
import type { UsageWindow } from '../../../values/reporting-period';
import { substitutePlaceholders, type MeterMetric, type RunMeter } from './run-meter';
import type { SubscriptionDirectory } from './subscription-directory';
import { distinctOverlaps, type UsageTarget, type WindowUsage } from './window-usage';

/**
 * The usage of a meter in a window, from grouped aggregation queries (one query per window, not one
 * per subscription): events WITH subscription_id grouped by subscription_id, events WITHOUT it
 * grouped by company_id, each bucket carrying the meter's metric. Windows are [start, end): the
 * search range's `to` is exclusive, so an event on a boundary counts in exactly one window.
 *
 * Distinct meters (`cardinality`) do not add across groups: a subscription that receives both
 * groups' usage gets its count from one more query over the union of its events (distinctUnionUsage).
 */

/** Terms buckets per query (the DSL's cap); more groups split the window in time (additive metrics only). */
const MAX_GROUPS = 10_000;
const MIN_SPLIT_MS = 1_000;
/** Subscriptions per union query: each is one filter (a boolean column locally), so a query stays small. */
const UNIONS_PER_QUERY = 250;

/**
 * A window has more subscription or company groups than one grouped query returns, and its metric
 * cannot be split in time (a distinct count, or a window already split down to a second). The
 * window is not billed; the meter's run stops there and later runs retry it.
 */
export class UsageGroupLimitError extends Error {
  constructor(meter: Pick<RunMeter, 'id' | 'metric'>, window: UsageWindow) {
    const what = meter.metric.type === 'cardinality' ? `distinct count of ${meter.metric.field}` : `${meter.metric.type} of ${meter.metric.field}`;
    super(
      `meter ${meter.id}: window ${window.start.toISOString()}–${window.end.toISOString()} has usage from more than ${MAX_GROUPS} subscriptions (events naming one) or ${MAX_GROUPS} companies (events naming none); ` +
        (meter.metric.type === 'cardinality'
          ? `a ${what} cannot be split into shorter time ranges and added up (a user active in both would count twice), so the window is not billed. ` +
            'Use a shorter reporting_period, or a query naming {{subscription_id}} / {{company_id}} (evaluated once per subscription).'
          : `the ${what} could not be split further in time.`),
    );
    this.name = 'UsageGroupLimitError';
  }
}

export function metricAggregation(metric: MeterMetric): Record<string, unknown> {
  if (metric.type === 'sum') return { sum: { field: metric.field, ...(metric.missing !== undefined ? { missing: metric.missing } : {}) } };
  return { [metric.type]: { field: metric.field } };
}

const groups = (field: string, metric: MeterMetric) => ({ groups: { terms: { field, size: MAX_GROUPS }, aggs: { usage: metricAggregation(metric) } } });

type GroupSide = 'with_subscription' | 'without_subscription';
const BOTH_SIDES: readonly GroupSide[] = ['with_subscription', 'without_subscription'];
const SIDE_AGGS = {
  with_subscription: (metric: MeterMetric) => ({ filter: { exists: { field: 'subscription_id' } }, aggs: groups('subscription_id', metric) }),
  without_subscription: (metric: MeterMetric) => ({
    filter: { bool: { must_not: [{ exists: { field: 'subscription_id' } }] } },
    aggs: groups('company_id', metric),
  }),
};

/** The grouped search body of a meter (what the run sends for a window): both groups, or the ones named. */
export function groupedUsageBody(meter: Pick<RunMeter, 'body' | 'metric'>, sides: readonly GroupSide[] = BOTH_SIDES): Record<string, unknown> {
  return { ...meter.body, size: 0, aggs: Object.fromEntries(sides.map((side) => [side, SIDE_AGGS[side](meter.metric)])) };
}

/**
 * The search body of one report's usage, for explaining it: the meter's query narrowed to events of
 * the subscription (explicit subscription_id) and, when company usage was attributed to it, the
 * company's events without subscription_id. Placeholders are filled for per-subscription meters.
 */
export function reportUsageBody(
  meter: Pick<RunMeter, 'body' | 'metric'>,
  target: { subscriptionId: string | null; companyId: string | null; companyAttributed: boolean },
): Record<string, unknown> {
  const base = substitutePlaceholders(meter.body, { companyId: target.companyId ?? '', subscriptionId: target.subscriptionId ?? '' });
  const query = base['query'] ?? { match_all: {} };
  return { ...base, query: { bool: { filter: [query, reportEventsFilter(target)] } }, aggs: { usage: metricAggregation(meter.metric) } };
}

/** The events of one report: naming its subscription, and/or its company's events without subscription_id. */
function reportEventsFilter(target: { subscriptionId: string | null; companyId: string | null; companyAttributed: boolean }): Record<string, unknown> {
  const should: Record<string, unknown>[] = [];
  if (target.subscriptionId !== null) should.push({ term: { subscription_id: target.subscriptionId } });
  if (target.companyId !== null && (target.companyAttributed || target.subscriptionId === null)) should.push(companyEventsFilter([target.companyId]));
  return { bool: { should, minimum_should_match: 1 } };
}

const companyEventsFilter = (companyIds: string[]) => ({
  bool: {
    filter: [companyIds.length === 1 ? { term: { company_id: companyIds[0] } } : { terms: { company_id: companyIds } }],
    must_not: [{ exists: { field: 'subscription_id' } }],
  },
});

/**
 * The grouped usage of a window. `directory` (the run's attribution rule) is needed for distinct
 * meters: without it the union counts are not computed and attribute() refuses overlapping groups.
 */
export async function windowUsage(
  index: SearchableIndex,
  scope: TenantScope,
  meter: RunMeter,
  window: UsageWindow,
  now: Date,
  directory?: SubscriptionDirectory,
): Promise<WindowUsage> {
  const result: WindowUsage = { bySubscription: new Map(), byCompany: new Map() };
  await addUsage(index, scope, meter, window, now, result);
  if (meter.metric.type !== 'cardinality' || !directory) return result;
  const overlaps = distinctOverlaps(result, directory, meter);
  return overlaps.length === 0 ? result : { ...result, distinctUnions: await distinctUnionUsage(index, scope, meter, window, overlaps, now) };
}

/**
 * A meter's usage in a window, as the billing run bills it: grouped queries (windowUsage), or for
 * placeholder meters one query per billable subscription carrying the meter's ids (cost grows with
 * subscriptions; none carrying them means nothing is queried, see meter-setup-warnings.ts).
 */
export async function meterWindowUsage(
  index: SearchableIndex,
  scope: TenantScope,
  meter: RunMeter,
  window: UsageWindow,
  now: Date,
  directory: SubscriptionDirectory,
): Promise<WindowUsage> {
  if (!meter.perSubscription) return windowUsage(index, scope, meter, window, now, directory);
  const bySubscription = new Map<string, Decimal>();
  for (const subscription of directory.billableFor(meter.billedIds)) {
    const value = await placeholderUsage(index, scope, meter, window, { companyId: subscription.companyId, subscriptionId: subscription.subscriptionId }, now);
    if (!value.isZero()) bySubscription.set(subscription.subscriptionId, value);
  }
  return { bySubscription, byCompany: new Map() };
}

/**
 * The distinct count of each target's union — its subscription's events, or its company's events
 * without subscription_id — in one query per UNIONS_PER_QUERY targets: a `filters` aggregation with
 * one bucket per target (the same events a report's explanation counts), the meter's metric in each.
 */
export async function distinctUnionUsage(
  index: SearchableIndex,
  scope: TenantScope,
  meter: RunMeter,
  window: UsageWindow,
  targets: readonly UsageTarget[],
  now: Date,
): Promise<Map<string, Decimal>> {
  const unions = new Map<string, Decimal>();
  for (let offset = 0; offset < targets.length; offset += UNIONS_PER_QUERY) {
    const chunk = targets.slice(offset, offset + UNIONS_PER_QUERY);
    // Positional bucket names: subscription ids may hold characters bucket names should not.
    const filters = Object.fromEntries(chunk.map((target, i) => [`u${i}`, reportEventsFilter({ ...target, companyAttributed: true })]));
    const narrowed = {
      bool: {
        should: [{ terms: { subscription_id: chunk.map((t) => t.subscriptionId) } }, companyEventsFilter(chunk.map((t) => t.companyId))],
        minimum_should_match: 1,
      },
    };
    const body = {
      ...meter.body,
      size: 0,
      query: { bool: { filter: [meter.body['query'] ?? { match_all: {} }, narrowed] } },
      aggs: { unions: { filters: { filters }, aggs: { usage: metricAggregation(meter.metric) } } },
    };
    const response = await index.search(
      { scope, kind: 'events', range: { from: window.start, to: window.end }, timeZone: 'UTC', now },
      parseSearchRequest(body, 'events', { timeZone: 'UTC' }),
    );
    const buckets = ((response.aggregations ?? {}) as Record<string, { buckets?: Record<string, { usage?: unknown }> }>)['unions']?.buckets ?? {};
    chunk.forEach((target, i) => unions.set(target.subscriptionId, metricValue(buckets[`u${i}`]?.usage)));
  }
  return unions;
}

async function addUsage(index: SearchableIndex, scope: TenantScope, meter: RunMeter, window: UsageWindow, now: Date, into: WindowUsage): Promise<void> {
  const groupsOf = await groupedQuery(index, scope, meter, window, now, BOTH_SIDES);
  const withSub = groupsOf.with_subscription;
  const withoutSub = groupsOf.without_subscription;
  const overflow = (withSub?.sum_other_doc_count ?? 0) > 0 || (withoutSub?.sum_other_doc_count ?? 0) > 0;
  if (overflow) {
    // Splitting in time is exact for sums and counts; distinct counts do not add up across halves.
    const span = window.end.getTime() - window.start.getTime();
    if (meter.metric.type === 'cardinality' || span <= MIN_SPLIT_MS) throw new UsageGroupLimitError(meter, window);
    const middle = new Date(window.start.getTime() + Math.floor(span / 2));
    await addUsage(index, scope, meter, { start: window.start, end: middle }, now, into);
    await addUsage(index, scope, meter, { start: middle, end: window.end }, now, into);
    return;
  }
  addBuckets(into.bySubscription, withSub);
  addBuckets(into.byCompany, withoutSub);
}

/**
 * The terms results of the groups named, in one query. Both groups together may pass the search
 * service's cap on buckets per answer (10,000 over all aggregations) although each fits its own
 * terms size: then one query per group, each still detecting its own overflow (sum_other_doc_count).
 */
async function groupedQuery(
  index: SearchableIndex,
  scope: TenantScope,
  meter: RunMeter,
  window: UsageWindow,
  now: Date,
  sides: readonly GroupSide[],
): Promise<Partial<Record<GroupSide, TermsResult>>> {
  const request = parseSearchRequest(groupedUsageBody(meter, sides), 'events', { timeZone: 'UTC' });
  try {
    const response = await index.search({ scope, kind: 'events', range: { from: window.start, to: window.end }, timeZone: 'UTC', now }, request);
    const aggs = (response.aggregations ?? {}) as Partial<Record<GroupSide, { groups?: TermsResult }>>;
    return Object.fromEntries(sides.map((side) => [side, aggs[side]?.groups]));
  } catch (error) {
    if (sides.length < 2 || !refusedForGroups(error)) throw error;
    const parts = await Promise.all(sides.map((side) => groupedQuery(index, scope, meter, window, now, [side])));
    return Object.assign({}, ...parts) as Partial<Record<GroupSide, TermsResult>>;
  }
}

/** A 400 of the search service naming one of the grouped query's own aggregations (its bucket cap). */
function refusedForGroups(error: unknown): boolean {
  return error instanceof ValidationError && error.details.some((issue) => /^aggs\.(with|without)_subscription(\.|$)/.test(issue.field));
}

/** Usage of one subscription for a meter whose query names `{{company_id}}` / `{{subscription_id}}`. */
export async function placeholderUsage(
  index: SearchableIndex,
  scope: TenantScope,
  meter: RunMeter,
  window: UsageWindow,
  subscription: { companyId: string; subscriptionId: string },
  now: Date,
): Promise<Decimal> {
  const body = { ...substitutePlaceholders(meter.body, subscription), size: 0, aggs: { usage: metricAggregation(meter.metric) } };
  const response = await index.search(
    { scope, kind: 'events', range: { from: window.start, to: window.end }, timeZone: 'UTC', now },
    parseSearchRequest(body, 'events', { timeZone: 'UTC' }),
  );
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
  const buckets = (response.aggregations as Record<string, { buckets?: { key: number | string }[] }> | undefined)?.['windows']?.buckets ?? [];
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

/** Significant digits a double carries exactly (any decimal of 15 digits survives a round trip through one). */
const DOUBLE_DIGITS = 15;
/** Decimal places a metric keeps: finer than any billed unit, coarser than the noise of long sums. */
const METRIC_DECIMALS = 9;

/**
 * A metric aggregation's value as a decimal. The search backends add in binary floating point, so a
 * sum of decimal values carries noise (0.1 + 0.2 = 0.30000000000000004; a thousand 0.1s make
 * 99.9999999999986; 0.1 + 0.2 − 0.3 leaves 5.6e-17), which rounding `up` or `down` would bill as a
 * whole unit more or less. Whole numbers (counts, integer sums) are exact and kept as they are; other
 * values are taken to the 15 significant digits a double holds, then to at most 9 decimal places.
 * The run and report explanations both read values through this.
 */
export function metricValue(aggregation: unknown): Decimal {
  const value = (aggregation as { value?: unknown } | undefined)?.value;
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (Number.isInteger(value)) return Decimal.from(Number.isSafeInteger(value) ? value : BigInt(value));
    const significant = Number(value.toPrecision(DOUBLE_DIGITS));
    return Decimal.from(Number.isInteger(significant) ? BigInt(significant) : significant.toFixed(METRIC_DECIMALS));
  }
  if (typeof value === 'string' && Decimal.isDecimalText(value)) return Decimal.from(value);
  return Decimal.ZERO;
}
