import type { GovernanceRefresher } from '../../functions/governance/refresher';

export interface PeriodicRefresh {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * The local runtime's stand-in for the EventBridge schedule: refreshAll (governance, purges, data
 * retention) every `intervalMs`, one run
 * at a time (a slow run delays the next instead of overlapping it).
 */
export function startPeriodicRefresh(refresher: GovernanceRefresher, intervalMs: number, log: (line: string) => void): PeriodicRefresh {
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = refresher
        .refreshAll()
        .then(({ failures, purgeError, retention, retentionError }) => {
          if (retentionError) log(`data retention could not run: ${retentionError}`);
          failures.forEach((f) => log(`governance refresh of ${f.org_id}/${f.app_id} failed: ${f.error}`));
          if (purgeError) log(`purging deleted apps failed: ${purgeError}`);
          for (const outcome of retention?.outcomes ?? [])
            if (outcome.deleted > 0) log(`data retention: deleted ${outcome.deleted} events of ${outcome.org_id}/${outcome.app_id} before ${outcome.cutoff}`);
          for (const failure of retention?.failures ?? []) log(`data retention of ${failure.org_id}/${failure.app_id} failed: ${failure.error}`);
          if (retention?.compactionError) log(`compaction failed: ${retention.compactionError}`);
        })
        .catch((error: unknown) => log(`governance refresh failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, intervalMs);
    // The timer alone must not keep the process alive.
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
