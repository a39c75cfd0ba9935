/**
 * OpenSearch date math (JavaDateMathParser) for range queries and date_histogram bounds:
 * `now`, `now-1d`, `now-1d/d`, `now/M`, `2026-01-01`, `2026-01-01T10:00:00Z`, `2026-01-01||+1M/d`, epoch millis.
 * - Operations apply left to right on a date-time in the time zone: +N/-N unit (y M w d on the wall clock, DST-aware;
 *   h H m s as elapsed time), /unit rounds down to the start of the unit on the wall clock. A missing number means 1.
 * - roundUp (lte and gt): a rounding goes to the end of its unit instead (start of the next unit minus 1 ms), and a
 *   date without math fills the fields it leaves out upwards (`2026-01-01` → 23:59:59.999; see date-parse.ts).
 * - A value before `||` is parsed without rounding up; numbers are read as text (epoch millis; 4 digits = a year,
 *   as OpenSearch's strict_date_optional_time||epoch_millis does).
 */
import { ValidationError } from '../../shared/errors';
import { DEFAULT_DATE_FORMAT } from './date-format';
import { parseDate } from './date-parse';
import { DAY_MS, addCalendar, assertTimeZone, partsOfLocalMs, utcMs, withLocal } from './time-zone';

export interface DateMathOptions {
  /** An OpenSearch format list for the date part (default strict_date_optional_time||epoch_millis). */
  format?: string;
  /** The request member being parsed, named in errors (default 'date'). */
  field?: string;
}

/** Largest instant a JS Date can hold; beyond it a result is meaningless. */
const MAX_INSTANT = 8.64e15;
const UNIT_MS: Record<string, number> = { h: 3_600_000, H: 3_600_000, m: 60_000, s: 1000 };

class DateMathError extends Error {}

/** Resolves OpenSearch date math to epoch ms; invalid values throw ValidationError naming the value. */
export function resolveDateMath(value: string | number, now: Date, timeZone: string, roundUp: boolean, options: DateMathOptions = {}): number {
  const field = options.field ?? 'date';
  const text = typeof value === 'number' ? numberText(value) : value;
  try {
    if (typeof text !== 'string' || text === '') throw new DateMathError('empty date');
    const zone = assertTimeZone(timeZone);
    let instant: number;
    let math: string;
    if (text.startsWith('now')) {
      instant = now.getTime();
      math = text.slice('now'.length);
    } else {
      const split = text.indexOf('||');
      if (split < 0) return checked(parseOrThrow(text, zone, roundUp, options.format));
      instant = parseOrThrow(text.slice(0, split), zone, false, options.format);
      math = text.slice(split + 2);
    }
    return checked(applyMath(math, instant, roundUp, zone));
  } catch (error) {
    if (!(error instanceof DateMathError)) throw error;
    throw new ValidationError(`${field}: cannot parse date ${JSON.stringify(value)}: ${error.message}`, [
      { field, reason: `cannot parse ${JSON.stringify(value)} as a date or date math (${error.message})` },
    ]);
  }
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) return '';
  return Number.isInteger(value) ? value.toFixed(0) : String(value);
}

function checked(instant: number): number {
  if (!Number.isFinite(instant) || Math.abs(instant) > MAX_INSTANT) throw new DateMathError('out of range');
  return instant;
}

function parseOrThrow(text: string, timeZone: string, roundUp: boolean, format = DEFAULT_DATE_FORMAT): number {
  const instant = parseDate(text, timeZone, roundUp, format);
  if (instant === undefined) throw new DateMathError(`does not match the format ${format}`);
  return instant;
}

/** Wall-clock truncation to the start of a unit (ZonedDateTime.with(...) in JavaDateMathParser). */
function truncate(instant: number, unit: string, timeZone: string): number {
  switch (unit) {
    case 'y': {
      // withDayOfYear(1) keeps the time of day; with(LocalTime.MIN) then goes to midnight.
      const january1 = withLocal(instant, (local) => local - (Math.floor(local / DAY_MS) * DAY_MS - utcMs(partsOfLocalMs(local).year, 1, 1)), timeZone);
      return withLocal(january1, (local) => Math.floor(local / DAY_MS) * DAY_MS, timeZone);
    }
    case 'M': {
      const firstOfMonth = withLocal(instant, (local) => local - (partsOfLocalMs(local).day - 1) * DAY_MS, timeZone);
      return withLocal(firstOfMonth, (local) => Math.floor(local / DAY_MS) * DAY_MS, timeZone);
    }
    case 'w': {
      // previousOrSame(MONDAY), then midnight; day 0 of the epoch was a Thursday.
      const monday = withLocal(instant, (local) => local - ((((Math.floor(local / DAY_MS) + 3) % 7) + 7) % 7) * DAY_MS, timeZone);
      return withLocal(monday, (local) => Math.floor(local / DAY_MS) * DAY_MS, timeZone);
    }
    case 'd':
      return withLocal(instant, (local) => Math.floor(local / DAY_MS) * DAY_MS, timeZone);
    case 'h':
    case 'H': {
      const minute0 = withLocal(instant, (local) => local - partsOfLocalMs(local).minute * 60_000, timeZone);
      const second0 = withLocal(minute0, (local) => local - partsOfLocalMs(local).second * 1000, timeZone);
      return withLocal(second0, (local) => local - partsOfLocalMs(local).millisecond, timeZone);
    }
    case 'm': {
      const second0 = withLocal(instant, (local) => local - partsOfLocalMs(local).second * 1000, timeZone);
      return withLocal(second0, (local) => local - partsOfLocalMs(local).millisecond, timeZone);
    }
    default:
      return withLocal(instant, (local) => local - partsOfLocalMs(local).millisecond, timeZone);
  }
}

function add(instant: number, amount: number, unit: string, timeZone: string): number {
  switch (unit) {
    case 'y':
      return addCalendar(instant, amount, 'year', timeZone);
    case 'M':
      return addCalendar(instant, amount, 'month', timeZone);
    case 'w':
      return addCalendar(instant, amount, 'week', timeZone);
    case 'd':
      return addCalendar(instant, amount, 'day', timeZone);
    default:
      return instant + amount * (UNIT_MS[unit] as number);
  }
}

function applyMath(math: string, start: number, roundUp: boolean, timeZone: string): number {
  let instant = start;
  let i = 0;
  while (i < math.length) {
    const op = math[i++] as string;
    if (op !== '/' && op !== '+' && op !== '-') throw new DateMathError(`operator ${JSON.stringify(op)} not supported in date math ${JSON.stringify(math)}`);
    if (i >= math.length) throw new DateMathError(`truncated date math ${JSON.stringify(math)}`);
    let amount = 1;
    const digits = /^\d+/.exec(math.slice(i));
    if (digits) {
      i += digits[0].length;
      if (i >= math.length) throw new DateMathError(`truncated date math ${JSON.stringify(math)}`);
      amount = Number(digits[0]);
      if (amount > 2_147_483_647) throw new DateMathError(`number ${digits[0]} too large in date math`);
    }
    const unit = math[i++] as string;
    if (!'yMwdhHms'.includes(unit)) throw new DateMathError(`unit ${JSON.stringify(unit)} not supported in date math ${JSON.stringify(math)}`);
    if (op === '/') {
      if (amount !== 1) throw new DateMathError(`rounding '/' can only be used on single unit types ${JSON.stringify(math)}`);
      instant = truncate(instant, unit, timeZone);
      if (roundUp) instant = add(instant, 1, unit, timeZone) - 1;
    } else {
      instant = add(instant, op === '-' ? -amount : amount, unit, timeZone);
    }
    checked(instant);
  }
  return instant;
}
