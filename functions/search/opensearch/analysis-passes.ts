import type { CountedValue } from './values-in-order';
import type { QueryClause } from './request-types';

/**
 * Which actors each pass of a funnel or retention table on OpenSearch reads (event-analyses.ts).
 * A pass holds its actors' events in the scripts' state, so a big window is read in several, over
 * contiguous ranges of actors in the field's order: a range query skips the other passes' events
 * before they are scored or scripted, so every pass costs its own share of the window. (Passes
 * over a hash of the actor read every event of the window each: at 5 M events, four passes two at
 * a time took 3.2–3.5 s, four ranges 1.5–1.6 s.) The ranges are cut from a listing of the window's
 * actors with their events' counts, so each range's events are known, within a cut step, before it is read.
 */

/** The events the passes in flight hold on the cluster together (about 150 bytes each in the funnel's state). */
const EVENTS_AT_ONCE = 1_000_000;
/** Passes searched at once: each search's scripts run on one core, so two keep both cores of the smallest domain (t3.small.search) busy. */
export const PASSES_AT_ONCE = 2;
/** The events one pass holds. */
export const EVENTS_PER_PASS = EVENTS_AT_ONCE / PASSES_AT_ONCE;
/** A window of fewer events is one pass: a second search would save less than it costs. */
export const SPLIT_FROM_EVENTS = 100_000;
/**
 * The actors one pass holds: Painless stops a function call after 1,000,000 loop iterations, and a
 * script's body loops twice over its shard's actors (journey-scripts.ts).
 */
export const ACTORS_PER_PASS = 200_000;

/** A pass's actors: those after `after` up to and including `upTo`, in the field's (UTF-8 byte) order; unbounded where absent. */
export interface ActorRange {
  readonly after?: string;
  readonly upTo?: string;
}

/**
 * How many passes a window of `events` events and `actors` actors is read in: enough that none
 * holds more than `eventsPerPass` events or ACTORS_PER_PASS actors, and, for a window worth
 * splitting, a multiple of PASSES_AT_ONCE, so every round of passes in flight keeps the cores busy.
 */
export function passesFor(events: number, actors: number, eventsPerPass = EVENTS_PER_PASS): number {
  const needed = Math.max(1, Math.ceil(events / eventsPerPass), Math.ceil(actors / ACTORS_PER_PASS));
  return events < SPLIT_FROM_EVENTS ? needed : Math.ceil(needed / PASSES_AT_ONCE) * PASSES_AT_ONCE;
}

/** Cut points a pass's worth of events is divided into: the ranges are cut at these, so a range meets its share within 1/64 of a pass. */
const CUT_POINTS_A_PASS = 64;

/**
 * The window's actors, added as their listing streams in (ascending, each with its events' count),
 * cut into contiguous ranges of about equal events, none over ACTORS_PER_PASS actors. Together the
 * ranges cover every actor, those the listing did not see included (the first range has no lower
 * bound, the last no upper), and no actor is in two. Only a cut point every 1/64 of a pass's events
 * is kept, not every actor, so a window of millions of actors costs the Lambda little memory. One
 * actor's events are never split, so a range may pass its share by that actor's and a cut step.
 */
export class ActorRangeCutter {
  private readonly cutStep: number;
  private readonly points: { readonly upTo: string; readonly events: number; readonly actors: number }[] = [];
  private events = 0;
  private actors = 0;

  constructor(private readonly eventsPerPass = EVENTS_PER_PASS) {
    this.cutStep = Math.max(1, Math.floor(eventsPerPass / CUT_POINTS_A_PASS));
  }

  add(actor: CountedValue): void {
    this.events += actor.count;
    this.actors += 1;
    const last = this.points[this.points.length - 1];
    if (this.events - (last?.events ?? 0) >= this.cutStep) this.points.push({ upTo: actor.value, events: this.events, actors: this.actors });
  }

  ranges(): ActorRange[] {
    const passes = passesFor(this.events, this.actors, this.eventsPerPass);
    if (passes === 1) return [{}];
    const share = Math.ceil(this.events / passes);
    const ranges: ActorRange[] = [];
    let after: string | undefined;
    let cutEvents = 0;
    let cutActors = 0;
    for (const point of this.points) {
      // A cut after the last actor would leave the last range empty.
      if (point.actors === this.actors) break;
      if (point.events - cutEvents >= share || point.actors - cutActors >= ACTORS_PER_PASS) {
        ranges.push({ ...(after === undefined ? {} : { after }), upTo: point.upTo });
        after = point.upTo;
        cutEvents = point.events;
        cutActors = point.actors;
      }
    }
    ranges.push(after === undefined ? {} : { after });
    return ranges;
  }
}

/** The events of the range's actors among those of `query`, their scores (the steps' mask) kept. */
export function withinActorRange(query: QueryClause, by: string, range: ActorRange): QueryClause {
  if (range.after === undefined && range.upTo === undefined) return query;
  const bounds = { ...(range.after === undefined ? {} : { gt: range.after }), ...(range.upTo === undefined ? {} : { lte: range.upTo }) };
  return { bool: { must: [query], filter: [{ range: { [by]: bounds } }] } };
}
