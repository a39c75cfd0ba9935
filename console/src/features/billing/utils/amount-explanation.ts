import type { components } from '../../../lib/api-schema';

type ReportAmount = Pick<components['schemas']['BillingReport'], 'meter_usage' | 'report_total_usage' | 'amount_exact' | 'currency'>;

/**
 * Why a window's amount is what it is. The billing run prices the period's running total and rounds
 * it once to the currency's minor unit, then bills each window the difference (so the windows of a
 * period add up to exactly the rounded price of its total): a window whose usage does not move the
 * rounded total bills 0, and the window that does carries what accumulated. Undefined without an amount.
 */
export function amountExplanation(report: ReportAmount): string | undefined {
  if (report.amount_exact === null || report.amount_exact === undefined) return undefined;
  const after = report.report_total_usage;
  const before = after - report.meter_usage;
  const unit = (report.currency ?? '').toUpperCase();
  return `This window took the period's usage from ${before.toLocaleString('en')} to ${after.toLocaleString('en')}. The period's total is priced and rounded once to the smallest unit of ${unit || 'the currency'}; each window bills what that rounded total moved by${Number(report.amount_exact) === 0 ? ', which this window did not' : ''}.`;
}
