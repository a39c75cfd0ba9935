import { quantityRule } from '../../billing/pricing/usage-quantity';
import { metricAggregation, metricValue, reportUsageBody } from '../../billing/run/usage-query';
import { substitutePlaceholders, type RunMeter } from '../../billing/run/run-meter';
import type { KnownSubscription } from '../../billing/run/subscription-directory';
import { parseSearchRequest } from '../../search/dsl';
import type { SearchableIndex, TenantScope } from '../../search/port';
import type { CustomerPeriod } from './customer-period';

/** Windows per search, summed over its meters: half the search's bucket cap, so a year of 5-minute windows is a few searches. */
const WINDOWS_PER_QUERY = 5_000;

/** One meter's usage of one subscription in one period: what a line of the usage page measures. */
export interface QuantityAsk {
  readonly meter: RunMeter;
  readonly subscription: KnownSubscription;
  /** Whether the run bills the company's events without subscription_id to this subscription. */
  readonly companyAttributed: boolean;
  readonly period: CustomerPeriod;
}

export interface WindowQuantities {
  /** The sum of each window's billed quantity (its raw usage after the meter's multiplier and rounding). */
  readonly total: bigint;
  /** The same quantities added up per UTC day of the window's start. */
  readonly daily: { date: string; usage: number }[];
}

/** A stretch of one ask's period measured in one search (a long period of short windows takes several). */
interface Slice {
  readonly ask: number;
  readonly from: number;
  readonly to: number;
}

/**
 * Each ask's billed quantities per reporting window of its period, up to `now`, in as few searches as
 * the bucket cap allows (usually one for the whole page): one date histogram per window length, and in
 * each window a `filter` per ask of the events the run would bill to it (its own, and its company's
 * without subscription_id when the run attributes those to it) with the meter's metric, so the engine
 * reads the company's events once (on DuckDB one grouped query with a filtered aggregate per ask).
 * Each window is rounded on its own, as each report is, so each total is the period-to-date total the
 * run reaches.
 */
export async function windowQuantities(index: SearchableIndex, scope: TenantScope, asks: readonly QuantityAsk[], now: Date): Promise<WindowQuantities[]> {
  const queries = asks.map(billedEvents);
  const totals = asks.map(() => ({ total: 0n, daily: new Map<string, bigint>() }));
  for (const slices of searchesOf(asks, now)) {
    const from = Math.min(...slices.map((slice) => slice.from));
    const to = Math.max(...slices.map((slice) => slice.to));
    const distinct = [...new Map(slices.map((slice) => [JSON.stringify(queries[slice.ask]), queries[slice.ask]!])).values()];
    const histograms = new Map<number, Record<string, unknown>>();
    slices.forEach((slice, n) => {
      const { meter } = asks[slice.ask]!;
      const range = { range: { time: { gte: new Date(slice.from).toISOString(), lt: new Date(slice.to).toISOString() } } };
      const perAsk = histograms.get(meter.periodMs) ?? {};
      perAsk[`ask${n}`] = { filter: { bool: { filter: [queries[slice.ask], range] } }, aggs: { usage: metricAggregation(meter.metric) } };
      histograms.set(meter.periodMs, perAsk);
    });
    const body = {
      size: 0,
      query: { bool: { should: distinct, minimum_should_match: 1 } },
      aggs: Object.fromEntries(
        [...histograms].map(([periodMs, perAsk]) => [
          `windows${periodMs}`,
          { date_histogram: { field: 'time', fixed_interval: `${periodMs / 60_000}m`, min_doc_count: 1 }, aggs: perAsk },
        ]),
      ),
    };
    const request = parseSearchRequest(body, 'events', { timeZone: 'UTC' });
    const response = await index.search({ scope, kind: 'events', range: { from: new Date(from), to: new Date(to) }, timeZone: 'UTC', now }, request);
    const aggregations = (response.aggregations ?? {}) as Record<string, { buckets?: ({ key: number | string } & Record<string, unknown>)[] } | undefined>;
    slices.forEach((slice, n) => {
      const { meter } = asks[slice.ask]!;
      const quantityOf = quantityRule({ usage_multiplier: meter.multiplier, usage_rounding_mode: meter.rounding });
      const sum = totals[slice.ask]!;
      for (const bucket of aggregations[`windows${meter.periodMs}`]?.buckets ?? []) {
        const own = bucket[`ask${n}`] as { doc_count?: number; usage?: unknown } | undefined;
        // A window with events of other asks only: not one of this ask's windows.
        if (!own?.doc_count) continue;
        const quantity = quantityOf(metricValue(own.usage));
        const start = typeof bucket.key === 'number' ? bucket.key : Date.parse(bucket.key);
        const date = new Date(start).toISOString().slice(0, 10);
        sum.total += quantity;
        sum.daily.set(date, (sum.daily.get(date) ?? 0n) + quantity);
      }
    });
  }
  return totals.map(({ total, daily }) => ({
    total,
    daily: [...daily].sort(([a], [b]) => a.localeCompare(b)).map(([date, usage]) => ({ date, usage: Number(usage) })),
  }));
}

/** The query of the events the run bills to an ask's subscription under its meter. */
export function billedEvents({ meter, subscription, companyAttributed }: QuantityAsk): unknown {
  const ids = { companyId: subscription.companyId, subscriptionId: subscription.subscriptionId };
  const narrowed = meter.perSubscription
    ? substitutePlaceholders(meter.body, ids)
    : reportUsageBody(meter, { subscriptionId: ids.subscriptionId, companyId: ids.companyId, companyAttributed });
  return narrowed['query'] ?? { match_all: {} };
}

/**
 * The asks' periods up to now cut into slices of at most WINDOWS_PER_QUERY windows, packed into
 * searches whose histograms (one per window length, over the union of its slices) stay within it.
 */
function searchesOf(asks: readonly QuantityAsk[], now: Date): Slice[][] {
  const searches: Slice[][] = [];
  let current: Slice[] = [];
  const windowsOf = (slices: readonly Slice[]) => {
    const spans = new Map<number, { from: number; to: number }>();
    for (const slice of slices) {
      const { periodMs } = asks[slice.ask]!.meter;
      const span = spans.get(periodMs);
      spans.set(periodMs, span ? { from: Math.min(span.from, slice.from), to: Math.max(span.to, slice.to) } : { from: slice.from, to: slice.to });
    }
    // Windows are aligned to the epoch, so a span may touch one more than its length.
    return [...spans].reduce((sum, [periodMs, span]) => sum + Math.ceil((span.to - span.from) / periodMs) + 1, 0);
  };
  asks.forEach(({ meter, period }, ask) => {
    const end = Math.min(period.end.getTime(), now.getTime());
    for (let from = period.start.getTime(); from < end; from += WINDOWS_PER_QUERY * meter.periodMs) {
      const slice = { ask, from, to: Math.min(end, from + WINDOWS_PER_QUERY * meter.periodMs) };
      if (current.length > 0 && windowsOf([...current, slice]) > WINDOWS_PER_QUERY) {
        searches.push(current);
        current = [];
      }
      current.push(slice);
    }
  });
  if (current.length > 0) searches.push(current);
  return searches;
}
