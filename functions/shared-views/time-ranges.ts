import type { SharedTimeRange } from '../../schemas/resources/shared-view';
import { parseRequestRange } from '../search/dates/request-range';
import { UnauthorizedError, ValidationError } from '../shared/errors';

/** Each range is one the search API reads, now and later: checked as a viewer's request will be (400 naming `time_ranges[i]`). */
export function checkedTimeRanges(ranges: readonly SharedTimeRange[], timeZone: string, at: Date): void {
  ranges.forEach((range, i) => {
    try {
      parseRequestRange({ from: range.from, to: range.to, time_zone: timeZone }, at);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const field = `time_ranges[${i}].${error.details[0]?.field === 'to' ? 'to' : 'from'}`;
      throw new ValidationError(`Invalid ${field}: ${error.details[0]?.reason ?? error.message}`, [
        { field, reason: error.details[0]?.reason ?? error.message },
      ]);
    }
  });
}

/** The `range` query parameter: an index into the allowed ranges (default the first); any other is refused as not allowed. */
export function allowedRange(ranges: readonly SharedTimeRange[], given: string | undefined, holder: string): SharedTimeRange {
  const index = given === undefined ? 0 : /^\d{1,2}$/.test(given) ? Number(given) : -1;
  const range = ranges[index];
  if (!range)
    throw new UnauthorizedError(
      `The ${holder} allows ${ranges.length} time range${ranges.length === 1 ? '' : 's'} (range 0 to ${ranges.length - 1}), not ${JSON.stringify(given)}`,
      [{ field: 'range', reason: 'not a time range this token allows' }],
    );
  return range;
}

/** A workspace's own range: its chart's `from`/`to`, else the last 24 hours. */
export function ownRange(chart: { from?: unknown; to?: unknown } | undefined): SharedTimeRange {
  return { from: typeof chart?.from === 'string' ? chart.from : '-24h', to: typeof chart?.to === 'string' ? chart.to : 'now' };
}
