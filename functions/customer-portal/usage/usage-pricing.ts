import type { PriceTerms } from '../../../schemas/billing/catalog';
import { roundToMinorUnit } from '../../../values/currency';
import type { Decimal } from '../../../values/decimal';
import { priceAmount } from '../../billing/pricing/price-amount';
import { quantityRule } from '../../billing/pricing/usage-quantity';
import { metricAggregation, metricValue, reportUsageBody } from '../../billing/run/usage-query';
import { substitutePlaceholders, type RunMeter } from '../../billing/run/run-meter';
import type { KnownSubscription } from '../../billing/run/subscription-directory';
import { parseSearchRequest } from '../../search/dsl';
import type { SearchableIndex, TenantScope } from '../../search/port';
import type { CustomerPeriod } from './customer-period';

/** Windows per histogram query: half the search's bucket cap, so a year of 5-minute windows is a few queries. */
const WINDOWS_PER_QUERY = 5_000;

export interface WindowQuantities {
  /** The sum of each window's billed quantity (its raw usage after the meter's multiplier and rounding). */
  readonly total: bigint;
  /** The same quantities added up per UTC day of the window's start. */
  readonly daily: { date: string; usage: number }[];
}

/**
 * A subscription's billed quantities per reporting window of a period, up to `now`: one date
 * histogram of the meter's windows over the events the run would bill to it (its own, and its
 * company's without subscription_id when the run attributes those to it). Each window is rounded on
 * its own, as each report is, so the total is the period-to-date total the run reaches.
 */
export async function windowQuantities(
  index: SearchableIndex,
  scope: TenantScope,
  meter: RunMeter,
  subscription: KnownSubscription,
  companyAttributed: boolean,
  period: CustomerPeriod,
  now: Date,
): Promise<WindowQuantities> {
  const ids = { companyId: subscription.companyId, subscriptionId: subscription.subscriptionId };
  const narrowed = meter.perSubscription
    ? substitutePlaceholders(meter.body, ids)
    : reportUsageBody(meter, { subscriptionId: ids.subscriptionId, companyId: ids.companyId, companyAttributed });
  const body = {
    ...narrowed,
    size: 0,
    aggs: {
      windows: {
        date_histogram: { field: 'time', fixed_interval: `${meter.periodMs / 60_000}m`, min_doc_count: 1 },
        aggs: { usage: metricAggregation(meter.metric) },
      },
    },
  };
  const request = parseSearchRequest(body, 'events', { timeZone: 'UTC' });
  const quantityOf = quantityRule({ usage_multiplier: meter.multiplier, usage_rounding_mode: meter.rounding });
  const end = Math.min(period.end.getTime(), now.getTime());
  let total = 0n;
  const daily = new Map<string, bigint>();
  for (let from = period.start.getTime(); from < end; from += WINDOWS_PER_QUERY * meter.periodMs) {
    const to = Math.min(end, from + WINDOWS_PER_QUERY * meter.periodMs);
    const response = await index.search({ scope, kind: 'events', range: { from: new Date(from), to: new Date(to) }, timeZone: 'UTC', now }, request);
    const buckets =
      (response.aggregations as Record<string, { buckets?: { key: number | string; usage?: unknown }[] }> | undefined)?.['windows']?.buckets ?? [];
    for (const bucket of buckets) {
      const quantity = quantityOf(metricValue(bucket.usage));
      const start = typeof bucket.key === 'number' ? bucket.key : Date.parse(bucket.key);
      const date = new Date(start).toISOString().slice(0, 10);
      total += quantity;
      daily.set(date, (daily.get(date) ?? 0n) + quantity);
    }
  }
  return { total, daily: [...daily].sort(([a], [b]) => a.localeCompare(b)).map(([date, usage]) => ({ date, usage: Number(usage) })) };
}

/**
 * The quantity a period ends with if usage goes on at its rate so far: total × period length ÷
 * time elapsed, to the nearest unit (half up). Before a whole window has passed the rate says little,
 * but it is what there is; at the period's start (nothing elapsed) the usage itself.
 */
export function projectedQuantity(total: bigint, period: CustomerPeriod, now: Date): bigint {
  const elapsed = BigInt(Math.max(0, now.getTime() - period.start.getTime()));
  const length = BigInt(period.end.getTime() - period.start.getTime());
  if (elapsed === 0n || elapsed >= length) return total;
  return (total * length * 2n + elapsed) / (2n * elapsed);
}

/** A quantity's price as the run reports a period total: exact tiers, then rounded once to the currency. */
export function pricedUsage(
  price: PriceTerms,
  quantity: bigint,
): { amount: Decimal; lines: { tier?: number; units: number; unit_price: string; flat_price: string; amount: string }[] } {
  const priced = priceAmount(price, quantity);
  return {
    amount: roundToMinorUnit(priced.exact_amount, price.currency),
    lines: priced.lines.map((line) => ({ ...line, units: Number(line.units) })),
  };
}
