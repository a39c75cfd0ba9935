import type { BillingReport } from '../../../schemas/billing/report';
import { roundToMinorUnit } from '../../../values/currency';
import { Decimal } from '../../../values/decimal';
import { priceAmount } from '../pricing/price-amount';
import { quantityRule } from '../pricing/usage-quantity';
import { idempotencyKey } from '../providers/idempotency-key';
import { companyReportKey, reportId, subscriptionReportKey } from '../reports/report-id';
import type { ReportTenant } from '../reports/report-store';
import type { UsageWindow } from '../../../values/reporting-period';
import type { MeterPricing } from './meter-pricing';
import type { RunMeter } from './run-meter';
import type { ClosedPeriodTotal, PeriodTotal } from './run-state-store';
import type { KnownSubscription, SubscriptionDirectory } from './subscription-directory';
import type { UsageTarget, WindowUsage } from './window-usage';

/**
 * Turns a window's usage into reports: attribution, quantity, versions, period-to-date totals and
 * amounts. Pure: the caller commits what it returns.
 */

/** A report's raw usage before quantities: who it belongs to and where its usage came from. */
export interface AttributedUsage {
  readonly raw: Decimal;
  readonly subscription?: KnownSubscription;
  readonly companyId: string | null;
  /** The explicit subscription_id of unattributed events naming an unknown or inactive subscription. */
  readonly subscriptionId: string | null;
  readonly fromSubscriptionId: boolean;
  readonly fromCompany: boolean;
}

/**
 * A distinct meter's window has a subscription receiving usage from both groups, but no union count
 * for it: adding the two distinct counts would count a user in both twice, so nothing is built.
 */
export class DistinctUnionMissingError extends Error {
  constructor(meterId: string, target: UsageTarget) {
    super(
      `meter ${meterId}: the distinct count of subscription ${target.subscriptionId} needs the union with company ${target.companyId}'s events without subscription_id (windowUsage with the subscription directory)`,
    );
    this.name = 'DistinctUnionMissingError';
  }
}

/**
 * Attribution: events naming a subscription_id go to it if it is known and billable, else to an
 * unattributed report under that id; events naming none go to the company's matching subscription
 * (SubscriptionDirectory.forCompany), else to an unattributed report keyed by company. A subscription
 * receiving both adds them, except for distinct meters, which take the union count (distinctUnions).
 */
export function attribute(usage: WindowUsage, directory: SubscriptionDirectory, meter: RunMeter): Map<string, AttributedUsage> {
  const result = new Map<string, AttributedUsage>();
  // Entries are written out, not spread: most subscriptions get usage from both groups in every window.
  const add = (key: string, entry: AttributedUsage) => {
    const current = result.get(key);
    result.set(
      key,
      current
        ? {
            raw: combined(current, entry),
            subscription: current.subscription,
            companyId: current.companyId ?? entry.companyId,
            subscriptionId: current.subscriptionId,
            fromSubscriptionId: current.fromSubscriptionId || entry.fromSubscriptionId,
            fromCompany: current.fromCompany || entry.fromCompany,
          }
        : entry,
    );
  };
  const combined = (current: AttributedUsage, entry: AttributedUsage): Decimal => {
    if (meter.metric.type !== 'cardinality') return current.raw.plus(entry.raw);
    const target = { subscriptionId: entry.subscriptionId ?? '', companyId: entry.companyId ?? '' };
    const union = usage.distinctUnions?.get(target.subscriptionId);
    if (union === undefined) throw new DistinctUnionMissingError(meter.id, target);
    return union;
  };
  // Ids of known subscriptions are the directory's strings, not the query's: reports keep them for
  // long, and a window's answer (thousands of fresh strings) can then be let go at once.
  for (const [subscriptionId, raw] of usage.bySubscription) {
    const subscription = directory.explicit(subscriptionId);
    const known = directory.subscriptions.get(subscriptionId);
    add(subscriptionReportKey(subscriptionId), {
      raw,
      subscription,
      companyId: known?.companyId ?? null,
      subscriptionId: known?.subscriptionId ?? subscriptionId,
      fromSubscriptionId: true,
      fromCompany: false,
    });
  }
  for (const [companyId, raw] of usage.byCompany) {
    const subscription = directory.forCompany(companyId, meter.billedIds);
    if (subscription)
      add(subscriptionReportKey(subscription.subscriptionId), {
        raw,
        subscription,
        companyId: subscription.companyId,
        subscriptionId: subscription.subscriptionId,
        fromSubscriptionId: false,
        fromCompany: true,
      });
    else add(companyReportKey(companyId), { raw, companyId, subscriptionId: null, fromSubscriptionId: false, fromCompany: true });
  }
  return result;
}

export interface BuildInput {
  readonly tenant: ReportTenant;
  readonly meter: RunMeter;
  readonly window: UsageWindow;
  readonly usage: ReadonlyMap<string, AttributedUsage>;
  /** The group as committed before (re-evaluation), keyed by report key. */
  readonly previous: ReadonlyMap<string, BillingReport>;
  /** Period-to-date totals, updated in place for attributed reports. */
  readonly totals: Map<string, PeriodTotal>;
  readonly pricing: MeterPricing | undefined;
  readonly directory: SubscriptionDirectory;
  readonly now: Date;
  /**
   * Where the meter's cursor stands: every window before it has had its first report, so a billing
   * period ending at or before it is final, and a change to it is a late correction after final.
   */
  readonly finalThrough?: Date;
}

export interface BuildResult {
  readonly reports: BillingReport[];
  /** Reports that are new or got a new version (to deliver). */
  readonly changed: number;
}

/** The period a window's usage counts towards: the subscription's current period if it holds the window, else the UTC month. */
export function billingPeriod(subscription: KnownSubscription | undefined, window: UsageWindow): { start: Date; end: Date } {
  // Compared as numbers: a Date in a comparison is converted through valueOf each time, for every report.
  const windowStart = window.start.getTime();
  if (
    subscription?.periodStart &&
    subscription.periodEnd &&
    subscription.periodStart.getTime() <= windowStart &&
    windowStart < subscription.periodEnd.getTime()
  ) {
    return { start: subscription.periodStart, end: subscription.periodEnd };
  }
  const start = new Date(Date.UTC(window.start.getUTCFullYear(), window.start.getUTCMonth(), 1));
  return { start, end: new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)) };
}

/** Subscription metadata naming the provider's invoice of the current period, when the profile carries it. */
export const INVOICE_METADATA_KEYS = ['current_invoice_id', 'invoice_id'] as const;

/**
 * The invoice a report's usage lands on: the period's bounds, and as id the subscription's current
 * invoice id (metadata current_invoice_id / invoice_id) when the period is the subscription's current
 * one, else the deterministic `<subscription_id>:<period_start>`.
 */
export function invoiceOf(
  subscription: KnownSubscription | undefined,
  subscriptionId: string,
  period: { start: Date; end: Date },
  isoOf: (date: Date) => string = (date) => date.toISOString(),
): { id: string; period_start: string; period_end: string } {
  const current = subscription?.periodStart?.getTime() === period.start.getTime();
  const named = current ? INVOICE_METADATA_KEYS.map((k) => subscription?.metadata[k]).find((v): v is string => typeof v === 'string' && v !== '') : undefined;
  const periodStart = isoOf(period.start);
  return { id: named ?? `${subscriptionId}:${periodStart}`, period_start: periodStart, period_end: isoOf(period.end) };
}

/** Periods before the current one whose totals a report key keeps (PeriodTotal.earlier). */
export const EARLIER_PERIODS = 3;

export function buildWindowReports(input: BuildInput): BuildResult {
  const { tenant, meter, window, now } = input;
  const stamp = now.toISOString();
  const windowStartIso = window.start.toISOString();
  const windowEndIso = window.end.toISOString();
  const destination = primaryDestination(meter);
  // Subscriptions share a few period bounds: their ISO text is computed once per window, not per report.
  const isoTexts = new Map<number, string>();
  const isoOf = (date: Date) => {
    const time = date.getTime();
    let text = isoTexts.get(time);
    if (text === undefined) {
      text = date.toISOString();
      isoTexts.set(time, text);
    }
    return text;
  };
  const quantityOf = quantityRule({ usage_multiplier: meter.multiplier, usage_rounding_mode: meter.rounding });
  const keys = new Set([...input.usage.keys(), ...input.previous.keys()]);
  const reports: BillingReport[] = [];
  let changed = 0;
  for (const key of [...keys].sort()) {
    const prev = input.previous.get(key);
    const entry = input.usage.get(key);
    const raw = entry?.raw ?? Decimal.ZERO;
    const rawText = raw.toString();
    const quantity = Number(quantityOf(raw));
    if (!prev && quantity === 0 && raw.isZero()) continue;
    const delta = quantity - (prev?.meter_usage ?? 0);
    if (prev && delta === 0) {
      // Same quantity: nothing to bill again; keep the exact metric current for explanations.
      reports.push(prev.meter_metric_exact === rawText ? prev : { ...prev, meter_metric: Number(rawText), meter_metric_exact: rawText, updated_at: stamp });
      continue;
    }
    changed += 1;
    const subscriptionId = entry?.subscriptionId ?? prev?.subscription_id ?? null;
    const subscription = entry?.subscription ?? (subscriptionId !== null ? input.directory.subscriptions.get(subscriptionId) : undefined);
    // A re-evaluated report keeps its classification: a correction goes where the first version went.
    const attributed = prev ? prev.status !== 'unattributed' : entry?.subscription !== undefined;
    const companyId = entry?.companyId ?? prev?.company_id ?? null;
    const version = (prev?.report_version ?? 0) + 1;
    const period = attributed
      ? prev?.subscription_period_start && prev.subscription_period_end
        ? { start: new Date(prev.subscription_period_start), end: new Date(prev.subscription_period_end) }
        : billingPeriod(subscription, window)
      : undefined;

    let totalBefore = 0;
    let totalAfter = quantity;
    // A change to a period whose every window had been reported: counted on the period's total and marked on the version.
    const afterFinal = prev !== undefined && period !== undefined && input.finalThrough !== undefined && period.end.getTime() <= input.finalThrough.getTime();
    if (attributed && period) {
      const current = input.totals.get(key);
      const periodStart = isoOf(period.start);
      if (current && current.periodStart === periodStart) {
        totalBefore = current.usage;
        totalAfter = current.usage + delta;
        input.totals.set(key, afterFinal ? withLateCorrection({ ...current, usage: totalAfter }, delta) : { ...current, usage: totalAfter });
      } else if (current && current.periodStart > periodStart) {
        // A correction of an earlier period: that period's total is the report's own, moved by the delta.
        totalBefore = prev?.report_total_usage ?? 0;
        totalAfter = totalBefore + delta;
        if (current.earlier?.some((e) => e.periodStart === periodStart))
          input.totals.set(key, {
            ...current,
            earlier: current.earlier.map((e) =>
              e.periodStart === periodStart ? withLateCorrection({ ...e, usage: e.usage + delta }, afterFinal ? delta : undefined) : e,
            ),
          });
      } else {
        totalBefore = 0;
        totalAfter = delta + (prev?.meter_usage ?? 0);
        // A new period: the one it follows joins the earlier periods' totals (what its invoice was billed).
        const earlier = current
          ? [{ periodStart: current.periodStart, periodEnd: current.periodEnd, usage: current.usage }, ...(current.earlier ?? [])].slice(0, EARLIER_PERIODS)
          : undefined;
        input.totals.set(key, { periodStart, periodEnd: isoOf(period.end), usage: totalAfter, ...(earlier ? { earlier } : {}) });
      }
    }
    const usage = reportUsage(meter.aggregator, prev?.usage.invoice, subscription, subscriptionId, period, isoOf);
    const price = attributed && input.pricing ? input.pricing.priceFor(subscription) : undefined;
    let versionAmount: Decimal | undefined;
    if (price) {
      // Rounded totals, differenced: the versions of a period add up to exactly the rounded price of its total.
      const at = (total: number) => roundedPriceAt(price, Math.max(0, total));
      versionAmount = at(totalAfter).minus(at(totalBefore));
    }
    const windowAmount = versionAmount ? Decimal.from(prev?.amount_exact ?? '0').plus(versionAmount) : undefined;
    const identityKey = subscriptionId ?? `company:${companyId ?? ''}`;
    // Later fields (optional ones among them) are assigned in their key order rather than spread into
    // one literal: a literal with spreads takes V8's slow path, and the run builds millions of reports.
    // Every required field is set before the report is pushed.
    const report = {
      _id: reportId({ windowStart: window.start, meterId: meter.id, reportKey: key }),
      org_id: tenant.orgId,
      app_id: tenant.appId,
      type: 'usage',
      status: attributed ? (quantity === 0 && !prev ? 'success' : 'pending') : 'unattributed',
      success: attributed && quantity === 0 && !prev,
      usage_start_time: windowStartIso,
      usage_end_time: windowEndIso,
      subscription_id: subscriptionId,
      company_id: companyId,
      billing_meter_id: meter.id,
      provider: meter.provider,
      meter_metric: Number(rawText),
      meter_metric_exact: rawText,
      meter_usage: quantity,
      report_total_usage: totalAfter,
      report_version: version,
      last_success_time: prev?.last_success_time ?? null,
      idempotency_key: idempotencyKey({
        orgId: tenant.orgId,
        appId: tenant.appId,
        meterId: meter.id,
        subscriptionId: identityKey,
        windowStart: window.start,
        windowEnd: window.end,
        reportVersion: version,
        destination,
      }),
      delivery_runs: 0,
      provider_requests: prev?.provider_requests ?? [],
    } as BillingReport;
    if (prev?.channel_requests) report.channel_requests = prev.channel_requests;
    if (windowAmount && price) {
      const amountText = windowAmount.toString();
      report.amount = Number(amountText);
      report.amount_exact = amountText;
      report.currency = price.currency;
    }
    report.subscription_period_start = period ? isoOf(period.start) : null;
    report.subscription_period_end = period ? isoOf(period.end) : null;
    if (prev?.beginning_balance) report.beginning_balance = prev.beginning_balance;
    if (prev?.ending_balance) report.ending_balance = prev.ending_balance;
    if (prev?.balance_changes) report.balance_changes = prev.balance_changes;
    report.usage = usage;
    report.attribution = entry
      ? entry.fromSubscriptionId && entry.fromCompany
        ? 'both'
        : entry.fromCompany
          ? 'company'
          : 'subscription_id'
      : (prev?.attribution ?? 'subscription_id');
    if (price) report.price_id = price.id;
    const newVersion: BillingReport['versions'][number] = versionAmount
      ? { report_version: version, meter_metric: rawText, meter_usage: quantity, delta, amount_exact: versionAmount.toString(), created_at: stamp }
      : { report_version: version, meter_metric: rawText, meter_usage: quantity, delta, created_at: stamp };
    if (afterFinal) newVersion.after_final = true;
    report.versions = prev ? [...prev.versions, newVersion] : [newVersion];
    report.created_at = prev?.created_at ?? stamp;
    report.updated_at = stamp;
    reports.push(report);
  }
  return { reports, changed };
}

/** A period total with one more late correction after final counted (`delta` undefined: unchanged). */
function withLateCorrection<T extends ClosedPeriodTotal>(total: T, delta: number | undefined): T {
  if (delta === undefined) return total;
  return { ...total, lateCorrections: (total.lateCorrections ?? 0) + 1, lateUsage: (total.lateUsage ?? 0) + delta };
}

type ReportUsage = BillingReport['usage'];
type Invoice = NonNullable<ReportUsage['invoice']>;

/**
 * A report's `usage`: the aggregator and the invoice its usage lands on. A correction stays on the
 * invoice its first version was billed on. A known subscription's reports share one object per
 * period (its directory entry is fixed for the run; reports are never changed in place), instead of
 * one per report, which the run keeps until the window is delivered.
 */
function reportUsage(
  aggregator: ReportUsage['aggregator'],
  previousInvoice: Invoice | undefined,
  subscription: KnownSubscription | undefined,
  subscriptionId: string | null,
  period: { start: Date; end: Date } | undefined,
  isoOf: (date: Date) => string,
): ReportUsage {
  if (previousInvoice !== undefined || period === undefined || subscriptionId === null)
    return { aggregator, ...(previousInvoice ? { invoice: previousInvoice } : {}) };
  if (subscription?.subscriptionId !== subscriptionId) return { aggregator, invoice: invoiceOf(subscription, subscriptionId, period, isoOf) };
  const memo = usageMemo.get(subscription);
  if (memo && memo.aggregator === aggregator && memo.start === period.start.getTime() && memo.end === period.end.getTime()) return memo.usage;
  const usage = { aggregator, invoice: invoiceOf(subscription, subscriptionId, period, isoOf) };
  usageMemo.set(subscription, { aggregator, start: period.start.getTime(), end: period.end.getTime(), usage });
  return usage;
}

const usageMemo = new WeakMap<KnownSubscription, { aggregator: string; start: number; end: number; usage: ReportUsage }>();

/**
 * A price's amount for a period-to-date total, rounded to the currency: memoised per price object
 * (a run loads its prices once), since each version prices its total before and after and the next
 * window's "before" is this one's "after" — most totals are priced again and again.
 */
const priceMemo = new WeakMap<object, Map<number, Decimal>>();
const PRICE_MEMO_ENTRIES = 100_000;
function roundedPriceAt(price: NonNullable<ReturnType<MeterPricing['priceFor']>>, total: number): Decimal {
  let memo = priceMemo.get(price);
  if (!memo) {
    memo = new Map();
    priceMemo.set(price, memo);
  }
  let amount = memo.get(total);
  if (amount === undefined) {
    amount = roundToMinorUnit(priceAmount(price, BigInt(total)).exact_amount, price.currency);
    if (memo.size >= PRICE_MEMO_ENTRIES) memo.clear();
    memo.set(total, amount);
  }
  return amount;
}

/** The destination named by a report's idempotency_key: the provider, or the meter's first webhook channel. */
export function primaryDestination(meter: RunMeter): string {
  const channels = meter.params['channel_ids'];
  return meter.provider === 'webhook' && Array.isArray(channels) && typeof channels[0] === 'string' ? `webhook:${channels[0]}` : meter.provider;
}
