import { runDueSyncs, type SyncRunDeps, type SyncRunSummary } from '../../functions/billing/sync/sync-run';
import { startScheduledTask } from './scheduled-task';

/**
 * The local runtime's stand-in for the sync in that the billing schedule runs on AWS: a pass over
 * the apps' due provider syncs every `intervalMs` (0: no timer), and one at once when a sync is
 * asked for (`kick`). Passes never overlap.
 */
export interface LocalProviderSync {
  kick(): void;
  runOnce(): Promise<SyncRunSummary>;
  stop(): Promise<void>;
}

/** A pass's time budget, as the billing Lambda gives its sync step. */
export const SYNC_PASS_BUDGET_MS = 120_000;

export function startLocalProviderSync(deps: SyncRunDeps, intervalMs: number, log: (line: string) => void): LocalProviderSync {
  const task = startScheduledTask(() => runDueSyncs(deps, SYNC_PASS_BUDGET_MS), intervalMs, {
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
