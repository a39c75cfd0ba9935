import type { CustomerInvoice } from '../../../schemas/billing/customer-usage';
import { Decimal } from '../../../values/decimal';
import type { MeterPricing } from '../../billing/run/meter-pricing';
import type { RunMeter } from '../../billing/run/run-meter';
import type { ClosedPeriodTotal, PeriodTotal } from '../../billing/run/run-state-store';
import type { KnownSubscription } from '../../billing/run/subscription-directory';
import { subscriptionReportKey } from '../../billing/reports/report-id';
import { pricedUsage } from './usage-pricing';
import { periodStatus } from '../../../values/period-status';

/** What the billing run has reported for one meter: its pricing and its period totals per report key. */
export interface MeterBilled {
  readonly meter: RunMeter;
  readonly pricing: MeterPricing | undefined;
  readonly billed: ReadonlyMap<string, PeriodTotal>;
}

/**
 * The customer's last closed periods as the billing run reported them: per subscription and period,
 * each meter's reported total (the run's period totals: the current one once its period has ended,
 * and the ones before it), priced at the catalog price as the run priced it. Newest first.
 */
export function reportedInvoices(
  meters: readonly MeterBilled[],
  subscriptions: readonly KnownSubscription[],
  now: Date,
  finalThrough: Date | undefined,
): CustomerInvoice[] {
  const invoices = new Map<string, CustomerInvoice>();
  for (const { meter, pricing, billed } of meters) {
    for (const subscription of subscriptions) {
      const total = billed.get(subscriptionReportKey(subscription.subscriptionId));
      if (!total) continue;
      const closed: ClosedPeriodTotal[] = [...(Date.parse(total.periodEnd) <= now.getTime() ? [total] : []), ...(total.earlier ?? [])];
      const price = pricing?.priceFor(subscription);
      for (const period of closed) {
        const key = `${subscription.subscriptionId}\u0000${period.periodStart}`;
        const invoice = invoices.get(key) ?? {
          subscription_id: subscription.subscriptionId,
          period_start: period.periodStart,
          period_end: period.periodEnd,
          status: periodStatus(period.periodEnd, now, finalThrough),
          late_corrections: 0,
          meters: [],
          totals: [],
        };
        invoice.late_corrections += period.lateCorrections ?? 0;
        invoice.meters.push({
          billing_meter_id: meter.id,
          name: meter.name,
          usage: period.usage,
          late_usage: period.lateUsage ?? 0,
          currency: price?.currency ?? null,
          amount: price ? pricedUsage(price, BigInt(period.usage)).amount.toString() : null,
        });
        invoices.set(key, invoice);
      }
    }
  }
  return [...invoices.values()]
    .map((invoice) => ({ ...invoice, totals: sumsByCurrency(invoice.meters) }))
    .sort((a, b) => b.period_start.localeCompare(a.period_start) || a.subscription_id.localeCompare(b.subscription_id));
}

function sumsByCurrency(meters: CustomerInvoice['meters']): CustomerInvoice['totals'] {
  const sums = new Map<string, Decimal>();
  for (const meter of meters) {
    if (meter.currency === null || meter.amount === null) continue;
    sums.set(meter.currency, (sums.get(meter.currency) ?? Decimal.ZERO).plus(Decimal.from(meter.amount)));
  }
  return [...sums].map(([currency, amount]) => ({ currency, amount: amount.toString() }));
}
