import { median, type FunnelCounts } from './analysis-answers';

/**
 * The funnel computed from each actor's events: the rule both backends implement (DuckDB in SQL,
 * OpenSearch in its script, journey-scripts.ts), and what OpenSearch applies in the Lambda to the
 * actors whose order the script cannot tell without their ids.
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

  /** Counts a backend made itself (OpenSearch's script): reached[k] actors, and each one's time into step k in gaps[k]. */
  addCounted(reached: readonly number[], gaps: readonly (readonly number[])[]): void {
    reached.forEach((count, k) => {
      this.reached[k]! += count;
    });
    gaps.forEach((times, k) => {
      if (k > 0) this.gaps[k]!.push(...times);
    });
  }

  counts(): FunnelCounts {
    return { reached: [...this.reached], medianIntoMs: this.gaps.map((gaps, k) => (k === 0 ? null : median(gaps))), exact: true };
  }
}
