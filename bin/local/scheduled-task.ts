/**
 * The local runtime's stand-in for an EventBridge schedule: `run` every `intervalMs` (0: never on
 * its own), and `runOnce` on demand. Runs never overlap: a slow run delays the next, and an
 * on-demand run waits for the one in progress. The timer alone does not keep the process alive.
 */
export interface ScheduledTask<T> {
  runOnce(): Promise<T>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

export function startScheduledTask<T>(run: () => Promise<T>, intervalMs: number, report: { onResult: (result: T) => void; onError: (error: unknown) => void }): ScheduledTask<T> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  const runOnce = () => {
    const next = chain.then(run);
    chain = next.catch(() => undefined);
    return next;
  };
  const schedule = () => {
    if (stopped || intervalMs <= 0) return;
    timer = setTimeout(() => void runOnce().then(report.onResult, report.onError).finally(schedule), intervalMs);
    timer.unref();
  };
  schedule();
  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await chain;
    },
  };
}
