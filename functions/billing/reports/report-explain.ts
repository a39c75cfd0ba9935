import type { BillingReport } from '../../../schemas/billing/report';
import { parseSearchRequest } from '../../search/dsl';
import { appRulesPartition } from '../../resources/keys';
import { METER_PREFIX } from '../../management/billing-meters';
import type { ResourceStore } from '../../resources/resource-store';
import type { SearchableIndex } from '../../search/port';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { Decimal } from '../../../values/decimal';
import { reportedQuantity } from '../pricing/usage-quantity';
import { runMeterOf, substitutePlaceholders, type RunMeter } from '../run/run-meter';
import { SubscriptionDirectory } from '../run/subscription-directory';
import { metricAggregation, metricValue, reportUsageBody } from '../run/usage-query';
import type { ReportStore, ReportTenant } from './report-store';

export interface ExplainDeps {
  readonly resources: ResourceStore;
  readonly index: SearchableIndex;
  readonly store: ReportStore;
}

/** Event ids shown per explanation: enough to check by hand, small enough to read. */
export const SAMPLE_SIZE = 20;

export interface ReportExplanation {
  report: BillingReport;
  /** The raw metric of the window now (decimal text) and the whole quantity after multiplier and rounding. */
  recomputed_metric: string;
  recomputed_usage: number;
  /** True when both equal the report's meter_metric_exact and meter_usage (false after late events not yet re-billed). */
  matches: boolean;
  /** The exact search body sent (events index), with the range it was confined to. */
  query: Record<string, unknown>;
  range: { from: string; to: string; time_zone: 'UTC' };
  /** Whether the company's events without subscription_id were counted for this subscription. */
  company_usage_included: boolean;
  sample_event_ids: string[];
  /** Events the query matched in the window (not weighted). */
  event_count: number;
}

/**
 * Re-runs a report's usage query: the meter's query for the report's window, narrowed to the
 * report's subscription (and the company's events without subscription_id when company usage is
 * attributed to it), built by the billing run's own functions, so the number is the one billed.
 * One search returns the metric, the event count and a sample of event ids.
 */
export async function explainReport(deps: ExplainDeps, tenant: ReportTenant, id: string, now: Date): Promise<ReportExplanation> {
  const report = await deps.store.getReport(tenant, id);
  if (!report) throw new NotFoundError('No such billing report');
  const stored = await deps.resources.get(
    { partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: METER_PREFIX },
    report.billing_meter_id,
    'billing meter',
  );
  const meter = runMeterOf(stored);
  if ('error' in meter)
    throw new ValidationError(`The report's meter cannot be evaluated: ${meter.error}`, [{ field: 'billing_meter_id', reason: meter.error }]);

  const scope = { org_id: tenant.orgId, app_id: tenant.appId };
  const companyUsageIncluded = await companyUsageGoesTo(deps.index, scope, meter, report, now);
  const body = { ...usageBody(meter, report, companyUsageIncluded), size: SAMPLE_SIZE };
  const window = { from: new Date(report.usage_start_time), to: new Date(report.usage_end_time) };
  const response = await deps.index.search(
    { scope, kind: 'events', range: window, timeZone: 'UTC', now },
    parseSearchRequest(body, 'events', { timeZone: 'UTC' }),
  );
  const metric = metricValue(response.aggregations?.['usage']);
  const usage = reportedQuantity(metric, { usage_multiplier: meter.multiplier, usage_rounding_mode: meter.rounding });
  return {
    report,
    recomputed_metric: metric.toString(),
    recomputed_usage: Number(usage),
    matches: usage === BigInt(report.meter_usage) && metric.compare(Decimal.from(report.meter_metric_exact)) === 0,
    query: body,
    range: { from: window.from.toISOString(), to: window.to.toISOString(), time_zone: 'UTC' },
    company_usage_included: companyUsageIncluded,
    sample_event_ids: response.hits.hits.map((hit) => hit._id),
    event_count: response.hits.total,
  };
}

/** The body the run computes this report's usage with (placeholder meters: per subscription, as the run does). */
function usageBody(meter: RunMeter, report: BillingReport, companyUsageIncluded: boolean): Record<string, unknown> {
  if (meter.perSubscription) {
    return {
      ...substitutePlaceholders(meter.body, { companyId: report.company_id ?? '', subscriptionId: report.subscription_id ?? '' }),
      aggs: { usage: metricAggregation(meter.metric) },
    };
  }
  return reportUsageBody(meter, { subscriptionId: report.subscription_id, companyId: report.company_id, companyAttributed: companyUsageIncluded });
}

/**
 * Whether company usage (events without subscription_id) is part of the report: as the run recorded
 * it (`attribution`); for reports without that record, by the run's attribution rule now
 * (SubscriptionDirectory.forCompany). Unattributed reports keyed by company count those events by definition.
 */
async function companyUsageGoesTo(
  index: SearchableIndex,
  scope: { org_id: string; app_id: string },
  meter: RunMeter,
  report: BillingReport,
  now: Date,
): Promise<boolean> {
  if (report.subscription_id === null) return true;
  if (report.company_id === null || meter.perSubscription) return false;
  if (report.attribution !== undefined) return report.attribution !== 'subscription_id';
  const directory = await SubscriptionDirectory.load(index, scope, now);
  return directory.forCompany(report.company_id, meter.billedIds)?.subscriptionId === report.subscription_id;
}
