/**
 * Reporting periods of meters (`5m`, `1h`, `1d`, …) and the usage windows they cut time into.
 * Windows are aligned to the UTC epoch (a `1h` window starts on the hour, a `1d` one at 00:00 UTC), so
 * every run, replay or correction computes the same window boundaries for the same period.
 */

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const PERIOD_TEXT = /^(\d{1,4})([mhd])$/;

/** The shortest and longest periods the billing run accepts (the run itself is every 5 minutes). */
export const MIN_REPORTING_PERIOD_MS = 5 * UNIT_MS.m;
export const MAX_REPORTING_PERIOD_MS = 31 * UNIT_MS.d;

export interface UsageWindow {
  /** Inclusive start. */
  readonly start: Date;
  /** Exclusive end. */
  readonly end: Date;
}

/** Milliseconds of a period such as `5m`, `1h` or `1d`; throws a RangeError naming the problem. */
export function reportingPeriodMs(period: string): number {
  const match = PERIOD_TEXT.exec(period);
  if (!match) throw new RangeError(`"${period}" is not a reporting period: use a number and m, h or d, e.g. 5m, 1h, 1d`);
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  const problem = periodProblem(ms);
  if (problem !== undefined) throw new RangeError(`"${period}" ${problem}`);
  return ms;
}

function periodProblem(ms: number): string | undefined {
  if (ms < MIN_REPORTING_PERIOD_MS) return 'is shorter than the 5m billing run interval';
  if (ms > MAX_REPORTING_PERIOD_MS) return 'is longer than 31d';
  if (UNIT_MS.d % ms !== 0 && ms % UNIT_MS.d !== 0) return 'does not divide a day evenly, so its windows could not align to UTC days';
  return undefined;
}

/** Every period reportingPeriodMs accepts, written without leading zeros (`5m` … `9999m`, `1h` …, `1d` … `31d`). */
export const REPORTING_PERIODS: readonly string[] = (['m', 'h', 'd'] as const).flatMap((unit) =>
  Array.from({ length: 9999 }, (_, i) => i + 1)
    .filter((count) => periodProblem(count * UNIT_MS[unit]) === undefined)
    .map((count) => `${count}${unit}`),
);

/** The window of `periodMs` that contains `at`. */
export function windowContaining(at: Date, periodMs: number): UsageWindow {
  const start = Math.floor(at.getTime() / periodMs) * periodMs;
  return { start: new Date(start), end: new Date(start + periodMs) };
}

/**
 * Windows that have closed by `now` (end ≤ now − settle) and start at or after `from`, oldest first,
 * at most `limit` of them (a run that falls far behind catches up over several runs).
 * `settleMs` leaves time for events in flight through the pipeline before a window is billed.
 */
export function closedWindows(options: { from: Date; now: Date; periodMs: number; settleMs?: number; limit?: number }): UsageWindow[] {
  const { periodMs } = options;
  const closedBy = options.now.getTime() - (options.settleMs ?? 0);
  const windows: UsageWindow[] = [];
  let start = Math.ceil(options.from.getTime() / periodMs) * periodMs;
  while (start + periodMs <= closedBy && windows.length < (options.limit ?? 10_000)) {
    windows.push({ start: new Date(start), end: new Date(start + periodMs) });
    start += periodMs;
  }
  return windows;
}
