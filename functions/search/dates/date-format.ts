/**
 * OpenSearch date formats, printing and parsing, for the formats a search request can name: the mapping's default
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
import { assertTimeZone, daysInMonth, fromLocalMs, offsetMs, partsOfLocalMs, utcMs } from './time-zone';

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

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

type Token = { literal: string } | { letter: string; count: number };

const SUPPORTED_LETTERS = new Set(['y', 'u', 'M', 'L', 'd', 'D', 'H', 'k', 'h', 'K', 'm', 's', 'S', 'a', 'E', 'X', 'x', 'Z', 'V']);

const patternCache = new Map<string, Token[]>();

function invalidFormat(format: string, reason: string): ValidationError {
  return new ValidationError(`invalid date format ${JSON.stringify(format)}`, [{ field: 'format', reason }]);
}

/** Splits a java.time pattern into letters and literals ('quoted', '' = a quote, non-letters as themselves). */
function tokenize(pattern: string): Token[] {
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
function namedPattern(name: string): string | undefined {
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

/** What a parser read from a value; absent fields take defaults when resolved. */
interface ParsedFields {
  year?: number;
  month?: number;
  day?: number;
  hour?: number;
  minute?: number;
  second?: number;
  millisecond?: number;
  pm?: boolean;
  dayOfYear?: number;
  /** Offset written in the value (ms). */
  offset?: number;
  /** Zone id written in the value. */
  zone?: string;
  /** Epoch formats produce the instant directly. */
  instant?: number;
}

const ISO_STRICT =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:T(?:(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?)?(Z|[+-]\d{2}(?::?\d{2})?|[A-Za-z][A-Za-z0-9_/+-]*)?)?$/;
const ISO_LENIENT =
  /^(\d{1,9})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:T(?:(\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,9}))?)?)?)?(Z|[+-]\d{2}(?::?\d{2})?|[A-Za-z][A-Za-z0-9_/+-]*)?)?$/;
const EPOCH = /^[+-]?\d+(?:\.\d+)?$/;

function parseZoneText(text: string): Pick<ParsedFields, 'offset' | 'zone'> | undefined {
  if (text === 'Z') return { offset: 0 };
  const offset = /^([+-])(\d{2})(?::?(\d{2}))?$/.exec(text);
  if (offset) {
    const hours = Number(offset[2]);
    const minutes = Number(offset[3] ?? '0');
    if (hours > 18 || minutes > 59) return undefined;
    return { offset: (offset[1] === '-' ? -1 : 1) * (hours * 3_600_000 + minutes * 60_000) };
  }
  try {
    return { zone: assertTimeZone(text) };
  } catch {
    return undefined;
  }
}

function fractionMs(digits: string | undefined): number | undefined {
  return digits === undefined ? undefined : Math.floor(Number(`0.${digits}`) * 1000 + 1e-6);
}

function parseIso(text: string, lenient: boolean): ParsedFields | undefined {
  const match = (lenient ? ISO_LENIENT : ISO_STRICT).exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  const num = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));
  const fields: ParsedFields = {
    year: Number(year),
    month: num(month),
    day: num(day),
    hour: num(hour),
    minute: num(minute),
    second: num(second),
    millisecond: fractionMs(fraction),
  };
  if (zone !== undefined) {
    const parsedZone = parseZoneText(zone);
    if (!parsedZone) return undefined;
    Object.assign(fields, parsedZone);
  }
  return fields;
}

function parseEpoch(text: string, unitMs: number, roundUp: boolean): ParsedFields | undefined {
  if (!EPOCH.test(text)) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) return undefined;
  // epoch_second rounding up fills the missing fraction with .999, like the other round-up parsers.
  const instant = Math.floor(value * unitMs);
  return { instant: roundUp && unitMs === 1000 && !text.includes('.') ? instant + 999 : instant };
}

/** Builds a regular expression from a pattern's tokens; returns the field setter for each group. */
function parsePattern(pattern: string, text: string): ParsedFields | undefined {
  const tokens = tokenize(pattern);
  let source = '^';
  const setters: ((fields: ParsedFields, value: string) => boolean)[] = [];
  const numeric = (count: number, max = 2): string => (count === 1 ? `(\\d{1,${max}})` : `(\\d{${count}})`);
  for (const token of tokens) {
    if ('literal' in token) {
      source += token.literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      continue;
    }
    const { letter, count } = token;
    const set = (key: keyof ParsedFields) => (fields: ParsedFields, value: string) => {
      (fields[key] as number) = Number(value);
      return true;
    };
    switch (letter) {
      case 'y':
      case 'u':
        if (count === 2) {
          source += '(\\d{2})';
          setters.push((fields, value) => ((fields.year = 2000 + Number(value)), true));
        } else {
          source += `([+-]?\\d{${count},9})`;
          setters.push(set('year'));
        }
        break;
      case 'M':
      case 'L':
        if (count >= 3) {
          const names = MONTHS.map((month) => (count === 3 ? month.slice(0, 3) : month));
          source += `(${names.join('|')})`;
          setters.push((fields, value) => ((fields.month = names.indexOf(value) + 1), true));
        } else {
          source += numeric(count);
          setters.push(set('month'));
        }
        break;
      case 'd':
        source += numeric(count);
        setters.push(set('day'));
        break;
      case 'D':
        source += numeric(count, 3);
        setters.push(set('dayOfYear'));
        break;
      case 'H':
      case 'k':
        source += numeric(count);
        setters.push((fields, value) => ((fields.hour = Number(value) % 24), true));
        break;
      case 'h':
      case 'K':
        source += numeric(count);
        setters.push((fields, value) => ((fields.hour = Number(value) % 12), true));
        break;
      case 'm':
        source += numeric(count);
        setters.push(set('minute'));
        break;
      case 's':
        source += numeric(count);
        setters.push(set('second'));
        break;
      case 'S':
        source += `(\\d{${count}})`;
        setters.push((fields, value) => ((fields.millisecond = fractionMs(value)), true));
        break;
      case 'a':
        source += '(AM|PM|am|pm)';
        setters.push((fields, value) => ((fields.pm = value.toUpperCase() === 'PM'), true));
        break;
      case 'E': {
        const names = WEEKDAYS.map((day) => (count >= 4 ? day : day.slice(0, 3)));
        source += `(${names.join('|')})`;
        setters.push(() => true);
        break;
      }
      case 'X':
      case 'x':
      case 'Z':
        source += '(Z|[+-]\\d{2}(?::?\\d{2})?)';
        setters.push((fields, value) => {
          const zone = parseZoneText(value);
          if (!zone) return false;
          Object.assign(fields, zone);
          return true;
        });
        break;
      case 'V':
        source += '([A-Za-z][A-Za-z0-9_/+-]*)';
        setters.push((fields, value) => {
          const zone = parseZoneText(value);
          if (!zone) return false;
          Object.assign(fields, zone);
          return true;
        });
        break;
      default:
        throw invalidFormat(pattern, `pattern letter '${letter}' is not supported`);
    }
  }
  const match = new RegExp(`${source}$`).exec(text);
  if (!match) return undefined;
  const fields: ParsedFields = {};
  for (let i = 0; i < setters.length; i++) {
    if (!(setters[i] as (f: ParsedFields, v: string) => boolean)(fields, match[i + 1] as string)) return undefined;
  }
  if (fields.pm !== undefined && fields.hour !== undefined && fields.pm) fields.hour += 12;
  return fields;
}

/** Fields → instant: OpenSearch's defaults for absent fields, then the value's own zone or the request's. */
function resolve(fields: ParsedFields, timeZone: string, roundUp: boolean): number | undefined {
  if (fields.instant !== undefined) return fields.instant;
  const year = fields.year ?? 1970;
  let month = fields.month ?? 1;
  let day = fields.day ?? 1;
  if (fields.dayOfYear !== undefined) {
    const date = partsOfLocalMs(utcMs(year, 1, fields.dayOfYear));
    if (date.year !== year || fields.dayOfYear < 1) return undefined;
    month = date.month;
    day = date.day;
  }
  const hour = fields.hour ?? (roundUp ? 23 : 0);
  const minute = fields.minute ?? (roundUp ? 59 : 0);
  const second = fields.second ?? (roundUp ? 59 : 0);
  const millisecond = fields.millisecond ?? (roundUp ? 999 : 0);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (day < 1 || day > daysInMonth(year, month)) return undefined;
  const local = utcMs(year, month, day, hour, minute, second, millisecond);
  if (fields.offset !== undefined) return local - fields.offset;
  // A value without an offset is wall-clock time: java.time's withZoneSameLocal from UTC prefers offset 0.
  return fromLocalMs(local, fields.zone ?? timeZone, fields.zone === undefined ? 0 : undefined);
}

/**
 * Parses a date with an OpenSearch format list (`a||b`, each tried in turn; default: the mapping's). Returns epoch
 * ms, or undefined when no format matches. `roundUp` selects the round-up parser (lte/gt semantics).
 */
export function parseDate(text: string, timeZone: string, roundUp: boolean, format: string = DEFAULT_DATE_FORMAT): number | undefined {
  for (const part of format.split('||')) {
    const name = part.trim();
    let fields: ParsedFields | undefined;
    if (name === 'epoch_millis') fields = parseEpoch(text, 1, roundUp);
    else if (name === 'epoch_second') fields = parseEpoch(text, 1000, roundUp);
    else if (name === 'strict_date_optional_time' || name === 'iso8601') fields = parseIso(text, false);
    else if (name === 'date_optional_time') fields = parseIso(text, true);
    else fields = parsePattern(namedPattern(name) ?? name, text);
    if (fields) {
      const instant = resolve(fields, timeZone, roundUp);
      if (instant !== undefined && Number.isFinite(instant)) return instant;
    }
  }
  return undefined;
}
