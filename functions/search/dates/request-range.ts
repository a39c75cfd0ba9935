/**
 * The management API's `from` / `to` / `time_zone` query parameters (spec: "Date query parameters").
 * - time_zone: a TZ database name, default UTC; unknown → 400.
 * - Absolute: ISO 8601 date or date-time ('2026-01-01', '2026-01-01T10:00', '2026-01-01T10:00:00.123+01:00', 'Z');
 *   without an offset it is wall-clock time in time_zone (a date alone = local midnight).
 * - Relative: `now`, or a signed or unsigned number with a unit s m h d w M: '-24h', '-2w', '1M', '+1M'.
 *   s m h are elapsed time; d w M are calendar units on time_zone's wall clock (the time of day is kept across DST,
 *   the day clamped to the month's end: Mar 31 − 1M = Feb 28), as OpenSearch's date math does.
 * - A '+' that a form encoder turned into a space (' 1M', '...T10:00 01:00') is read as '+'.
 * - from after to → 400 naming `from`.
 */
import { daysInMonth } from '../../../values/calendar';
import { ValidationError } from '../../shared/errors';
import { addCalendar, assertTimeZone, fromLocalMs, utcMs } from './time-zone';

export interface RequestRangeQuery {
  from?: string;
  to?: string;
  time_zone?: string;
}

export interface RequestRange {
  from?: Date;
  to?: Date;
  timeZone: string;
}

const RELATIVE = /^([+\- ]?)(\d{1,9})([smhdwM])$/;
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+\- ]\d{2}(?::?\d{2})?)?)?$/;
const ELAPSED_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };
const CALENDAR: Record<string, 'day' | 'week' | 'month'> = { d: 'day', w: 'week', M: 'month' };
const MAX_INSTANT = 8.64e15;

function invalid(field: string, value: string, reason: string): ValidationError {
  return new ValidationError(`${field} is not a valid date: ${JSON.stringify(value)}`, [{ field, reason }]);
}

function resolveRelative(match: RegExpExecArray, now: Date, timeZone: string): number {
  const amount = Number(match[2]) * (match[1] === '-' ? -1 : 1);
  const unit = match[3] as string;
  const elapsed = ELAPSED_MS[unit];
  if (elapsed !== undefined) return now.getTime() + amount * elapsed;
  return addCalendar(now.getTime(), amount, CALENDAR[unit] as 'day' | 'week' | 'month', timeZone);
}

function resolveAbsolute(match: RegExpExecArray, field: string, value: string, timeZone: string): number {
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h ?? '0');
  const minute = Number(mi ?? '0');
  const second = Number(s ?? '0');
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) throw invalid(field, value, 'no such calendar date');
  if (hour > 23 || minute > 59 || second > 59) throw invalid(field, value, 'no such time of day');
  const millisecond = fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000 + 1e-6);
  const local = utcMs(year, month, day, hour, minute, second, millisecond);
  if (zone === undefined) return fromLocalMs(local, timeZone);
  if (zone === 'Z' || zone === 'z') return local;
  const offset = /^([+\- ])(\d{2}):?(\d{2})?$/.exec(zone);
  const hours = Number(offset?.[2]);
  const minutes = Number(offset?.[3] ?? '0');
  if (!offset || hours > 18 || minutes > 59) throw invalid(field, value, 'invalid UTC offset');
  return local - (offset[1] === '-' ? -1 : 1) * (hours * 3_600_000 + minutes * 60_000);
}

function resolveParameter(field: 'from' | 'to', value: string | undefined, now: Date, timeZone: string): Date | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw invalid(field, String(value), 'must not be empty');
  let instant: number;
  if (value === 'now') instant = now.getTime();
  else {
    const relative = RELATIVE.exec(value);
    const absolute = relative ? undefined : ISO_8601.exec(value);
    if (relative) instant = resolveRelative(relative, now, timeZone);
    else if (absolute) instant = resolveAbsolute(absolute, field, value, timeZone);
    else {
      throw invalid(field, value, 'expected an ISO 8601 date or date-time, "now", or a relative time such as -24h, -2w, +1M (units s m h d w M)');
    }
  }
  if (!Number.isFinite(instant) || Math.abs(instant) > MAX_INSTANT) throw invalid(field, value, 'out of range');
  return new Date(instant);
}

/** Parses and validates the date query parameters against `now` (the request's clock). */
export function parseRequestRange(query: RequestRangeQuery, now: Date): RequestRange {
  const timeZone = query.time_zone === undefined ? 'UTC' : assertTimeZone(query.time_zone, 'time_zone');
  const from = resolveParameter('from', query.from, now, timeZone);
  const to = resolveParameter('to', query.to, now, timeZone);
  if (from && to && from.getTime() > to.getTime()) {
    throw new ValidationError('from must not be after to', [{ field: 'from', reason: `${from.toISOString()} is after to (${to.toISOString()})` }]);
  }
  return { ...(from ? { from } : {}), ...(to ? { to } : {}), timeZone };
}
