import { daysInMonth } from '../../../values/calendar';

/**
 * Time-zone arithmetic without a date library. Node's Intl supplies a zone's UTC offset at an instant; everything
 * else (wall-clock parts, wall clock → instant with java.time's DST rules, offset transitions) is computed here.
 *
 * Speed: Intl.DateTimeFormat#formatToParts costs microseconds and bucketing may ask for offsets hundreds of thousands
 * of times, so each zone keeps one formatter and a table of its offset transitions per 32-day block, built on first
 * use by sampling the offset once a day and bisecting to the exact second where two samples differ. Lookups then
 * touch only that table (plus a one-entry cache of the last constant-offset span).
 * Assumption: a zone does not change its offset and change it back within 24 hours (such a pair would be missed);
 * the tests compare the tables with Intl at random instants 1990–2040 in zones with unusual rules.
 */
import { ValidationError } from '../../shared/errors';
import { BoundedMap } from '../../../values/bounded-map';
import { knownTimeZoneName } from '../../../values/time-zone-names';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
const BLOCK_MS = 32 * DAY_MS;
/** Instants whose whole transition table lies inside the Date range (±8.64e15 ms). */
const INSTANT_LIMIT = 8.64e15 - 2 * BLOCK_MS;

/** A wall-clock date and time in some zone (month 1–12, day 1–31). */
export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** Input to fromLocalParts: the time of day defaults to midnight. Out-of-range values roll over like Date.UTC. */
export type LocalPartsInput = Pick<LocalParts, 'year' | 'month' | 'day'> & Partial<Omit<LocalParts, 'year' | 'month' | 'day'>>;

/** One change of a zone's offset: from `at` (epoch ms) the offset is `after` instead of `before`. */
export interface ZoneTransition {
  at: number;
  before: number;
  after: number;
}

interface Block {
  startOffset: number;
  transitions: ZoneTransition[];
}

/** Zones as requests write them (any case of a name, any fixed offset): the most recent 1,024 stay loaded. */
const zones = new BoundedMap<string, ZoneRules>(1024);

const FIXED_OFFSET = /^([+-])(\d{2})(?::?(\d{2}))?$/;

/**
 * Validates a time zone and returns its canonical name: a TZ database name (matched case-insensitively, as Intl
 * does; 'europe/berlin' → 'Europe/Berlin', any UTC alias → 'UTC', other links kept as given), or a fixed offset
 * '+01:00' / '-0530' / '+01' (OpenSearch's time_zone accepts those; returned as '+HH:MM', a zero offset as 'UTC').
 */
export function assertTimeZone(name: string, field = 'time_zone'): string {
  const canonical = typeof name === 'string' ? canonicalZone(name.trim()) : undefined;
  if (canonical === undefined) {
    throw new ValidationError(`${field} must be a TZ database time zone name such as "Europe/Berlin"`, [
      { field, reason: `unknown time zone ${JSON.stringify(name)}` },
    ]);
  }
  return canonical;
}

function canonicalZone(name: string): string | undefined {
  if (name === '') return undefined;
  if (name === 'Z' || name.toUpperCase() === 'UTC') return 'UTC';
  const fixed = FIXED_OFFSET.exec(name);
  if (fixed) {
    const hours = Number(fixed[2]);
    const minutes = Number(fixed[3] ?? '0');
    // java.time's ZoneOffset limit.
    if (hours > 18 || minutes > 59 || (hours === 18 && minutes > 0)) return undefined;
    if (hours === 0 && minutes === 0) return 'UTC';
    return `${fixed[1]}${fixed[2]}:${String(minutes).padStart(2, '0')}`;
  }
  // Only names both engines know (values/time-zone-names.ts), in the list's spelling.
  const known = knownTimeZoneName(name);
  if (known === undefined) return undefined;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: known }).resolvedOptions().timeZone;
    if (resolved === 'UTC' || resolved === 'Etc/UTC' || resolved === 'Etc/GMT' || resolved === 'GMT') return 'UTC';
    // ICU resolves links to its own (often older) canonical names (Asia/Kolkata → Asia/Calcutta): keep the name as
    // written, which java.time (OpenSearch) knows too.
    return known;
  } catch {
    return undefined;
  }
}

/** A zone's offset rules, resolved once per name; hot paths hold on to it instead of looking the name up. */
export class ZoneRules {
  /** Set for UTC and fixed-offset zones ("+05:30"): no Intl needed. */
  readonly fixedOffsetMs: number | undefined;
  private readonly formatter: Intl.DateTimeFormat | undefined;
  private readonly blocks = new Map<number, Block>();
  /** The last constant-offset span looked up: [spanStart, spanEnd) at spanOffset (bounded by block edges). */
  private spanStart = 0;
  private spanEnd = 0;
  private spanOffset = 0;

  constructor(readonly name: string) {
    const fixed = FIXED_OFFSET.exec(name);
    if (name === 'UTC') this.fixedOffsetMs = 0;
    else if (fixed) {
      const sign = fixed[1] === '-' ? -1 : 1;
      this.fixedOffsetMs = sign * (Number(fixed[2]) * HOUR_MS + Number(fixed[3] ?? '0') * 60_000);
    } else {
      this.formatter = new Intl.DateTimeFormat('en-US', {
        timeZone: name,
        hourCycle: 'h23',
        era: 'short',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    }
  }

  /** The offset from UTC (ms, east positive) at an instant; NaN for instants no Date can hold (or NaN). */
  offsetAt(instantMs: number): number {
    if (this.fixedOffsetMs !== undefined) return this.fixedOffsetMs;
    if (instantMs >= this.spanStart && instantMs < this.spanEnd) return this.spanOffset;
    // Intl throws outside the Date range; callers turn NaN into a 400 or carry it through arithmetic.
    if (!(Math.abs(instantMs) <= INSTANT_LIMIT)) return Number.NaN;
    const index = Math.floor(instantMs / BLOCK_MS);
    const block = this.block(index);
    let start = index * BLOCK_MS;
    let end = start + BLOCK_MS;
    let offset = block.startOffset;
    for (const transition of block.transitions) {
      if (transition.at <= instantMs) {
        start = transition.at;
        offset = transition.after;
      } else {
        end = transition.at;
        break;
      }
    }
    this.spanStart = start;
    this.spanEnd = end;
    this.spanOffset = offset;
    return offset;
  }

  /**
   * True when the offset is known to be constant over [fromMs, toMs]: cheap (one comparison after offsetAt(toMs))
   * and conservative (may say false near the edges of the internal 32-day tables).
   */
  constantOver(fromMs: number, toMs: number): boolean {
    if (this.fixedOffsetMs !== undefined) return true;
    this.offsetAt(toMs);
    return fromMs >= this.spanStart && toMs < this.spanEnd;
  }

  /** The latest transition at an instant in (afterMs, atOrBeforeMs]; keep the window short (it scans the tables). */
  previousTransition(atOrBeforeMs: number, afterMs: number): ZoneTransition | undefined {
    if (this.fixedOffsetMs !== undefined || !(atOrBeforeMs > afterMs)) return undefined;
    const first = Math.floor(Math.max(afterMs, -INSTANT_LIMIT) / BLOCK_MS);
    for (let index = Math.floor(Math.min(atOrBeforeMs, INSTANT_LIMIT) / BLOCK_MS); index >= first; index--) {
      const transitions = this.block(index).transitions;
      for (let i = transitions.length - 1; i >= 0; i--) {
        const transition = transitions[i] as ZoneTransition;
        if (transition.at <= afterMs) return undefined;
        if (transition.at <= atOrBeforeMs) return transition;
      }
    }
    return undefined;
  }

  /** Offsets valid for a wall-clock time: one, two in an overlap (larger first, as java.time lists them), none in a gap. */
  validOffsets(localMs: number): number[] {
    if (this.fixedOffsetMs !== undefined) return [this.fixedOffsetMs];
    // A valid offset o satisfies offset(local - o) = o; offsets stay within ±18h, so o is in force within a day.
    const early = this.offsetAt(localMs - DAY_MS);
    const late = this.offsetAt(localMs + DAY_MS);
    const valid: number[] = [];
    for (const candidate of early >= late ? [early, late] : [late, early]) {
      if (!valid.includes(candidate) && this.offsetAt(localMs - candidate) === candidate) valid.push(candidate);
    }
    return valid;
  }

  /** See fromLocalMs. */
  fromLocal(localMs: number, preferredOffsetMs?: number): number {
    if (this.fixedOffsetMs !== undefined) return localMs - this.fixedOffsetMs;
    const valid = this.validOffsets(localMs);
    const first = valid[0];
    if (first === undefined) return localMs - this.offsetAt(localMs - DAY_MS);
    if (valid.length > 1 && preferredOffsetMs !== undefined && valid.includes(preferredOffsetMs)) return localMs - preferredOffsetMs;
    return localMs - first;
  }

  private block(index: number): Block {
    const cached = this.blocks.get(index);
    if (cached) return cached;
    const formatter = this.formatter as Intl.DateTimeFormat;
    const start = index * BLOCK_MS;
    const lastSecond = start + BLOCK_MS - 1000;
    const startOffset = intlOffsetMs(formatter, start);
    const transitions: ZoneTransition[] = [];
    let previousAt = start;
    let previousOffset = startOffset;
    for (let sample = start + DAY_MS; previousAt < lastSecond; sample += DAY_MS) {
      const at = Math.min(sample, lastSecond);
      const offset = intlOffsetMs(formatter, at);
      if (offset !== previousOffset) {
        // Transitions fall on whole seconds: bisect to the first second with the new offset.
        let lo = previousAt;
        let hi = at;
        while (hi - lo > 1000) {
          const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
          if (intlOffsetMs(formatter, mid) === previousOffset) lo = mid;
          else hi = mid;
        }
        transitions.push({ at: hi, before: previousOffset, after: offset });
      }
      previousAt = at;
      previousOffset = offset;
    }
    const block = { startOffset, transitions };
    this.blocks.set(index, block);
    return block;
  }
}

/** The rules of a zone (validated, canonicalised, cached): hold on to it in hot loops. */
export function zoneRules(timeZone: string): ZoneRules {
  const known = zones.get(timeZone);
  if (known) return known;
  const canonical = assertTimeZone(timeZone);
  let rules = zones.get(canonical);
  if (!rules) {
    rules = new ZoneRules(canonical);
    zones.set(canonical, rules);
  }
  zones.set(timeZone, rules);
  return rules;
}

/** True for UTC and fixed offsets: no transitions ever. */
export function isFixedZone(timeZone: string): boolean {
  return zoneRules(timeZone).fixedOffsetMs !== undefined;
}

/** The zone's offset at a whole second, straight from Intl (slow; only block construction calls this). */
function intlOffsetMs(formatter: Intl.DateTimeFormat, instantMs: number): number {
  const second = Math.floor(instantMs / 1000) * 1000;
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let sec = 0;
  let beforeChrist = false;
  for (const part of formatter.formatToParts(second)) {
    switch (part.type) {
      case 'year':
        year = Number(part.value);
        break;
      case 'month':
        month = Number(part.value);
        break;
      case 'day':
        day = Number(part.value);
        break;
      case 'hour':
        hour = Number(part.value);
        break;
      case 'minute':
        minute = Number(part.value);
        break;
      case 'second':
        sec = Number(part.value);
        break;
      case 'era':
        beforeChrist = part.value.startsWith('B');
        break;
      default:
        break;
    }
  }
  return utcMs(beforeChrist ? 1 - year : year, month, day, hour, minute, sec, 0) - second;
}

/** The zone's offset from UTC (ms, east positive) at an instant. */
export function offsetMs(instantMs: number, timeZone: string): number {
  return zoneRules(timeZone).offsetAt(instantMs);
}

/**
 * The latest offset transition at an instant in (afterMs, atOrBeforeMs], if any. Scans the transition tables of
 * that window, so callers keep it short (a rounding unit plus a day).
 */
export function previousTransition(atOrBeforeMs: number, afterMs: number, timeZone: string): ZoneTransition | undefined {
  return zoneRules(timeZone).previousTransition(atOrBeforeMs, afterMs);
}

/** The wall clock at an instant, as milliseconds of a UTC-based calendar ("local millis", as in OpenSearch). */
export function toLocalMs(instantMs: number, timeZone: string): number {
  return instantMs + offsetMs(instantMs, timeZone);
}

/**
 * The offsets valid for a wall-clock time (local millis): one normally, two in an overlap (the earlier instant's,
 * i.e. larger, offset first, like java.time's getValidOffsets), none in a gap.
 */
export function validOffsets(localMs: number, timeZone: string): number[] {
  return zoneRules(timeZone).validOffsets(localMs);
}

/**
 * Wall clock (local millis) → instant, with java.time's rules (ZonedDateTime.ofLocal): in an overlap the preferred
 * offset if it is one of the two, else the earlier instant; a time in a gap moves forward by the gap's length
 * (02:30 in a 02:00→03:00 gap becomes 03:30 in the new offset).
 */
export function fromLocalMs(localMs: number, timeZone: string, preferredOffsetMs?: number): number {
  return zoneRules(timeZone).fromLocal(localMs, preferredOffsetMs);
}

/** The wall-clock parts at an instant in a zone. */
export function localParts(ms: number, timeZone: string): LocalParts {
  return partsOfLocalMs(toLocalMs(ms, timeZone));
}

/** Wall-clock parts → instant (epoch ms), DST resolved as java.time / OpenSearch do (see fromLocalMs). */
export function fromLocalParts(parts: LocalPartsInput, timeZone: string): number {
  const local = utcMs(parts.year, parts.month, parts.day, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, parts.millisecond ?? 0);
  return fromLocalMs(local, timeZone);
}

/** Calendar parts of a UTC-based millisecond count (used on local millis). */
export function partsOfLocalMs(localMs: number): LocalParts {
  const date = new Date(localMs);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
    millisecond: date.getUTCMilliseconds(),
  };
}

/** Date.UTC without its two-digit-year quirk (years 0–99 would otherwise mean 1900–1999); month is 1–12. */
export function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millisecond = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millisecond);
  return date.getTime();
}

/**
 * ZonedDateTime.plusYears/Months/Weeks/Days: calendar arithmetic on the wall clock (the time of day is kept and the
 * day clamped to the month's length: Jan 31 + 1 month = Feb 28/29), then back to an instant keeping the current
 * offset when the new wall time is ambiguous (java.time's resolveLocal); a wall time in a gap moves forward.
 */
export function addCalendar(ms: number, amount: number, unit: 'year' | 'month' | 'week' | 'day', timeZone: string): number {
  const offset = offsetMs(ms, timeZone);
  const local = ms + offset;
  let shifted: number;
  if (unit === 'day' || unit === 'week') {
    shifted = local + amount * (unit === 'week' ? 7 : 1) * DAY_MS;
  } else {
    const p = partsOfLocalMs(local);
    const month0 = p.month - 1 + amount * (unit === 'year' ? 12 : 1);
    const year = p.year + Math.floor(month0 / 12);
    const month = (((month0 % 12) + 12) % 12) + 1;
    shifted = utcMs(year, month, Math.min(p.day, daysInMonth(year, month)), p.hour, p.minute, p.second, p.millisecond);
  }
  return fromLocalMs(shifted, timeZone, offset);
}

/** ZonedDateTime.with(...) for a wall-clock adjustment: the new local time, keeping the current offset if valid. */
export function withLocal(ms: number, adjust: (local: number) => number, timeZone: string): number {
  const offset = offsetMs(ms, timeZone);
  return fromLocalMs(adjust(ms + offset), timeZone, offset);
}
