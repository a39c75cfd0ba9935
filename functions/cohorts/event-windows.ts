import type { CohortEventWindow } from '../../schemas/resources/cohort';
import { fromLocalParts, localParts, utcMs, type LocalPartsInput } from '../search/dates/time-zone';

/** A window of event time: from `start` (inclusive) to `end` (exclusive). */
export interface EventWindow {
  readonly start: Date;
  readonly end: Date;
}

export interface CalendarSettings {
  readonly now: Date;
  /** TZ database name the calendar is reckoned in. */
  readonly timeZone: string;
  /** 0 Sunday … 6 Saturday. */
  readonly weekStartsOn: number;
}

const UNIT_MS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;

/**
 * The window of a rolling or calendar condition (a billing period is each member's own:
 * subscription-periods.ts). The current calendar period runs up to now; an earlier one is whole.
 */
export function fixedWindow(window: Exclude<CohortEventWindow, { billing_period: 'current' }>, settings: CalendarSettings): EventWindow {
  const now = settings.now.getTime();
  if ('last' in window) return { start: new Date(now - window.last * UNIT_MS[window.unit]), end: new Date(now) };
  const ago = window.periods_ago ?? 0;
  const start = calendarStart(window.calendar, ago, settings);
  const end = ago === 0 ? now : calendarStart(window.calendar, ago - 1, settings);
  return { start: new Date(start), end: new Date(end) };
}

/** The start of the calendar period `ago` periods before the one holding now, as an instant. */
function calendarStart(unit: 'day' | 'week' | 'month' | 'quarter' | 'year', ago: number, { now, timeZone, weekStartsOn }: CalendarSettings): number {
  const today = localParts(now.getTime(), timeZone);
  let parts: LocalPartsInput;
  switch (unit) {
    case 'day':
      parts = { year: today.year, month: today.month, day: today.day - ago };
      break;
    case 'week': {
      const weekday = new Date(utcMs(today.year, today.month, today.day)).getUTCDay();
      parts = { year: today.year, month: today.month, day: today.day - ((weekday - weekStartsOn + 7) % 7) - 7 * ago };
      break;
    }
    case 'month':
      parts = { year: today.year, month: today.month - ago, day: 1 };
      break;
    case 'quarter':
      parts = { year: today.year, month: today.month - ((today.month - 1) % 3) - 3 * ago, day: 1 };
      break;
    case 'year':
      parts = { year: today.year - ago, month: 1, day: 1 };
      break;
  }
  // Out-of-range days and months roll over (day 0 is the last of the month before), as Date.UTC does.
  const normalised = new Date(utcMs(parts.year, parts.month, parts.day));
  return fromLocalParts({ year: normalised.getUTCFullYear(), month: normalised.getUTCMonth() + 1, day: normalised.getUTCDate() }, timeZone);
}
