import type { BillingReport } from '../../../schemas/billing/report';
import { idempotencyKey } from '../providers/idempotency-key';
import type { ReportStore, ReportTenant } from '../reports/report-store';
import { keyState } from '../run/delivery-records';
import type { RunMeter } from '../run/run-meter';
import { primaryDestination } from '../run/window-reports';
import type { ProviderUsageTotals } from './stripe-usage-totals';

/**
 * What a webhook meter's receiver acknowledged, as the delivery records say: a receiver has no
 * standard way to be asked what it holds, but each answer it gave is recorded on the report. Per
 * subscription, the usage of every window of the period up to the last version its primary channel
 * acknowledged (a later version carries the ones it refused, so the last acknowledged is what it
 * has); a version whose delivery is unconfirmed (a timeout, nothing answered since) makes the
 * subscription `unknown`. Read from the period's report windows once for every subscription.
 */

export async function webhookAcknowledged(
  reports: Pick<ReportStore, 'windowsBetween'>,
  tenant: ReportTenant,
  meter: RunMeter,
  from: Date,
  to: Date,
): Promise<ProviderUsageTotals> {
  // Per subscription: each window's acknowledged usage, or why it cannot be known.
  const acknowledged = new Map<string, { start: number; value: number }[] | { unknown: string }>();
  const destination = primaryDestination(meter);
  for await (const group of reports.windowsBetween(tenant, { from, to, meterId: meter.id })) {
    for (const report of group.reports) {
      if (report.subscription_id === null || report.status === 'unattributed') continue;
      const windows = acknowledged.get(report.subscription_id) ?? [];
      if (!Array.isArray(windows)) continue;
      const held = acknowledgedUsage(report, tenant, meter.id, destination);
      acknowledged.set(report.subscription_id, 'unknown' in held ? held : [...windows, { start: group.window.start.getTime(), value: held.value }]);
    }
  }
  return {
    async totalOf({ subscriptionId, from: periodStart, to: periodEnd }) {
      const found = acknowledged.get(subscriptionId) ?? [];
      if (!Array.isArray(found)) return found;
      const value = found.filter((w) => w.start >= periodStart.getTime() && w.start < periodEnd.getTime()).reduce((sum, w) => sum + w.value, 0);
      return { value };
    },
  };
}

function acknowledgedUsage(report: BillingReport, tenant: ReportTenant, meterId: string, destination: string): { value: number } | { unknown: string } {
  const keyOf = (reportVersion: number) =>
    reportVersion === report.report_version
      ? report.idempotency_key
      : idempotencyKey({
          orgId: tenant.orgId,
          appId: tenant.appId,
          meterId,
          subscriptionId: report.subscription_id ?? `company:${report.company_id ?? ''}`,
          windowStart: new Date(report.usage_start_time),
          windowEnd: new Date(report.usage_end_time),
          reportVersion,
          destination,
        });
  for (let i = report.versions.length - 1; i >= 0; i -= 1) {
    const version = report.versions[i]!;
    const state = keyState(report.provider_requests, keyOf(version.report_version));
    if (state === 'delivered') return { value: version.meter_usage };
    if (state === 'unconfirmed') return { unknown: `window ${report.usage_start_time}: version ${version.report_version}'s delivery is unconfirmed` };
  }
  return { value: 0 };
}
