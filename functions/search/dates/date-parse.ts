/**
 * Parsing dates with OpenSearch formats (see date-format.ts for the formats and printing): fields a
 * value leaves out default to the start of the period, or, when rounding up (lte, gt), to month 1,
 * day 1, 23:59:59.999 (DateFormatters' round-up parser). A value without an offset is wall-clock
 * time in the request's time zone.
 */
import { daysInMonth } from '../../../values/calendar';
import { DEFAULT_DATE_FORMAT, invalidFormat, MONTHS, namedPattern, tokenize, WEEKDAYS } from './date-format';
import { assertTimeZone, fromLocalMs, partsOfLocalMs, utcMs } from './time-zone';

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

/**
 * Parses a value with a pattern: each token becomes a piece (a test of the text it may take, and the
 * field setter of its value), and matchPieces finds where each piece ends. No regular expression is
 * built from the pattern, so no pattern can make one that backtracks or fails to compile.
 */
function parsePattern(pattern: string, text: string): ParsedFields | undefined {
  const tokens = tokenize(pattern);
  const pieces: PatternPiece[] = [];
  const numeric = (count: number, max = 2): TextTest => (count === 1 ? digits(1, max) : digits(count, count));
  for (const token of tokens) {
    if ('literal' in token) {
      pieces.push({ literal: token.literal });
      continue;
    }
    let test: TextTest;
    let setter: Setter;
    const { letter, count } = token;
    const set = (key: keyof ParsedFields) => (fields: ParsedFields, value: string) => {
      (fields[key] as number) = Number(value);
      return true;
    };
    switch (letter) {
      case 'y':
      case 'u':
        if (count === 2) {
          test = digits(2, 2);
          setter = (fields, value) => {
            fields.year = 2000 + Number(value);
            return true;
          };
        } else {
          test = signed(digits(count, 9));
          setter = set('year');
        }
        break;
      case 'M':
      case 'L':
        if (count >= 3) {
          const names = MONTHS.map((month) => (count === 3 ? month.slice(0, 3) : month));
          test = oneOf(names);
          setter = (fields, value) => {
            fields.month = names.indexOf(value) + 1;
            return true;
          };
        } else {
          test = numeric(count);
          setter = set('month');
        }
        break;
      case 'd':
        test = numeric(count);
        setter = set('day');
        break;
      case 'D':
        test = numeric(count, 3);
        setter = set('dayOfYear');
        break;
      case 'H':
      case 'k':
        test = numeric(count);
        setter = (fields, value) => {
          fields.hour = Number(value) % 24;
          return true;
        };
        break;
      case 'h':
      case 'K':
        test = numeric(count);
        setter = (fields, value) => {
          fields.hour = Number(value) % 12;
          return true;
        };
        break;
      case 'm':
        test = numeric(count);
        setter = set('minute');
        break;
      case 's':
        test = numeric(count);
        setter = set('second');
        break;
      case 'S':
        test = digits(count, count);
        setter = (fields, value) => {
          fields.millisecond = fractionMs(value);
          return true;
        };
        break;
      case 'a':
        test = oneOf(['AM', 'PM', 'am', 'pm']);
        setter = (fields, value) => {
          fields.pm = value.toUpperCase() === 'PM';
          return true;
        };
        break;
      case 'E': {
        const names = WEEKDAYS.map((day) => (count >= 4 ? day : day.slice(0, 3)));
        test = oneOf(names);
        setter = () => true;
        break;
      }
      case 'X':
      case 'x':
      case 'Z':
        test = isOffsetText;
        setter = (fields, value) => {
          const zone = parseZoneText(value);
          if (!zone) return false;
          Object.assign(fields, zone);
          return true;
        };
        break;
      case 'V':
        test = isZoneIdText;
        setter = (fields, value) => {
          const zone = parseZoneText(value);
          if (!zone) return false;
          Object.assign(fields, zone);
          return true;
        };
        break;
      default:
        throw invalidFormat(pattern, `pattern letter '${letter}' is not supported`);
    }
    pieces.push({ test, setter });
  }
  const values = matchPieces(pieces, text);
  if (!values) return undefined;
  const fields: ParsedFields = {};
  for (const [i, piece] of pieces.entries()) {
    if ('setter' in piece && !piece.setter(fields, values[i] as string)) return undefined;
  }
  if (fields.pm !== undefined && fields.hour !== undefined && fields.pm) fields.hour += 12;
  return fields;
}

type Setter = (fields: ParsedFields, value: string) => boolean;
/** Whether a piece of text is all a field may take (anchored at both ends). */
type TextTest = (text: string) => boolean;

/** A token of a pattern: literal text, or a field's text test and its setter. */
type PatternPiece = { readonly literal: string } | { readonly test: TextTest; readonly setter: Setter };

const isDigit = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '9';
const allDigits = (text: string) => [...text].every(isDigit);
/** `\d{min,max}`. */
const digits =
  (min: number, max: number): TextTest =>
  (text) =>
    text.length >= min && text.length <= max && allDigits(text);
/** `[+-]?` then what `body` takes. */
const signed =
  (body: TextTest): TextTest =>
  (text) =>
    body(text[0] === '+' || text[0] === '-' ? text.slice(1) : text);
const oneOf =
  (names: readonly string[]): TextTest =>
  (text) =>
    names.includes(text);
/** `Z|[+-]\d{2}(:?\d{2})?`: an offset as X, x and Z write it. */
const isOffsetText: TextTest = (text) => {
  if (text === 'Z') return true;
  if (text[0] !== '+' && text[0] !== '-') return false;
  const rest = text.slice(1);
  if (rest.length === 2 || rest.length === 4) return allDigits(rest);
  return rest.length === 5 && rest[2] === ':' && allDigits(rest.slice(0, 2)) && allDigits(rest.slice(3));
};
/** `[A-Za-z][A-Za-z0-9_/+-]*`: a zone id as V writes it. */
const isZoneIdText: TextTest = (text) => /^[A-Za-z][A-Za-z0-9_/+-]*$/.test(text);

/** The longest text one field's piece is tried on (zone ids are the longest, about 32 characters). */
const MAX_FIELD_LENGTH = 48;

/**
 * The text each piece takes, so that together they take all of `text`; undefined when they cannot.
 * Each piece tries its longest text first, as one backtracking expression of all pieces would, but
 * a (piece, position) that failed once is not tried again: at most pieces × positions × 48 tests,
 * where one expression for patterns like `ydydyd…` took exponential time (20 s for 16 fields).
 */
function matchPieces(pieces: readonly PatternPiece[], text: string): string[] | undefined {
  const failed = new Set<number>();
  const taken: string[] = [];
  const from = (i: number, at: number): boolean => {
    if (i === pieces.length) return at === text.length;
    const key = i * (text.length + 1) + at;
    if (failed.has(key)) return false;
    const piece = pieces[i] as PatternPiece;
    if ('literal' in piece) {
      if (text.startsWith(piece.literal, at) && from(i + 1, at + piece.literal.length)) return true;
    } else {
      for (let length = Math.min(MAX_FIELD_LENGTH, text.length - at); length > 0; length -= 1) {
        const value = text.slice(at, at + length);
        if (!piece.test(value)) continue;
        taken[i] = value;
        if (from(i + 1, at + length)) return true;
      }
    }
    failed.add(key);
    return false;
  };
  return from(0, 0) ? taken : undefined;
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
