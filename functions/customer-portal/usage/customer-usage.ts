import type { CustomerMeterUsage, CustomerUsage } from '../../../schemas/billing/customer-usage';
import { Decimal } from '../../../values/decimal';
import { loadMeterPricing, type CatalogPrice, type MeterPricing } from '../../billing/run/meter-pricing';
import type { RunMeter } from '../../billing/run/run-meter';
import type { PeriodTotal } from '../../billing/run/run-state-store';
import { SubscriptionDirectory, type KnownSubscription } from '../../billing/run/subscription-directory';
import { subscriptionReportKey } from '../../billing/reports/report-id';
import type { ReportTenant } from '../../billing/reports/report-store';
import type { ResourceStore } from '../../resources/resource-store';
import type { SearchableIndex } from '../../search/port';
import { mapWithConcurrency } from '../../shared/concurrency';
import type { CustomerPeriod } from './customer-period';
import { billableMeters, customerLines } from './customer-asks';
import { pricedUsage, projectedQuantity } from './usage-pricing';
import { windowQuantities, type QuantityAsk, type WindowQuantities } from './window-quantities';
import { reportedInvoices } from './reported-invoices';
import { leastCursor, periodStatus } from '../../../values/period-status';

/**
 * One customer's usage and bill this period, from its events, as the billing run will bill them:
 * the same meters, attribution (events naming a subscription; the company's other events to the
 * subscription the run picks), reporting windows, multiplier and rounding, catalog price and tiers.
 * The estimate projects the usage so far over the whole period; once the period has ended it is the
 * bill itself, and equals what the run reports for that period.
 */

/** Meters whose prices and reported totals are read at once for one customer. */
const METERS_IN_FLIGHT = 8;

export interface CustomerUsageDeps {
  readonly index: SearchableIndex;
  readonly resources: ResourceStore;
  /** The available prepaid balance of a subscription (decimal text), when it has one. */
  readonly balance: (tenant: ReportTenant, subscriptionId: string) => Promise<string | undefined>;
  /**
   * Period-to-date usage the billing run has reported, per meter id and report key (run state): what
   * can be read before the keys are known starts at once; `of` reads the keys'.
   */
  readonly reportedTotals: (tenant: ReportTenant) => {
    of(reportKeys: readonly string[]): Promise<ReadonlyMap<string, ReadonlyMap<string, PeriodTotal>>>;
    /** Where each meter's cursor stands (a period is final once every meter's has passed it). */
    positions(): Promise<ReadonlyMap<string, Date>>;
  };
}

export interface CustomerUsageInput {
  readonly tenant: ReportTenant;
  readonly companyId: string;
  readonly subscriptionId?: string;
  /** A period other than the current one: a subscription's stated period, or a UTC month, starting then. */
  readonly periodStart?: Date;
  readonly now: Date;
}

/** One meter's lines for one subscription: what the usage answer shows and what the balance needs. */
interface MeterLine {
  readonly usage: CustomerMeterUsage;
  readonly billedAmount: Decimal;
}

export async function customerUsage(deps: CustomerUsageDeps, input: CustomerUsageInput): Promise<CustomerUsage> {
  return (await customerUsageLines(deps, input)).usage;
}

/** The usage answer and the lines it measured (a statement lists the events of each). */
export async function customerUsageLines(deps: CustomerUsageDeps, input: CustomerUsageInput): Promise<{ usage: CustomerUsage; asks: QuantityAsk[] }> {
  const { tenant, companyId, now } = input;
  const scope = { org_id: tenant.orgId, app_id: tenant.appId };
  const pricings = new Map<string, Promise<MeterPricing | undefined>>();
  const pricingOf = (planId: string | undefined) => {
    if (planId === undefined) return Promise.resolve(undefined);
    let pricing = pricings.get(planId);
    if (!pricing) {
      pricing = loadMeterPricing(deps.resources, tenant, planId);
      pricings.set(planId, pricing);
    }
    return pricing;
  };
  // The reads that do not depend on each other run side by side: a page load is a few round trips,
  // not one per meter. Each meter's price and the run's cursors are read while the company's
  // subscriptions are; what the run has reported of those (the balance's drawn part, the last
  // periods' invoices) while its events are.
  const metersRead = billableMeters(deps.resources, tenant);
  const pricingsRead = metersRead.then((meters) =>
    mapWithConcurrency(meters, METERS_IN_FLIGHT, async (meter) => ({ meter, pricing: await pricingOf(meter.catalogPlanId) })),
  );
  // Awaited below; marked handled now, for when a refusal of the request comes first.
  pricingsRead.catch(() => undefined);
  const totalsRead = deps.reportedTotals(tenant);
  const [directory, meters] = await Promise.all([SubscriptionDirectory.load(deps.index, scope, now, { term: { company_id: companyId } }), metersRead]);
  const { own, billable, periods, asks } = customerLines(directory, meters, input);
  const [priced, totals, cursors, balanceList, quantities] = await Promise.all([
    pricingsRead,
    totalsRead.of(own.map((s) => subscriptionReportKey(s.subscriptionId))),
    totalsRead.positions(),
    Promise.all(billable.map(async (s) => [s.subscriptionId, await deps.balance(tenant, s.subscriptionId)] as const)),
    // Every meter's windows of every subscription in one search (more only past the bucket cap).
    windowQuantities(deps.index, scope, asks, now),
  ]);
  const balances = new Map(balanceList);
  const reported = priced.map(({ meter, pricing }) => ({ meter, pricing, billed: totals.get(meter.id) ?? new Map<string, PeriodTotal>() }));
  const perMeter = reported.map(({ meter, pricing, billed }) => {
    const found: MeterLine[] = [];
    asks.forEach((ask, n) => {
      const windows = quantities[n]!;
      if (ask.meter !== meter || (windows.total === 0n && !ask.companyAttributed)) return;
      found.push(meterLine(meter, ask.subscription, pricing?.priceFor(ask.subscription), ask.period, windows, billed, now));
    });
    return { lines: found, reported: { meter, pricing, billed } };
  });
  const lines = perMeter.flatMap((meter) => meter.lines);
  // Final once every meter billing the customer has reported the whole period.
  const finalThrough = leastCursor(meters.map((meter) => cursors.get(meter.id)));
  const usage: CustomerUsage = {
    company_id: companyId,
    generated_at: now.toISOString(),
    subscriptions: billable.map((s) => {
      const period = periods.get(s.subscriptionId)!;
      const available = balances.get(s.subscriptionId);
      const shown = {
        subscription_id: s.subscriptionId,
        status: s.status,
        period: {
          start: period.start.toISOString(),
          end: period.end.toISOString(),
          closed: period.closed,
          status: periodStatus(period.end, now, finalThrough),
        },
      };
      if (available === undefined) return shown;
      // The run draws each reported amount: what it has reported is drawn already, the rest of the estimate will be.
      const toDraw = Decimal.sum(
        lines
          .filter((line) => line.usage.subscription_id === s.subscriptionId)
          .map((line) => Decimal.from(line.usage.estimated_amount ?? '0').minus(line.billedAmount)),
      );
      return { ...shown, balance: { available, after_estimate: Decimal.from(available).minus(toDraw).toString() } };
    }),
    meters: lines.map((line) => line.usage),
    totals: totalsByCurrency(lines.map((line) => line.usage)),
    invoices: reportedInvoices(
      perMeter.map((meter) => meter.reported),
      own,
      now,
      finalThrough,
    ),
  };
  return { usage, asks };
}

function meterLine(
  meter: RunMeter,
  subscription: KnownSubscription,
  price: CatalogPrice | undefined,
  period: CustomerPeriod,
  windows: WindowQuantities,
  billed: ReadonlyMap<string, PeriodTotal>,
  now: Date,
): MeterLine {
  const estimated = period.closed ? windows.total : projectedQuantity(windows.total, period, now);
  const so = price ? pricedUsage(price, windows.total) : undefined;
  const estimate = price ? pricedUsage(price, estimated) : undefined;
  // What the run has reported this period (its period-to-date total), priced as it priced it.
  const total = billed.get(subscriptionReportKey(subscription.subscriptionId));
  const billedUsage = total && total.periodStart === period.start.toISOString() ? BigInt(total.usage) : 0n;
  return {
    usage: {
      billing_meter_id: meter.id,
      name: meter.name,
      subscription_id: subscription.subscriptionId,
      usage: Number(windows.total),
      estimated_usage: Number(estimated),
      price_id: price?.id ?? null,
      currency: price?.currency ?? null,
      amount: so ? so.amount.toString() : null,
      estimated_amount: estimate ? estimate.amount.toString() : null,
      estimate_lines: estimate ? estimate.lines : [],
      daily: windows.daily,
    },
    billedAmount: price ? pricedUsage(price, billedUsage).amount : Decimal.ZERO,
  };
}

function totalsByCurrency(meters: readonly CustomerMeterUsage[]): CustomerUsage['totals'] {
  const sums = new Map<string, { amount: Decimal; estimated: Decimal }>();
  for (const meter of meters) {
    if (meter.currency === null) continue;
    const sum = sums.get(meter.currency) ?? { amount: Decimal.ZERO, estimated: Decimal.ZERO };
    sums.set(meter.currency, {
      amount: sum.amount.plus(Decimal.from(meter.amount ?? '0')),
      estimated: sum.estimated.plus(Decimal.from(meter.estimated_amount ?? '0')),
    });
  }
  return [...sums].map(([currency, sum]) => ({ currency, amount: sum.amount.toString(), estimated_amount: sum.estimated.toString() }));
}
