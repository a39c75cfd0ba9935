/**
 * date_histogram bucketing with OpenSearch's rounding rules (org.opensearch.common.Rounding), reproduced on top of
 * time-zone.ts:
 * - Calendar units round the wall clock down (local midnight, Monday of the week, 1st of the month, quarter, year;
 *   minute and hour on the local clock) and map back to an instant like OpenSearch's LocalTimeOffset strategies:
 *   a local midnight inside a DST gap becomes the transition instant; one inside an overlap takes the earlier offset;
 *   hours in an overlap stay distinct buckets (02:00 CEST and 02:00 CET).
 * - Fixed intervals floor the *local* milliseconds since the epoch by the interval ("12h" buckets start at local
 *   00:00 and 12:00), then map back the same way (TimeIntervalRounding.VariableRounding).
 * - `offset` shifts buckets: round(t - offset) + offset.
 * - nextBucket is OpenSearch's nextRoundingValue, used to fill empty buckets.
 */
import { daysInMonth } from '../../../values/calendar';
import { ValidationError } from '../../shared/errors';
import { formatDate } from './date-format';
import { DAY_MS, HOUR_MS, partsOfLocalMs, utcMs, zoneRules, type ZoneRules, type ZoneTransition } from './time-zone';
import { BoundedMap } from '../../../values/bounded-map';

export type CalendarUnit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';
export type BucketInterval = { calendar: CalendarUnit } | { fixedMs: number };

const CALENDAR_NAMES: Record<string, CalendarUnit> = {
  minute: 'minute',
  '1m': 'minute',
  hour: 'hour',
  '1h': 'hour',
  day: 'day',
  '1d': 'day',
  week: 'week',
  '1w': 'week',
  month: 'month',
  '1M': 'month',
  quarter: 'quarter',
  '1q': 'quarter',
  year: 'year',
  '1y': 'year',
};

const MINUTE_MS = 60_000;
const WEEK_MS = 7 * DAY_MS;

/** calendar_interval: minute|1m, hour|1h, day|1d, week|1w, month|1M, quarter|1q, year|1y (multiples are not calendar units). */
export function parseCalendarInterval(s: string, field = 'calendar_interval'): CalendarUnit {
  const unit = typeof s === 'string' ? CALENDAR_NAMES[s.trim()] : undefined;
  if (unit === undefined) {
    throw new ValidationError(`${field} must be one of minute, hour, day, week, month, quarter, year (or 1m, 1h, 1d, 1w, 1M, 1q, 1y)`, [
      { field, reason: `${JSON.stringify(s)} is not a calendar interval${/^\d+[mhdwMqy]$/.test(String(s)) ? '; use fixed_interval for multiples' : ''}` },
    ]);
  }
  return unit;
}

const FIXED_UNITS: Record<string, number> = { ms: 1, s: 1000, m: MINUTE_MS, h: HOUR_MS, d: DAY_MS };

/**
 * A duration like OpenSearch's TimeValue: integer + ms|s|m|h|d ("30s", "5m", "12h", "2d"). Units are
 * case-insensitive except minutes ("1M" is a month, which a fixed duration cannot be). Undefined if malformed.
 */
function parseDuration(s: string): number | undefined {
  const match = /^(\d+)\s*(ms|s|m|h|d)$/i.exec(s.trim());
  if (!match) return undefined;
  const unit = match[2] as string;
  if (unit === 'M') return undefined;
  return Number(match[1]) * (FIXED_UNITS[unit.toLowerCase()] as number);
}

/** fixed_interval in ms: '30s', '5m', '12h', '2d', '500ms'; no calendar units (M, q, y, w); must be at least 1 ms. */
export function parseFixedInterval(s: string, field = 'fixed_interval'): number {
  const ms = typeof s === 'string' ? parseDuration(s) : undefined;
  if (ms === undefined || ms < 1 || !Number.isSafeInteger(ms)) {
    throw new ValidationError(`${field} must be a whole number of ms, s, m, h or d, such as "30s" or "12h"`, [
      {
        field,
        reason: `${JSON.stringify(s)} is not a fixed interval${/^\d+[Mqyw]$/.test(String(s)) ? ' (months, quarters, years and weeks are calendar_interval units)' : ''}`,
      },
    ]);
  }
  return ms;
}

/** date_histogram offset: '+6h', '-1d', '30m', or a number of ms (OpenSearch accepts both). */
export function parseOffset(s: string | number, field = 'offset'): number {
  if (typeof s === 'number' && Number.isSafeInteger(s)) return s;
  if (typeof s === 'string') {
    const text = s.trim();
    const sign = text.startsWith('-') ? -1 : 1;
    const ms = parseDuration(text.replace(/^[+-]/, ''));
    if (ms !== undefined) return sign * ms;
    if (/^[+-]?\d+$/.test(text)) return Number(text);
  }
  throw new ValidationError(`${field} must be a duration such as "+6h" or "-1d"`, [{ field, reason: `cannot parse ${JSON.stringify(s)}` }]);
}

function floorDiv(value: number, divisor: number): number {
  return Math.floor(value / divisor) * divisor;
}

/** OpenSearch's DateTimeUnit.roundFloor, on local millis. */
function floorLocal(local: number, unit: CalendarUnit): number {
  switch (unit) {
    case 'minute':
      return floorDiv(local, MINUTE_MS);
    case 'hour':
      return floorDiv(local, HOUR_MS);
    case 'day':
      return floorDiv(local, DAY_MS);
    case 'week':
      // 1970-01-01 was a Thursday: shift by three days so weeks start on Monday.
      return floorDiv(local + 3 * DAY_MS, WEEK_MS) - 3 * DAY_MS;
    case 'month': {
      const p = partsOfLocalMs(local);
      return utcMs(p.year, p.month, 1);
    }
    case 'quarter': {
      const p = partsOfLocalMs(local);
      return utcMs(p.year, p.month - ((p.month - 1) % 3), 1);
    }
    case 'year':
      return utcMs(partsOfLocalMs(local).year, 1, 1);
  }
}

/** Local midnight at the start of `local`'s unit, plus one unit (java.time plusDays/Weeks/Months/Years). */
function nextLocalMidnight(midnight: number, unit: CalendarUnit): number {
  switch (unit) {
    case 'day':
      return midnight + DAY_MS;
    case 'week':
      return midnight + WEEK_MS;
    default: {
      const p = partsOfLocalMs(midnight);
      const months = unit === 'month' ? 1 : unit === 'quarter' ? 3 : 12;
      const month0 = p.month - 1 + months;
      const year = p.year + Math.floor(month0 / 12);
      const month = (month0 % 12) + 1;
      return utcMs(year, month, Math.min(p.day, daysInMonth(year, month)));
    }
  }
}

// ---- OpenSearch's LocalTimeOffset, evaluated lazily -------------------------------------------------------------

/** The span of constant offset containing the instant `upper`: its offset, and (lazily) the transition into it. */
interface Period {
  offset: number;
  upper: number;
}

type Resolve = (local: number, period: Period, transition: ZoneTransition) => number;

/** What to do with a rounded local time that falls in or before the transition into its period. */
interface Strategy {
  inGap: Resolve;
  beforeGap: Resolve;
  inOverlap: Resolve;
  beforeOverlap: Resolve;
}

function previousPeriod(transition: ZoneTransition): Period {
  return { offset: transition.before, upper: transition.at - 1 };
}

/** Rounds instants to bucket starts for one interval in one zone (OpenSearch's Rounding.Prepared). */
export class BucketRounding {
  private readonly zone: ZoneRules;
  private readonly calendar: CalendarUnit | undefined;
  /** Length of minute/hour calendar units, or of the fixed interval; undefined for day and longer units. */
  private readonly unitMs: number | undefined;
  private readonly strategy: Strategy;
  /** Last month/quarter/year floored, [start, end) in local millis: most consecutive values share it. */
  private floorStart = 0;
  private floorEnd = 0;

  constructor(
    readonly interval: BucketInterval,
    timeZone: string,
  ) {
    this.zone = zoneRules(timeZone);
    if ('calendar' in interval) {
      this.calendar = interval.calendar;
      this.unitMs = CALENDAR_MS[interval.calendar];
      this.strategy = this.unitMs === undefined ? this.toMidnightStrategy() : this.notToMidnightStrategy(this.unitMs);
    } else {
      this.unitMs = interval.fixedMs;
      this.strategy = this.fixedIntervalStrategy(interval.fixedMs);
    }
  }

  /** The start of the bucket containing `ms`. */
  round(ms: number): number {
    const offset = this.zone.offsetAt(ms);
    const local = this.floor(ms + offset);
    // Fast path: no transition between a day before the rounded local time and `ms` (the window that matters).
    if (this.zone.constantOver(local - DAY_MS, ms)) return local - offset;
    return this.localToUtc(local, { offset, upper: ms });
  }

  /** The start of the bucket after the one starting at `ms` (nextRoundingValue). */
  next(ms: number): number {
    const calendar = this.calendar;
    const unitMs = this.unitMs as number;
    if (calendar === undefined) return this.nextFixed(ms, unitMs);
    if (this.unitMs !== undefined) {
      const once = this.round(ms + unitMs);
      return ms < once ? once : this.round(ms + 2 * unitMs);
    }
    const midnight = floorLocal(ms + this.zone.offsetAt(ms), calendar);
    return this.firstInstantOfLocal(nextLocalMidnight(midnight, calendar));
  }

  private floor(local: number): number {
    const calendar = this.calendar;
    if (calendar === undefined) return floorDiv(local, this.unitMs as number);
    if (calendar !== 'month' && calendar !== 'quarter' && calendar !== 'year') return floorLocal(local, calendar);
    if (local >= this.floorStart && local < this.floorEnd) return this.floorStart;
    this.floorStart = floorLocal(local, calendar);
    this.floorEnd = nextLocalMidnight(this.floorStart, calendar);
    return this.floorStart;
  }

  /**
   * LocalTimeOffset.localToUtc: a transition into the period matters only if `local` falls before the later of its
   * two local boundaries, which lie within ±18 h of it — so only transitions after local − 1 day are read.
   */
  private localToUtc(local: number, period: Period): number {
    const transition = this.zone.previousTransition(period.upper, local - DAY_MS);
    if (!transition) return local - period.offset;
    if (transition.after > transition.before) {
      if (local >= transition.at + transition.after) return local - period.offset;
      if (local >= transition.at + transition.before) return this.strategy.inGap(local, period, transition);
      return this.strategy.beforeGap(local, period, transition);
    }
    if (local >= transition.at + transition.before) return local - period.offset;
    if (local >= transition.at + transition.after) return this.strategy.inOverlap(local, period, transition);
    return this.strategy.beforeOverlap(local, period, transition);
  }

  /** Day and longer units (ToMidnightRounding): a skipped midnight is the transition; ambiguous → earlier offset. */
  private toMidnightStrategy(): Strategy {
    const previous: Resolve = (local, _period, transition) => this.localToUtc(local, previousPeriod(transition));
    return { inGap: (_local, _period, transition) => transition.at, beforeGap: previous, inOverlap: previous, beforeOverlap: previous };
  }

  /** Minute and hour (NotToMidnightRounding): both copies of an overlapped hour are buckets of their own. */
  private notToMidnightStrategy(unitMs: number): Strategy {
    const calendar = this.calendar as CalendarUnit;
    const inGap: Resolve = (_local, _period, transition) =>
      this.localToUtc(floorLocal(transition.at + transition.before - 1, calendar), previousPeriod(transition));
    return {
      inGap,
      beforeGap: inGap,
      inOverlap: (local, period) => local - period.offset,
      beforeOverlap: (local, period, transition) =>
        transition.before - transition.after >= unitMs ? local - period.offset : this.localToUtc(local, previousPeriod(transition)),
    };
  }

  /** Fixed intervals (TimeIntervalRounding.VariableRounding). */
  private fixedIntervalStrategy(intervalMs: number): Strategy {
    return {
      inGap: (_local, _period, transition) => transition.at,
      beforeGap: (local, _period, transition) => this.localToUtc(local, previousPeriod(transition)),
      inOverlap: (local, period) => local - period.offset,
      beforeOverlap: (_local, _period, transition) => this.localToUtc(floorDiv(transition.at + transition.before - 1, intervalMs), previousPeriod(transition)),
    };
  }

  /** java.time's firstTimeOnDay: the earliest instant of a local midnight (the transition instant if it is skipped). */
  private firstInstantOfLocal(local: number): number {
    const valid = this.zone.validOffsets(local);
    if (valid[0] !== undefined) return local - valid[0];
    const before = this.zone.offsetAt(local - DAY_MS);
    const gap = this.zone.previousTransition(local - before, local - before - DAY_MS);
    return gap ? gap.at : local - before;
  }

  /** TimeIntervalRounding.nextRoundingValue: search for the next distinct rounded value (one step without DST). */
  private nextFixed(ms: number, intervalMs: number): number {
    const previous = this.round(ms);
    let increment = intervalMs;
    let from = previous;
    for (let iterations = 0; iterations < 100; iterations++) {
      from += increment;
      const rounded = this.round(from);
      if (rounded <= previous) {
        if (increment < 0) increment = -Math.trunc(increment / 2);
        continue;
      }
      if (this.round(rounded - 1) > previous) {
        if (increment > 0) increment = -Math.trunc(increment / 2);
        continue;
      }
      return rounded;
    }
    return this.round(from);
  }
}

const CALENDAR_MS: Partial<Record<CalendarUnit, number>> = { minute: MINUTE_MS, hour: HOUR_MS };

/** Intervals and zones come from requests: the most recent 256 roundings stay built. */
const roundings = new BoundedMap<string, BucketRounding>(256);
let lastRounding: BucketRounding | undefined;
let lastZone = '';

/** The cached rounding for an interval and zone (callers in hot loops may keep it; bucketStart looks it up). */
export function bucketRounding(interval: BucketInterval, timeZone: string): BucketRounding {
  const last = lastRounding;
  if (last !== undefined && lastZone === timeZone) {
    const held = last.interval;
    if ('calendar' in interval ? 'calendar' in held && held.calendar === interval.calendar : 'fixedMs' in held && held.fixedMs === interval.fixedMs) {
      return last;
    }
  }
  const key = `${'calendar' in interval ? interval.calendar : interval.fixedMs}|${timeZone}`;
  let rounding = roundings.get(key);
  if (!rounding) {
    rounding = new BucketRounding('calendar' in interval ? { calendar: interval.calendar } : { fixedMs: interval.fixedMs }, timeZone);
    roundings.set(key, rounding);
  }
  lastRounding = rounding;
  lastZone = timeZone;
  return rounding;
}

/** The start (epoch ms) of the bucket containing `ms`, as OpenSearch's date_histogram computes it. */
export function bucketStart(ms: number, interval: BucketInterval, timeZone: string, offsetMs = 0): number {
  return bucketRounding(interval, timeZone).round(ms - offsetMs) + offsetMs;
}

/** The start of the bucket after the one starting at `ms` (OpenSearch's nextRoundingValue). */
export function nextBucket(ms: number, interval: BucketInterval, timeZone: string, offsetMs = 0): number {
  return bucketRounding(interval, timeZone).next(ms - offsetMs) + offsetMs;
}

/**
 * A bucket key as OpenSearch prints key_as_string: default strict_date_optional_time in the agg's zone
 * ('2026-11-01T00:00:00.000+01:00'; 'Z' whenever the offset is zero, e.g. UTC, or Europe/London in winter), or
 * the agg's `format` ('yyyy-MM-dd', 'yyyy-MM-dd HH:mm', "yyyy-MM-dd'T'HH:mm:ss", epoch_millis, named formats).
 */
export function formatKeyAsString(ms: number, timeZone: string, format?: string): string {
  return formatDate(ms, timeZone, format);
}
