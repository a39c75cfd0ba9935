import { reconcileDueMeters } from '../../functions/billing/reconcile/reconcile-due';
import { measureDueLateness } from '../../functions/billing/completeness/lateness-due';
import { appsWithMeters } from '../../functions/billing/run/billing-run';
import type { LatenessDeps } from '../../functions/billing/completeness/lateness';
import type { ReconcileDeps } from '../../functions/billing/reconcile/reconciliation';
import { runDueSyncs, type SyncRunDeps, type SyncRunSummary } from '../../functions/billing/sync/sync-run';
import { startScheduledTask } from './scheduled-task';

/**
 * The local runtime's stand-in for what the billing schedule runs beside billing on AWS: a pass over
 * the apps' due provider syncs, then the Stripe meters due for reconciliation, then the meters whose
 * lateness is a day old, every `intervalMs`
 * (0: no timer), and one at once when a sync is asked for (`kick`). Passes never overlap.
 */
export interface LocalProviderSync {
  kick(): void;
  runOnce(): Promise<SyncRunSummary>;
  stop(): Promise<void>;
}

/** A pass's time budget, as the billing Lambda gives its sync step. */
export const SYNC_PASS_BUDGET_MS = 120_000;

export function startLocalProviderSync(
  deps: SyncRunDeps,
  reconcile: ReconcileDeps,
  lateness: LatenessDeps,
  intervalMs: number,
  log: (line: string) => void,
): LocalProviderSync {
  const pass = async () => {
    const synced = await runDueSyncs(deps, SYNC_PASS_BUDGET_MS);
    const listed = appsWithMeters(reconcile);
    listed.catch(() => undefined);
    const reconciled = await reconcileDueMeters(reconcile, SYNC_PASS_BUDGET_MS, log, listed);
    if (reconciled.checked + reconciled.failed > 0) log(`reconciliation with Stripe: ${reconciled.checked} meters checked, ${reconciled.failed} failed`);
    const measured = await measureDueLateness(lateness, SYNC_PASS_BUDGET_MS, log, listed);
    if (measured.measured + measured.failed > 0) log(`lateness: ${measured.measured} meters measured, ${measured.failed} failed`);
    return synced;
  };
  const task = startScheduledTask(pass, intervalMs, {
    onResult: (summary) => {
      if (summary.synced + summary.failed > 0) log(`provider sync: ${summary.synced} completed, ${summary.failed} failed`);
    },
    onError: (error) => log(`provider sync failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  return {
    kick: () => void task.runOnce().catch((error: unknown) => log(`provider sync failed: ${error instanceof Error ? error.message : String(error)}`)),
    runOnce: () => task.runOnce(),
    stop: () => task.stop(),
  };
}
