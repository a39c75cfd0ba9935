import type { MeterPreview, MeterWarning, PreviewLine } from '../../../schemas/billing/meter-preview';
import { windowContaining } from '../../../values/reporting-period';
import type { ResourceStore } from '../../resources/resource-store';
import type { SearchableIndex } from '../../search/port';
import { ValidationError } from '../../shared/errors';
import type { ReportTenant } from '../reports/report-store';
import { loadMeterPricing } from '../run/meter-pricing';
import { runMeterOf } from '../run/run-meter';
import { SubscriptionDirectory } from '../run/subscription-directory';
import { meterWindowUsage, UsageGroupLimitError } from '../run/usage-query';
import { attribute, buildWindowReports } from '../run/window-reports';
import { meterSetupWarnings } from './meter-setup-warnings';

export interface MeterPreviewDeps {
  readonly resources: ResourceStore;
  readonly index: SearchableIndex;
}

/** Subscription ids listed in a preview; the count says how many match in all. */
const LISTED_SUBSCRIPTIONS = 20;

/**
 * What a meter (saved or not) bills for the window in progress, computed by the billing run's own
 * functions (usage query, attribution, report building and pricing), so a preview line is what the
 * run will report for that subscription once the window closes, if no more events arrive.
 * Amounts are the window's alone: the run prices the period's running total, so a later window of
 * a period already billed may round differently by a cent.
 */
export async function previewMeter(deps: MeterPreviewDeps, tenant: ReportTenant, stored: Record<string, unknown>, now: Date): Promise<MeterPreview> {
  const meter = runMeterOf(stored);
  if ('error' in meter) throw new ValidationError(`The meter cannot be evaluated: ${meter.error}`, [{ field: 'billing_plan', reason: meter.error }]);
  const scope = { org_id: tenant.orgId, app_id: tenant.appId };
  const directory = await SubscriptionDirectory.load(deps.index, scope, now);
  const window = windowContaining(now, meter.periodMs);
  const usage = await meterWindowUsage(deps.index, scope, meter, window, now, directory).catch((error: unknown) => {
    // The run skips such a window and says why in its summary; a preview answers the same reason, not a 500.
    if (error instanceof UsageGroupLimitError)
      throw new ValidationError(`The meter cannot be previewed: ${error.message}`, [{ field: 'es_query', reason: error.message }]);
    throw error;
  });
  const pricing = await loadMeterPricing(deps.resources, tenant, meter.catalogPlanId);
  const { reports } = buildWindowReports({
    tenant,
    meter,
    window,
    usage: attribute(usage, directory, meter),
    previous: new Map(),
    totals: new Map(),
    pricing,
    directory,
    now,
  });
  const lines = reports.map(
    (report): PreviewLine => ({
      subscription_id: report.subscription_id,
      company_id: report.company_id,
      status: report.status === 'unattributed' ? 'unattributed' : 'billed',
      metric: report.meter_metric_exact,
      quantity: report.meter_usage,
      amount: report.amount_exact ?? null,
      currency: report.currency ?? null,
      price_id: report.price_id ?? null,
    }),
  );
  const matching = directory.billableFor(meter.billedIds);
  const warnings: MeterWarning[] = meterSetupWarnings(meter, directory);
  const unattributed = lines.filter((line) => line.status === 'unattributed');
  if (unattributed.length > 0 && warnings.length === 0) {
    const companies = unattributed
      .slice(0, 5)
      .map((line) => line.company_id ?? line.subscription_id)
      .join(', ');
    warnings.push({
      code: 'unattributed_usage',
      message: `${unattributed.length} companies or subscription ids have usage in this window but no matching active subscription (${companies}${unattributed.length > 5 ? ', …' : ''}): their reports are kept as unattributed and never sent.`,
    });
  }
  if (meter.catalogPlanId !== undefined && pricing === undefined) {
    warnings.push({ code: 'no_price', message: `The catalog plan "${meter.catalogPlanId}" has no active price: reports carry usage but no amount.` });
  }
  return {
    billed_ids: [...meter.billedIds],
    per_subscription: meter.perSubscription,
    subscriptions: {
      billable: directory.billableFor(new Set()).length,
      matching: matching.length,
      matching_ids: matching.slice(0, LISTED_SUBSCRIPTIONS).map((s) => s.subscriptionId),
      matching_by_metadata: matching.filter((s) => s.itemsFromMetadata).length,
    },
    window: { start: window.start.toISOString(), end: window.end.toISOString(), complete: window.end.getTime() <= now.getTime() },
    lines,
    warnings,
  };
}
