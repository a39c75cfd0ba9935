/** Whether a billing period may still move (schemas/billing/completeness.ts declares it for the API). */
export const PERIOD_STATUSES = ['open', 'in_grace', 'final'] as const;
export type PeriodStatus = (typeof PERIOD_STATUSES)[number];

/**
 * Whether a billing period may still move: `open` while it runs; `in_grace` once it has ended but
 * not every window of it has been reported (the run waits a grace period after each window);
 * `final` once the meters' cursors have passed its end. A late event after that still becomes a
 * correction, counted as one after final.
 *
 * `finalThrough` is where the cursors stand (the least of the meters' when several bill the period);
 * undefined when a meter has not run yet.
 */
export function periodStatus(periodEnd: Date | string, now: Date, finalThrough: Date | undefined): PeriodStatus {
  const end = typeof periodEnd === 'string' ? Date.parse(periodEnd) : periodEnd.getTime();
  if (now.getTime() < end) return 'open';
  return finalThrough !== undefined && finalThrough.getTime() >= end ? 'final' : 'in_grace';
}

/** The least of several cursors (every one must have passed a period for it to be final); undefined if any is missing or there are none. */
export function leastCursor(cursors: readonly (Date | undefined)[]): Date | undefined {
  if (cursors.length === 0 || cursors.some((c) => c === undefined)) return undefined;
  return new Date(Math.min(...cursors.map((c) => c!.getTime())));
}
