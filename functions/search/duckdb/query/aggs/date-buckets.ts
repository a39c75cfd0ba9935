import { bucketStart, nextBucket, type BucketInterval, type CalendarUnit } from '../../../dates/intervals';
import { DAY_MS, isFixedZone, offsetMs, previousTransition, type ZoneTransition } from '../../../dates/time-zone';

/**
 * date_histogram bucket keys in SQL, equal to OpenSearch's rounding (reproduced in JavaScript by
 * dates/intervals.ts) without calling a time-zone function per row: DuckDB's ICU conversions cost
 * 150 ms to 30 s per million rows, integer arithmetic a few milliseconds.
 *
 * Between two offset transitions a zone is a fixed offset, and a bucket key there is plain arithmetic on the
 * wall clock: key = floor(utc + offset) - offset. Only instants shortly after a transition (within one bucket
 * length, whose wall-clock bucket start may lie before the transition) can round differently (gaps, overlaps,
 * OpenSearch's LocalTimeOffset strategies); for those, the bucket starts are computed in JavaScript with
 * bucketStart/nextBucket and looked up by a CASE. The transitions come from the span of instants the data can
 * hold, so the SQL is exact for every row in that span.
 */

export interface DateRounding {
  readonly interval: BucketInterval;
  /** Canonical zone name (dates/time-zone.ts assertTimeZone). */
  readonly timeZone: string;
  /** The date_histogram `offset`: keys are round(t - offset) + offset. */
  readonly offsetMs: number;
}

/** The instants (epoch ms, inclusive) the rows can hold. */
export interface InstantSpan {
  readonly lo: number;
  readonly hi: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const WEEK_MS = 7 * DAY_MS;

/** The longest a calendar bucket can be on the wall clock. */
const LONGEST_MS: Record<CalendarUnit, number> = {
  minute: MINUTE_MS,
  hour: HOUR_MS,
  day: DAY_MS,
  week: WEEK_MS,
  month: 31 * DAY_MS,
  quarter: 92 * DAY_MS,
  year: 366 * DAY_MS,
};

/**
 * Transitions are read from the zone rules between these years only (outside, the nearest known offset is
 * assumed): the rules are looked up in JavaScript month by month, and data centuries apart would make that slow.
 */
const RULES_FROM = Date.UTC(1900, 0, 1);
const RULES_TO = Date.UTC(2100, 0, 1);

/** Wall-clock bucket lookups per transition are bounded; a fixed interval finer than this needs at most two. */
const MAX_BOUNDARIES_PER_WINDOW = 5000;

/** Non-negative remainder, for floor division on BIGINT (DuckDB's % keeps the dividend's sign). */
function modSql(value: string, divisor: number): string {
  return `(((${value}) % ${divisor} + ${divisor}) % ${divisor})`;
}

/** The bucket key of instant `v` (BIGINT ms) for a zone at constant offset `offset` (SQL or literal). */
function constantOffsetKeySql(v: string, interval: BucketInterval, offset: string): string {
  const local = offset === '0' ? v : `(${v} + ${offset})`;
  if ('fixedMs' in interval) return `(${v} - ${modSql(local, interval.fixedMs)})`;
  switch (interval.calendar) {
    case 'minute':
    case 'hour':
    case 'day':
      return `(${v} - ${modSql(local, LONGEST_MS[interval.calendar])})`;
    case 'week':
      // 1970-01-01 was a Thursday: three days later in the cycle is a Monday.
      return `(${v} - ${modSql(`${local} + ${3 * DAY_MS}`, WEEK_MS)})`;
    case 'month':
    case 'quarter':
    case 'year': {
      const start = `epoch_ms(date_trunc('${interval.calendar}', make_timestamp(${local} * 1000)))`;
      return offset === '0' ? start : `(${start} - ${offset})`;
    }
  }
}

/**
 * How long after a transition a row may still round differently from constant-offset arithmetic: a bucket for
 * fixed intervals and minutes/hours (their wall-clock start must not precede the transition); for calendar days
 * and longer also the wall-clock jump, as a local midnight repeated by an overlap takes the earlier offset.
 */
function fixupWindowMs(interval: BucketInterval, transition: ZoneTransition): number {
  if ('fixedMs' in interval) return interval.fixedMs;
  const longest = LONGEST_MS[interval.calendar];
  if (interval.calendar === 'minute' || interval.calendar === 'hour') return longest;
  return longest + Math.max(0, transition.before - transition.after) + DAY_MS;
}

/** The zone's transitions in (afterMs, atOrBeforeMs], oldest first. */
function transitionsBetween(afterMs: number, atOrBeforeMs: number, timeZone: string): ZoneTransition[] {
  const from = Math.max(afterMs, RULES_FROM);
  let to = Math.min(atOrBeforeMs, RULES_TO);
  const found: ZoneTransition[] = [];
  while (to > from) {
    const transition = previousTransition(to, from, timeZone);
    if (transition === undefined) break;
    found.push(transition);
    to = transition.at - 1;
  }
  return found.reverse();
}

interface Window {
  start: number;
  end: number;
}

function mergedWindows(transitions: readonly ZoneTransition[], interval: BucketInterval): Window[] {
  const windows: Window[] = [];
  for (const transition of transitions) {
    const window = { start: transition.at, end: transition.at + fixupWindowMs(interval, transition) };
    const last = windows[windows.length - 1];
    if (last !== undefined && window.start <= last.end) last.end = Math.max(last.end, window.end);
    else windows.push(window);
  }
  return windows;
}

/** Bucket starts (ascending) covering [start, end), from the JavaScript rounding. */
function boundariesOf(window: Window, interval: BucketInterval, timeZone: string): number[] {
  let current = bucketStart(window.start, interval, timeZone);
  const boundaries = [current];
  while (boundaries.length < MAX_BOUNDARIES_PER_WINDOW) {
    const next = nextBucket(current, interval, timeZone);
    if (next <= current || next >= window.end) break;
    boundaries.push(next);
    current = next;
  }
  return boundaries;
}

function lookupSql(v: string, boundaries: readonly number[]): string {
  if (boundaries.length === 1) return String(boundaries[0]);
  const branches: string[] = [];
  for (let i = boundaries.length - 1; i >= 1; i--) branches.push(`WHEN ${v} >= ${boundaries[i]} THEN ${boundaries[i]}`);
  return `(CASE ${branches.join(' ')} ELSE ${boundaries[0]} END)`;
}

function keyInZoneSql(v: string, interval: BucketInterval, timeZone: string, span: InstantSpan | undefined): string {
  if (isFixedZone(timeZone) || span === undefined) return constantOffsetKeySql(v, interval, String(offsetMs(span?.lo ?? 0, timeZone)));
  // Rows just after a transition before the span still need it (their bucket may start before the span).
  const reach = 'fixedMs' in interval ? interval.fixedMs : LONGEST_MS[interval.calendar] + 2 * DAY_MS;
  const transitions = transitionsBetween(span.lo - reach, span.hi, timeZone);
  const first = transitions[0];
  if (first === undefined) return constantOffsetKeySql(v, interval, String(offsetMs(span.lo, timeZone)));
  const periods = transitions
    .slice()
    .reverse()
    .map((transition) => `WHEN ${v} >= ${transition.at} THEN ${transition.after}`);
  const offset = `(CASE ${periods.join(' ')} ELSE ${first.before} END)`;
  const fixups = mergedWindows(transitions, interval).map(
    (window) => `WHEN ${v} >= ${window.start} AND ${v} < ${window.end} THEN ${lookupSql(v, boundariesOf(window, interval, timeZone))}`,
  );
  return `(CASE ${fixups.join(' ')} ELSE ${constantOffsetKeySql(v, interval, offset)} END)`;
}

/**
 * SQL for the bucket key (BIGINT epoch ms) of the BIGINT epoch-ms expression `ms`. `span` bounds the instants
 * the rows hold; without it (or for UTC and fixed offsets) the zone's offset is taken as constant.
 */
export function dateBucketKeySql(ms: string, rounding: DateRounding, span?: InstantSpan): string {
  const shift = rounding.offsetMs;
  const v = shift === 0 ? `(${ms})` : `((${ms}) - ${shift})`;
  const shiftedSpan = span && { lo: span.lo - shift, hi: span.hi - shift };
  const key = keyInZoneSql(v, rounding.interval, rounding.timeZone, shiftedSpan);
  return shift === 0 ? key : `(${key} + ${shift})`;
}
