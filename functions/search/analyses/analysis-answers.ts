import type { FunnelAnswer, RetentionAnswer } from '../../../schemas/event-analyses';
import type { FunnelQuery, RetentionQuery } from './analysis-queries';
import type { RetentionPeriods } from './retention-periods';

/** What a backend counted for a funnel: per step, the actors that reached it and the median time into it. */
export interface FunnelCounts {
  /** reached[k]: actors that reached step k. */
  readonly reached: readonly number[];
  /** medianIntoMs[k]: median time from step k - 1 to step k over those actors (index 0 unused; null when none). */
  readonly medianIntoMs: readonly (number | null)[];
  readonly exact: boolean;
}

export function funnelAnswer(query: FunnelQuery, counts: FunnelCounts): FunnelAnswer {
  const first = counts.reached[0] ?? 0;
  const ratio = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
  return {
    by: query.by,
    conversion_window_ms: query.windowMs,
    steps: query.steps.map((step, k) => {
      const entered = counts.reached[k] ?? 0;
      const last = k === query.steps.length - 1;
      const converted = last ? null : (counts.reached[k + 1] ?? 0);
      return {
        name: step.name,
        entered,
        converted,
        conversion_rate: converted === null ? null : ratio(converted, entered),
        overall_conversion_rate: ratio(entered, first),
        median_time_to_convert_ms: last ? null : (counts.medianIntoMs[k + 1] ?? null),
      };
    }),
    exact: counts.exact,
  };
}

/** What a backend counted for a retention table: cohort sizes by period index, and returns by cohort and offset (1…periods). */
export interface RetentionCounts {
  readonly sizes: ReadonlyMap<number, number>;
  readonly returned: ReadonlyMap<number, ReadonlyMap<number, number>>;
  readonly exact: boolean;
}

/** A row per period that starts before the window's end (empty cohorts included, so the table has no holes). */
export function retentionAnswer(query: RetentionQuery, periods: RetentionPeriods, counts: RetentionCounts): RetentionAnswer {
  const cohorts: RetentionAnswer['cohorts'] = [];
  for (let cohort = 0; cohort < periods.starts.length && periods.starts[cohort]! < periods.to; cohort += 1) {
    const size = counts.sizes.get(cohort) ?? 0;
    const returned: (number | null)[] = [];
    for (let offset = 1; offset <= query.periods; offset += 1) {
      const start = periods.starts[cohort + offset];
      returned.push(start === undefined || start >= periods.to ? null : (counts.returned.get(cohort)?.get(offset) ?? 0));
    }
    cohorts.push({
      start: new Date(periods.starts[cohort]!).toISOString(),
      size,
      returned,
      rates: returned.map((count) => (count === null ? null : size === 0 ? 0 : count / size)),
    });
  }
  return { by: query.by, interval: query.interval, periods: query.periods, cohorts, exact: counts.exact };
}

/** The median of numbers (the mean of the middle two for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
