const DAY_MS = 86_400_000;

/**
 * Where an app's retention cuts: events before it are deleted. It is `days` before now, but never
 * inside a current billing period (the run may still bill or correct those events): the earliest
 * start of one pulls it back.
 */
export function retentionCutoff(now: Date, days: number, openPeriodStarts: readonly Date[]): Date {
  return new Date(Math.min(now.getTime() - days * DAY_MS, ...openPeriodStarts.map((start) => start.getTime())));
}
