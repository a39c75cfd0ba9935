import { median, type FunnelCounts, type RetentionCounts } from './analysis-answers';
import { periodIndex, type RetentionPeriods } from './retention-periods';

/**
 * Funnels and retention computed from each actor's events, for a backend that hands them over per
 * actor (OpenSearch's composite pages). The DuckDB backend computes the same in SQL.
 *
 * Funnel rule: an actor enters at its first step-1 event of the window; each later step is its
 * first event of that step strictly after the previous step's event (events ordered by time, then
 * id), at most `windowMs` after entering.
 */

/** An event of an actor, as ordered: by time, then by id. */
export interface ActorEvent {
  readonly time: number;
  readonly id: string;
}

const after = (event: ActorEvent, previous: ActorEvent) => event.time > previous.time || (event.time === previous.time && event.id > previous.id);

/** The events at which an actor reached each step, in order (as many as it reached). `steps[k]` is sorted by (time, id). */
export function actorFunnel(steps: readonly (readonly ActorEvent[])[], windowMs: number): ActorEvent[] {
  const entry = steps[0]?.[0];
  if (entry === undefined) return [];
  const reached = [entry];
  for (let k = 1; k < steps.length; k += 1) {
    const previous = reached[k - 1]!;
    const next = steps[k]!.find((event) => after(event, previous));
    if (next === undefined || next.time - entry.time > windowMs) break;
    reached.push(next);
  }
  return reached;
}

/** Funnel counts from each actor's reached steps. */
export class FunnelTally {
  private readonly reached: number[];
  private readonly gaps: number[][];
  private exact = true;

  constructor(steps: number) {
    this.reached = new Array<number>(steps).fill(0);
    this.gaps = Array.from({ length: steps }, () => []);
  }

  add(path: readonly ActorEvent[]): void {
    for (let k = 0; k < path.length; k += 1) {
      this.reached[k]! += 1;
      if (k > 0) this.gaps[k]!.push(path[k]!.time - path[k - 1]!.time);
    }
  }

  /** Some actor's events were cut short (a backend cap): the counts may be low. */
  markInexact(): void {
    this.exact = false;
  }

  counts(): FunnelCounts {
    return { reached: [...this.reached], medianIntoMs: this.gaps.map((gaps, k) => (k === 0 ? null : median(gaps))), exact: this.exact };
  }
}

/** Retention counts from each actor's first qualifying event and the times it came back. */
export class RetentionTally {
  private readonly sizes = new Map<number, number>();
  private readonly returned = new Map<number, Map<number, number>>();
  private exact = true;

  constructor(
    private readonly periods: RetentionPeriods,
    private readonly followed: number,
  ) {}

  /** `firstTime`: the actor's first first_event; `returnTimes`: a time in each period it returned (any order, repeats allowed). */
  add(firstTime: number, returnTimes: Iterable<number>): void {
    const cohort = periodIndex(this.periods, firstTime);
    if (cohort < 0) return;
    this.sizes.set(cohort, (this.sizes.get(cohort) ?? 0) + 1);
    const offsets = new Set<number>();
    for (const time of returnTimes) {
      const offset = periodIndex(this.periods, time) - cohort;
      if (offset >= 1 && offset <= this.followed) offsets.add(offset);
    }
    if (offsets.size === 0) return;
    const row = this.returned.get(cohort) ?? new Map<number, number>();
    for (const offset of offsets) row.set(offset, (row.get(offset) ?? 0) + 1);
    this.returned.set(cohort, row);
  }

  markInexact(): void {
    this.exact = false;
  }

  counts(): RetentionCounts {
    return { sizes: this.sizes, returned: this.returned, exact: this.exact };
  }
}
