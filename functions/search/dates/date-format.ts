/**
 * OpenSearch date formats and printing (parsing: date-parse.ts), for the formats a search request can name: the mapping's default
 * `strict_date_optional_time||epoch_millis`, the common named formats, and java.time patterns ('yyyy-MM-dd HH:mm').
 *
 * Printing follows java.time with Locale.ROOT: strict_date_optional_time prints '2026-11-01T00:00:00.000+01:00', and
 * 'Z' whenever the offset at that instant is zero — also for zones that are not UTC (Europe/London in winter prints
 * '...Z'), because OpenSearch's printer uses appendOffset("+HH:MM", "Z").
 * Parsing follows OpenSearch's rules for range queries and date math: fields a value leaves out default to the start
 * of the period, or — when rounding up (lte, gt) — to month 1, day 1, 23:59:59.999 (DateFormatters' round-up parser).
 * A value without an offset is wall-clock time in the request's time zone.
 * Simplifications (documented): impossible dates (Feb 30) are rejected rather than resolved; pattern letters that
 * need locale data beyond English (z, w, Y, e, c, G, Q...) are rejected as unsupported.
 */
import { ValidationError } from '../../shared/errors';
import { offsetMs, partsOfLocalMs, utcMs } from './time-zone';
import { BoundedMap } from '../../../values/bounded-map';

/** The format OpenSearch uses for our date fields (no explicit format in the mapping). */
export const DEFAULT_DATE_FORMAT = 'strict_date_optional_time||epoch_millis';

const ISO_NAMES = new Set(['strict_date_optional_time', 'date_optional_time', 'iso8601']);

/** Named formats expressed as java.time patterns (printing and parsing). */
const NAMED_PATTERNS: Record<string, string> = {
  basic_date: 'yyyyMMdd',
  basic_date_time: "yyyyMMdd'T'HHmmss.SSSXX",
  basic_date_time_no_millis: "yyyyMMdd'T'HHmmssXX",
  date: 'yyyy-MM-dd',
  date_hour: "yyyy-MM-dd'T'HH",
  date_hour_minute: "yyyy-MM-dd'T'HH:mm",
  date_hour_minute_second: "yyyy-MM-dd'T'HH:mm:ss",
  date_hour_minute_second_fraction: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_hour_minute_second_millis: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssXXX",
  hour: 'HH',
  hour_minute: 'HH:mm',
  hour_minute_second: 'HH:mm:ss',
  hour_minute_second_millis: 'HH:mm:ss.SSS',
  year: 'yyyy',
  year_month: 'yyyy-MM',
  year_month_day: 'yyyy-MM-dd',
};

export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

type Token = { literal: string } | { letter: string; count: number };

const SUPPORTED_LETTERS = new Set(['y', 'u', 'M', 'L', 'd', 'D', 'H', 'k', 'h', 'K', 'm', 's', 'S', 'a', 'E', 'X', 'x', 'Z', 'V']);

/** Formats come from requests: the most recent 256 stay parsed. */
const patternCache = new BoundedMap<string, Token[]>(256);

export function invalidFormat(format: string, reason: string): ValidationError {
  return new ValidationError(`invalid date format ${JSON.stringify(format)}`, [{ field: 'format', reason }]);
}

/** Splits a java.time pattern into letters and literals ('quoted', '' = a quote, non-letters as themselves). */
export function tokenize(pattern: string): Token[] {
  const cached = patternCache.get(pattern);
  if (cached) return cached;
  const tokens: Token[] = [];
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i] as string;
    if (ch === "'") {
      const end = pattern.indexOf("'", i + 1);
      if (end === i + 1) {
        tokens.push({ literal: "'" });
        i += 2;
        continue;
      }
      if (end < 0) throw invalidFormat(pattern, 'unterminated quote');
      tokens.push({ literal: pattern.slice(i + 1, end).replace(/''/g, "'") });
      i = end + 1;
    } else if (/[A-Za-z]/.test(ch)) {
      if (!SUPPORTED_LETTERS.has(ch)) throw invalidFormat(pattern, `pattern letter '${ch}' is not supported`);
      let count = 1;
      while (pattern[i + count] === ch) count++;
      tokens.push({ letter: ch, count });
      i += count;
    } else if (ch === '[' || ch === ']' || ch === '#' || ch === '{' || ch === '}') {
      throw invalidFormat(pattern, `'${ch}' is not supported`);
    } else {
      tokens.push({ literal: ch });
      i += 1;
    }
  }
  patternCache.set(pattern, tokens);
  return tokens;
}

/** The first format of an OpenSearch `a||b` list, which is the one OpenSearch prints with. */
function printingFormat(format: string | undefined): string {
  if (format === undefined || format === '') return 'strict_date_optional_time';
  return format.split('||')[0]?.trim() ?? '';
}

/** Throws when a format cannot be used (unknown name, unsupported pattern letter); call when validating requests. */
export function assertDateFormat(format: string): string {
  for (const part of format.split('||')) {
    const name = part.trim();
    if (name === '') throw invalidFormat(format, 'empty format');
    if (isEpochFormat(name) || ISO_NAMES.has(name) || namedPattern(name) !== undefined) continue;
    tokenize(name);
  }
  return format;
}

function isEpochFormat(name: string): boolean {
  return name === 'epoch_millis' || name === 'epoch_second';
}

/** A named format's pattern; `strict_` variants of named formats print the same. */
export function namedPattern(name: string): string | undefined {
  return NAMED_PATTERNS[name] ?? (name.startsWith('strict_') ? NAMED_PATTERNS[name.slice('strict_'.length)] : undefined);
}

function pad(value: number, width: number): string {
  const digits = String(Math.abs(value)).padStart(width, '0');
  return value < 0 ? `-${digits}` : digits;
}

/** Year as java.time prints YEAR with width 4 and SignStyle.EXCEEDS_PAD: '+' once it exceeds four digits. */
function padYear(year: number): string {
  if (year > 9999) return `+${year}`;
  return pad(year, 4);
}

/** Offset as java.time's appendOffset: pattern '+HH:MM' / '+HHMM' / '+HH' (minutes only if non-zero for '+HHmm'). */
function formatOffset(offset: number, style: '+HH:MM' | '+HHMM' | '+HHmm', zeroText: string): string {
  const totalMinutes = Math.trunc(offset / 60_000);
  if (totalMinutes === 0 && Math.abs(offset) < 60_000) return zeroText;
  const sign = offset < 0 ? '-' : '+';
  const hours = Math.floor(Math.abs(totalMinutes) / 60);
  const minutes = Math.abs(totalMinutes) % 60;
  if (style === '+HH:MM') return `${sign}${pad(hours, 2)}:${pad(minutes, 2)}`;
  if (style === '+HHMM') return `${sign}${pad(hours, 2)}${pad(minutes, 2)}`;
  return minutes === 0 ? `${sign}${pad(hours, 2)}` : `${sign}${pad(hours, 2)}${pad(minutes, 2)}`;
}

/**
 * Prints an instant in a zone with an OpenSearch format (default strict_date_optional_time). Only the first format
 * of an `a||b` list prints, as in OpenSearch.
 */
export function formatDate(ms: number, timeZone: string, format?: string): string {
  const name = printingFormat(format);
  if (name === 'epoch_millis') return String(ms);
  if (name === 'epoch_second') return String(ms / 1000);
  const offset = offsetMs(ms, timeZone);
  if (ISO_NAMES.has(name)) {
    const p = partsOfLocalMs(ms + offset);
    return `${padYear(p.year)}-${pad(p.month, 2)}-${pad(p.day, 2)}T${pad(p.hour, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)}.${pad(p.millisecond, 3)}${formatOffset(offset, '+HH:MM', 'Z')}`;
  }
  return printPattern(namedPattern(name) ?? name, ms, offset, timeZone);
}

function printPattern(pattern: string, ms: number, offset: number, timeZone: string): string {
  const local = ms + offset;
  const p = partsOfLocalMs(local);
  let out = '';
  for (const token of tokenize(pattern)) {
    if ('literal' in token) {
      out += token.literal;
      continue;
    }
    const { letter, count } = token;
    switch (letter) {
      case 'y':
      case 'u':
        out += count === 2 ? pad(((p.year % 100) + 100) % 100, 2) : count >= 4 ? padYear(p.year) : String(p.year);
        break;
      case 'M':
      case 'L':
        out += count >= 4 ? MONTHS[p.month - 1] : count === 3 ? (MONTHS[p.month - 1] as string).slice(0, 3) : pad(p.month, count);
        break;
      case 'd':
        out += pad(p.day, count);
        break;
      case 'D':
        out += pad(Math.floor((utcMs(p.year, p.month, p.day) - utcMs(p.year, 1, 1)) / 86_400_000) + 1, count);
        break;
      case 'H':
        out += pad(p.hour, count);
        break;
      case 'k':
        out += pad(p.hour === 0 ? 24 : p.hour, count);
        break;
      case 'h':
        out += pad(p.hour % 12 === 0 ? 12 : p.hour % 12, count);
        break;
      case 'K':
        out += pad(p.hour % 12, count);
        break;
      case 'm':
        out += pad(p.minute, count);
        break;
      case 's':
        out += pad(p.second, count);
        break;
      case 'S':
        out += pad(p.millisecond, 3).padEnd(count, '0').slice(0, count);
        break;
      case 'a':
        out += p.hour < 12 ? 'AM' : 'PM';
        break;
      case 'E': {
        const weekday = WEEKDAYS[(((Math.floor(local / 86_400_000) + 3) % 7) + 7) % 7] as string;
        out += count >= 4 ? weekday : weekday.slice(0, 3);
        break;
      }
      case 'X':
        out += formatOffset(offset, count === 1 ? '+HHmm' : count === 2 ? '+HHMM' : '+HH:MM', 'Z');
        break;
      case 'x':
        out += formatOffset(offset, count === 1 ? '+HHmm' : count === 2 ? '+HHMM' : '+HH:MM', count === 1 ? '+00' : count === 2 ? '+0000' : '+00:00');
        break;
      case 'Z':
        out += count <= 3 ? formatOffset(offset, '+HHMM', '+0000') : formatOffset(offset, '+HH:MM', 'Z');
        break;
      case 'V':
        out += timeZone;
        break;
      default:
        throw invalidFormat(pattern, `pattern letter '${letter}' is not supported`);
    }
  }
  return out;
}
