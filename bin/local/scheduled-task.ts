/**
 * The local runtime's stand-in for an EventBridge schedule: `run` every `intervalMs` (0: never on
 * its own), and `runOnce` on demand. Runs never overlap: a slow run delays the next, and an
 * on-demand run waits for the one in progress. The timer alone does not keep the process alive.
 */
export interface ScheduledTask<T> {
  runOnce(): Promise<T>;
  /** Runs `work` in the task's turn (never beside a run), e.g. a run with other options. */
  runExclusive<R>(work: () => Promise<R>): Promise<R>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

export function startScheduledTask<T>(
  run: () => Promise<T>,
  intervalMs: number,
  report: { onResult: (result: T) => void; onError: (error: unknown) => void },
): ScheduledTask<T> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  const runExclusive = <R>(work: () => Promise<R>): Promise<R> => {
    const next = chain.then(work);
    chain = next.catch(() => undefined);
    return next;
  };
  const runOnce = () => runExclusive(run);
  const schedule = () => {
    if (stopped || intervalMs <= 0) return;
    timer = setTimeout(() => void runOnce().then(report.onResult, report.onError).finally(schedule), intervalMs);
    timer.unref();
  };
  schedule();
  return {
    runOnce,
    runExclusive,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await chain;
    },
  };
}
