/**
 * The periods of a template's `period` (a count and a unit: m, h, d, w, M), aligned in UTC: minutes,
 * hours and days from the Unix epoch, weeks from a Monday (1970-01-05), months from January 1970.
 * A period's email is sent once it is over, about that period; a template without a period is sent
 * once per recipient ("once"), about the last ONCE_WINDOW_DAYS days.
 */

export interface EmailPeriod {
  /** `<start ISO>/<period>` or `once`: part of each send's key. */
  readonly key: string;
  readonly start: Date;
  readonly end: Date;
}

export const ONCE_WINDOW_DAYS = 30;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
/** 1970-01-05T00:00Z, a Monday: weeks start on Mondays. */
const FIRST_MONDAY_MS = 4 * 86_400_000;

/** The last period of `period` that is over at `now`; for no period, the "once" window ending now. */
export function lastClosedPeriod(period: string | undefined, now: Date): EmailPeriod {
  if (period === undefined) return { key: 'once', start: new Date(now.getTime() - ONCE_WINDOW_DAYS * 86_400_000), end: now };
  const match = /^([1-9][0-9]{0,3})([mhdwM])$/.exec(period);
  if (!match) throw new Error(`period ${JSON.stringify(period)} is not a count and a unit m, h, d, w or M`);
  const count = Number(match[1]);
  const unit = match[2]!;
  if (unit === 'M') {
    const monthsNow = now.getUTCFullYear() * 12 + now.getUTCMonth();
    const endMonth = monthsNow - ((monthsNow - 1970 * 12) % count);
    const start = monthStart(endMonth - count);
    return { key: `${start.toISOString()}/${period}`, start, end: monthStart(endMonth) };
  }
  const length = count * UNIT_MS[unit]!;
  const origin = unit === 'w' ? FIRST_MONDAY_MS : 0;
  const end = origin + Math.floor((now.getTime() - origin) / length) * length;
  const start = new Date(end - length);
  return { key: `${start.toISOString()}/${period}`, start, end: new Date(end) };
}

const monthStart = (months: number) => new Date(Date.UTC(Math.floor(months / 12), months % 12, 1));
