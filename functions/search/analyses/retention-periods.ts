import { ValidationError } from '../../shared/errors';
import { bucketStart, nextBucket } from '../dates/intervals';
import type { RetentionInterval } from './analysis-queries';

/**
 * The calendar periods of a retention table in the request's time zone, with date_histogram's
 * rounding (weeks start on Monday, DST handled as OpenSearch does). `starts[i]` is period i's first
 * instant; period 0 holds `from`; the list runs one past the last period that starts before `to`,
 * so every event of the window falls in [starts[i], starts[i + 1]).
 */
export interface RetentionPeriods {
  readonly starts: readonly number[];
  readonly to: number;
}

/** Periods a window may span: a day grid over a decade is 3,653; more would be a mistake. */
export const MAX_WINDOW_PERIODS = 4000;

export function retentionPeriods(from: number, to: number, interval: RetentionInterval, timeZone: string): RetentionPeriods {
  const unit = { calendar: interval } as const;
  const starts = [bucketStart(from, unit, timeZone)];
  while (starts[starts.length - 1]! < to) {
    if (starts.length > MAX_WINDOW_PERIODS) throw new RangeError(`the window spans more than ${MAX_WINDOW_PERIODS} ${interval}s`);
    starts.push(nextBucket(starts[starts.length - 1]!, unit, timeZone));
  }
  return { starts, to };
}

/** The periods of a retention request's window: `from` is required (400 naming it), `to` defaults to the request's now. */
export function windowPeriods(range: { from?: Date; to?: Date } | undefined, now: Date, interval: RetentionInterval, timeZone: string): RetentionPeriods {
  if (range?.from === undefined)
    throw new ValidationError('A retention table needs a window start', [{ field: 'from', reason: "required for retention (the first cohort's period)" }]);
  const to = (range.to ?? now).getTime();
  try {
    return retentionPeriods(range.from.getTime(), to, interval, timeZone);
  } catch (error) {
    if (error instanceof RangeError) throw new ValidationError(`The window is too long for ${interval} periods`, [{ field: 'from', reason: error.message }]);
    throw error;
  }
}
