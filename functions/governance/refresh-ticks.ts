/**
 * Refreshes repeated inside one scheduled invocation. EventBridge runs the refresh at most once a
 * minute, which would let a crossed quota go unblocked for a minute: the invocation refreshes the
 * governed apps again every `everyMs` while its time lasts, so a quota bites within about
 * `everyMs` plus the SDK's own delays, as it does locally.
 */

export interface TickClock {
  /** Milliseconds left before the invocation must have returned. */
  remainingMs(): number;
  sleep(ms: number): Promise<void>;
}

/**
 * After a refresh that took `firstMs`, runs `refresh` again every `everyMs` (counted from each
 * start) until the next one could not finish within the remaining time, judged by the slowest run
 * so far plus `marginMs`. Returns how many more ran.
 */
export async function refreshWhileTimeLasts(
  refresh: () => Promise<void>,
  options: { everyMs: number; firstMs: number; marginMs?: number },
  clock: TickClock,
): Promise<number> {
  const margin = options.marginMs ?? 5_000;
  let last = options.firstMs;
  let slowest = options.firstMs;
  let runs = 0;
  while (clock.remainingMs() >= Math.max(options.everyMs - last, 0) + slowest + margin) {
    await clock.sleep(Math.max(options.everyMs - last, 0));
    const before = clock.remainingMs();
    await refresh();
    runs += 1;
    last = Math.max(0, before - clock.remainingMs());
    slowest = Math.max(slowest, last);
  }
  return runs;
}
