import { daysInMonth } from './calendar';

/**
 * The collector's ISO 8601 date-time reading (see schemas/collector.ts for the accepted forms):
 * `Z`, a numeric offset or no offset (UTC); a fraction of up to 9 digits cut to milliseconds; a bare
 * date is midnight UTC. Hand-rolled over char codes: it runs for every event.
 */
/** The fields of an ISO 8601 date-time text as written, before time zone arithmetic. */
interface DateTimeParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
  offsetMinutes: number;
}

/**
 * Reads an ISO 8601 date-time as described above; undefined when the text is not one.
 * Hand-rolled over char codes: it runs for every event, and a regex plus Date parsing costs
 * several times more.
 */
function readDateTime(text: string): DateTimeParts | undefined {
  const length = text.length;
  if (length < 10 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH) return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  const parts: DateTimeParts = { year, month, day, hour: 0, minute: 0, second: 0, millis: 0, offsetMinutes: 0 };
  if (length === 10) return parts;

  const separator = text.charCodeAt(10);
  if ((separator !== UPPER_T && separator !== LOWER_T && separator !== SPACE) || length < 16 || text.charCodeAt(13) !== COLON) return undefined;
  parts.hour = digits(text, 11, 2);
  parts.minute = digits(text, 14, 2);
  let at = 16;
  if (text.charCodeAt(at) === COLON) {
    parts.second = digits(text, at + 1, 2);
    at += 3;
    const mark = text.charCodeAt(at);
    if (mark === DOT || mark === COMMA) {
      const start = ++at;
      while (at < length && isDigit(text.charCodeAt(at))) at++;
      const fractionDigits = at - start;
      if (fractionDigits < 1 || fractionDigits > 9) return undefined;
      parts.millis = digits(text, start, Math.min(fractionDigits, 3)) * (fractionDigits === 1 ? 100 : fractionDigits === 2 ? 10 : 1);
    }
  }
  if (parts.hour < 0 || parts.hour > 23 || parts.minute < 0 || parts.minute > 59 || parts.second < 0 || parts.second > 59) return undefined;
  if (at < length) {
    const zone = text.charCodeAt(at);
    if (zone === UPPER_Z || zone === LOWER_Z) {
      at += 1;
    } else if (zone === PLUS || zone === MINUS) {
      const hours = digits(text, at + 1, 2);
      at += 3;
      let minutes = 0;
      if (at < length) {
        if (text.charCodeAt(at) === COLON) at += 1;
        minutes = digits(text, at, 2);
        at += 2;
      }
      if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return undefined;
      parts.offsetMinutes = (zone === MINUS ? -1 : 1) * (hours * 60 + minutes);
    } else {
      return undefined;
    }
  }
  return at === length ? parts : undefined;
}

function epochMillis(parts: DateTimeParts): number {
  const { year, month, day, hour, minute, second, millis } = parts;
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear does not.
  const utc =
    year >= 100
      ? Date.UTC(year, month - 1, day, hour, minute, second, millis)
      : new Date(0).setUTCFullYear(year, month - 1, day) + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
  return utc - parts.offsetMinutes * 60_000;
}

/** Epoch milliseconds of an ISO 8601 date-time text; undefined when the text is not one. */
export function parseDateTime(text: string): number | undefined {
  const parts = readDateTime(text);
  return parts && epochMillis(parts);
}

/**
 * The normalised UTC form `YYYY-MM-DDTHH:mm:ss.sssZ` of an ISO 8601 date-time text; undefined when
 * the text is not one. Avoids Date#toISOString (microseconds per call) in the common cases: text
 * already in that form is returned as is, and UTC text is reformatted from its own fields.
 */
export function normaliseDateTime(text: string): string | undefined {
  const parts = readDateTime(text);
  if (!parts) return undefined;
  if (hasCanonicalLayout(text)) return text;
  if (parts.offsetMinutes !== 0) return new Date(epochMillis(parts)).toISOString();
  return `${pad(parts.year, 4)}-${pad(parts.month, 2)}-${pad(parts.day, 2)}T${pad(parts.hour, 2)}:${pad(parts.minute, 2)}:${pad(parts.second, 2)}.${pad(parts.millis, 3)}Z`;
}

const DASH = 45;
const COLON = 58;
const DOT = 46;
const COMMA = 44;
const SPACE = 32;
const PLUS = 43;
const MINUS = 45;
const UPPER_T = 84;
const LOWER_T = 116;
const UPPER_Z = 90;
const LOWER_Z = 122;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** The number written by `count` decimal digits at `start`, or -1 when any of them is not a digit. */
function digits(text: string, start: number, count: number): number {
  if (start + count > text.length) return -1;
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return -1;
    value = value * 10 + (code - 48);
  }
  return value;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** The layout of `YYYY-MM-DDTHH:mm:ss.sssZ` (what JavaScript SDKs send); valid only once read. */
function hasCanonicalLayout(text: string): boolean {
  return text.length === 24 && text.charCodeAt(10) === UPPER_T && text.charCodeAt(19) === DOT && text.charCodeAt(23) === UPPER_Z;
}
