import { LATE_AFTER_MS } from '../late-events/late-window-store';
import type { BillingRunDeps, BillingRunSettings } from './billing-run-types';
import type { ReportTenant } from '../reports/report-store';
import type { RunMeter } from './run-meter';

/** The least a window waits after it closes: the late-event marks need LATE_AFTER_MS, plus a minute for indexing. */
export const MIN_SETTLE_MS = LATE_AFTER_MS + 60_000;

/**
 * What a meter's windows wait after they close before their first report: the run's own setting,
 * else the meter's grace period (its `grace_period_minutes`, else the one observed), never under
 * MIN_SETTLE_MS.
 */
export async function settleMsOf(
  settings: BillingRunSettings,
  meter: RunMeter,
  observed: BillingRunDeps['observedGraceMs'],
  tenant: ReportTenant,
): Promise<number> {
  if (settings.settleMs !== undefined) return settings.settleMs;
  const grace = meter.graceMs ?? (await observed?.(tenant, meter.id));
  return Math.max(MIN_SETTLE_MS, grace ?? 0);
}
