import { bucketStart, nextBucket, type BucketInterval, type CalendarUnit } from '../../../dates/intervals';
import { DAY_MS, HOUR_MS, isFixedZone, offsetMs, previousTransition, type ZoneTransition } from '../../../dates/time-zone';

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

/** What the key of an instant in the span depends on: one offset, or the transitions and the lookups after each. */
type ZonePeriods =
  | { readonly offset: number }
  | { readonly transitions: readonly [ZoneTransition, ...ZoneTransition[]]; readonly fixups: readonly { window: Window; boundaries: number[] }[] };

function zonePeriods(interval: BucketInterval, timeZone: string, span: InstantSpan | undefined): ZonePeriods {
  if (isFixedZone(timeZone) || span === undefined) return { offset: offsetMs(span?.lo ?? 0, timeZone) };
  // Rows just after a transition before the span still need it (their bucket may start before the span).
  const reach = 'fixedMs' in interval ? interval.fixedMs : LONGEST_MS[interval.calendar] + 2 * DAY_MS;
  const [first, ...later] = transitionsBetween(span.lo - reach, span.hi, timeZone);
  if (first === undefined) return { offset: offsetMs(span.lo, timeZone) };
  const transitions: [ZoneTransition, ...ZoneTransition[]] = [first, ...later];
  const fixups = mergedWindows(transitions, interval).map((window) => ({ window, boundaries: boundariesOf(window, interval, timeZone) }));
  return { transitions, fixups };
}

function keyInZoneSql(v: string, interval: BucketInterval, timeZone: string, span: InstantSpan | undefined): string {
  const periods = zonePeriods(interval, timeZone, span);
  if ('offset' in periods) return constantOffsetKeySql(v, interval, String(periods.offset));
  const { transitions, fixups } = periods;
  const offsets = transitions
    .slice()
    .reverse()
    .map((transition) => `WHEN ${v} >= ${transition.at} THEN ${transition.after}`);
  const offset = `(CASE ${offsets.join(' ')} ELSE ${transitions[0].before} END)`;
  const lookups = fixups.map(({ window, boundaries }) => `WHEN ${v} >= ${window.start} AND ${v} < ${window.end} THEN ${lookupSql(v, boundaries)}`);
  return `(CASE ${lookups.join(' ')} ELSE ${constantOffsetKeySql(v, interval, offset)} END)`;
}

/** Step lengths keyStepMs chooses from, longest first; each divides the ones before it. */
const STEP_CANDIDATES_MS = [HOUR_MS, 30 * MINUTE_MS, 15 * MINUTE_MS, MINUTE_MS, 1000, 1];

/**
 * The longest step s (1 h, 30, 15 or 1 min, 1 s or 1 ms) such that the instants of the span in each [n·s, (n+1)·s)
 * share one bucket key: every place the key can change falls on a multiple of s (the wall-clock bucket length
 * under each offset the zone takes, the transitions, the bucket starts looked up after them, and the `offset`).
 * Counting rows per step and keying the steps is then exact, and cheaper than keying every row (queries.ts).
 */
export function keyStepMs(rounding: DateRounding, span?: InstantSpan): number {
  const shift = rounding.offsetMs;
  const interval = rounding.interval;
  const length = 'fixedMs' in interval ? interval.fixedMs : interval.calendar === 'minute' ? MINUTE_MS : interval.calendar === 'hour' ? HOUR_MS : DAY_MS;
  const periods = zonePeriods(interval, rounding.timeZone, span && { lo: span.lo - shift, hi: span.hi - shift });
  const changes =
    'offset' in periods
      ? [periods.offset]
      : [
          ...periods.transitions.flatMap((transition) => [transition.at, transition.before, transition.after]),
          ...periods.fixups.flatMap(({ boundaries }) => boundaries),
        ];
  const places = [length, shift, ...changes];
  return STEP_CANDIDATES_MS.find((step) => places.every((place) => place % step === 0)) ?? 1;
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
