import { appsWithMeters, type AppMeters } from '../run/billing-run';
import { ValidationError } from '../../shared/errors';
import { lastReconciliation, reconcileMeter, type ReconcileDeps } from './reconciliation';

/**
 * Reconciliation on the billing schedule: every meter reporting to a billing provider is checked again once its
 * last check is RECONCILE_INTERVAL_MS old (one Stripe read per reported subscription each time), so
 * drift is found, and its alert fires, within hours without anyone asking.
 */

export const RECONCILE_INTERVAL_MS = 6 * 3_600_000;

export interface ReconcileSummary {
  readonly checked: number;
  readonly failed: number;
}

export async function reconcileDueMeters(
  deps: ReconcileDeps,
  budgetMs: number,
  log: (line: string) => void = () => {},
  listed: Promise<readonly AppMeters[]> = appsWithMeters(deps),
): Promise<ReconcileSummary> {
  const deadline = Date.now() + budgetMs;
  let checked = 0;
  let failed = 0;
  for (const { tenant, meters } of await listed) {
    for (const meter of meters) {
      // Webhook meters are checked on demand only: reading a period's report windows every 6 hours would cost
      // more than it tells (a receiver's refusals already fail their reports and raise the failed-reports alarm).
      if ('error' in meter || meter.provider === 'webhook') continue;
      if (Date.now() >= deadline) return { checked, failed };
      const last = await lastReconciliation(deps.resources, tenant, meter.id);
      if (last && deps.now().getTime() - Date.parse(last.checked_at) < RECONCILE_INTERVAL_MS) continue;
      // An app without a connection to the meter's provider has nothing to read back: not a failure of the schedule.
      const account = await deps.accountOf(tenant, meter.provider);
      if (!account) continue;
      try {
        await reconcileMeter(deps, tenant, meter.id, account);
        checked += 1;
      } catch (error) {
        if (!(error instanceof ValidationError)) failed += 1;
        log(`reconciliation of meter ${meter.id} (${tenant.orgId}/${tenant.appId}) failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return { checked, failed };
}
