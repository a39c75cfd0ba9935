import type { FunnelAnswer, RetentionAnswer } from '../../../schemas/event-analyses';
import type { FunnelQuery, RetentionQuery } from '../analyses/analysis-queries';
import { funnelAnswer, retentionAnswer } from '../analyses/analysis-answers';
import { actorFunnel, FunnelTally, type ActorEvent } from '../analyses/actor-journeys';
import type { RetentionPeriods } from '../analyses/retention-periods';
import type { QueryNode } from '../../../schemas/search-tree';
import type { SearchContext } from '../port';
import { FUNNEL_SCRIPTS, RETENTION_SCRIPTS } from './journey-scripts';
import { toOpenSearchQuery } from './query-body';
import { searchAnswer, type OpenSearchTarget } from './opensearch-search';
import { ActorRangeCutter, PASSES_AT_ONCE, withinActorRange, type ActorRange } from './analysis-passes';
import { valuesInOrder } from './values-in-order';
import type { QueryClause, SearchAfter, SearchBody, SortClause } from './request-types';
import { DOC_ID_FIELD, TIME_FIELD } from './stored-source';
import { mapWithConcurrency } from '../../shared/concurrency';

/**
 * Funnels and retention on OpenSearch, exact, in one scripted_metric aggregation over the window
 * (journey-scripts.ts): the shards collect each actor's events of the analysis in one pass, the
 * coordinating node orders each actor's events and applies the rules of analyses/actor-journeys.ts,
 * and only the counts come back. docs/design.md records the designs measured before this one.
 *
 * Ties are the exception: the script reads no ids, so an actor with two events in one millisecond
 * (ordered by id) is left to followByIds, which reads those actors' events with ids and applies
 * actor-journeys.ts in the Lambda.
 *
 * A window is read in passes over contiguous ranges of actors (analysis-passes.ts), PASSES_AT_ONCE
 * at a time, after a listing of its actors says how many events each range holds.
 */

type Script = { source: string; lang: 'painless' };
const painless = (source: string): Script => ({ source, lang: 'painless' });

/**
 * The window's events having an actor and matching at least one of the queries, each scored with
 * the bitmask of those it matches (query k adds 2^k).
 */
export function maskedEvents(
  target: Pick<OpenSearchTarget, 'wrap'>,
  context: SearchContext,
  by: FunnelQuery['by'],
  queries: readonly QueryNode[],
): QueryClause {
  return {
    bool: {
      filter: [...target.wrap(context.scope, context), { exists: { field: by } }],
      should: queries.map((query, k) => ({ constant_score: { filter: toOpenSearchQuery(query, context), boost: 2 ** k } })),
      minimum_should_match: 1,
    },
  };
}

/** One pass: the scripted_metric over the masked events of the range's actors. */
export function journeyBody(
  query: QueryClause,
  scripts: typeof FUNNEL_SCRIPTS | typeof RETENTION_SCRIPTS,
  params: Record<string, unknown> & { actor: string },
  range: ActorRange,
): SearchBody {
  return {
    size: 0,
    track_total_hits: false,
    query: withinActorRange(query, params.actor, range),
    aggs: {
      journeys: {
        scripted_metric: {
          init_script: painless(scripts.init_script),
          map_script: painless(scripts.map_script),
          combine_script: painless(scripts.combine_script),
          reduce_script: painless(scripts.reduce_script),
          params,
        },
      },
    },
  };
}

/** How an analysis reads its window: the events a pass holds, and the actors a page of their listing covers. */
export interface PassSizes {
  readonly eventsPerPass?: number;
  readonly actorsPerPage?: number;
}

/** Each pass's reduced value: the window's actors listed, cut into ranges, and the ranges read PASSES_AT_ONCE at a time. */
async function eachPass(
  target: OpenSearchTarget,
  context: SearchContext,
  query: QueryClause,
  by: FunnelQuery['by'],
  body: (range: ActorRange) => SearchBody,
  sizes: PassSizes,
): Promise<unknown[]> {
  const cutter = new ActorRangeCutter(sizes.eventsPerPass);
  for await (const page of valuesInOrder(target, context, query, by, sizes.actorsPerPage)) for (const actor of page) cutter.add(actor);
  return mapWithConcurrency(cutter.ranges(), PASSES_AT_ONCE, async (range) => {
    const answer = await searchAnswer(target, context, body(range));
    return (answer.aggregations as { journeys?: { value?: unknown } } | undefined)?.journeys?.value;
  });
}

interface FunnelPass {
  readonly reached: readonly number[];
  readonly gaps: readonly (readonly number[])[];
  readonly ambiguous: readonly string[];
}

export async function funnelOnOpenSearch(
  target: OpenSearchTarget,
  context: SearchContext,
  query: FunnelQuery,
  passSizes: PassSizes = {},
): Promise<FunnelAnswer> {
  const events = maskedEvents(
    target,
    context,
    query.by,
    query.steps.map((step) => step.query),
  );
  const params = { actor: query.by, steps: query.steps.length, window: query.windowMs };
  const passes = (await eachPass(target, context, events, query.by, (range) => journeyBody(events, FUNNEL_SCRIPTS, params, range), passSizes)) as (
    | FunnelPass
    | undefined
  )[];
  const tally = new FunnelTally(query.steps.length);
  for (const pass of passes)
    if (pass)
      tally.addCounted(
        pass.reached.map(Number),
        pass.gaps.map((gaps) => gaps.map(Number)),
      );
  const ambiguous = passes.flatMap((pass) => pass?.ambiguous ?? []);
  for (let at = 0; at < ambiguous.length; at += FOLLOWED_ACTORS_PER_REQUEST) {
    for (const steps of await followByIds(target, context, events, query, ambiguous.slice(at, at + FOLLOWED_ACTORS_PER_REQUEST))) {
      tally.add(actorFunnel(steps, query.windowMs));
    }
  }
  return funnelAnswer(query, tally.counts());
}

/** Actors a follow-up names in one terms filter (OpenSearch's default cap on terms is 65,536). */
const FOLLOWED_ACTORS_PER_REQUEST = 10_000;
const FOLLOW_PAGE = 10_000;
const BY_TIME_THEN_ID: SortClause[] = [{ [TIME_FIELD]: { order: 'asc' } }, { [DOC_ID_FIELD]: { order: 'asc' } }];

/** The step events of the given actors in (time, id) order, per actor and step, as actor-journeys.ts reads them. */
async function followByIds(
  target: OpenSearchTarget,
  context: SearchContext,
  events: QueryClause,
  query: FunnelQuery,
  actors: readonly string[],
): Promise<ActorEvent[][][]> {
  const journeys = new Map<string, ActorEvent[][]>();
  let after: SearchAfter | undefined;
  for (;;) {
    const body: SearchBody = {
      size: FOLLOW_PAGE,
      track_total_hits: false,
      // The score is the mask of the steps an event matches (maskedEvents); a terms filter scores nothing.
      track_scores: true,
      _source: false,
      docvalue_fields: [query.by],
      query: { bool: { must: [events], filter: [{ terms: { [query.by]: [...actors] } }] } },
      sort: BY_TIME_THEN_ID,
      ...(after ? { search_after: after } : {}),
    };
    const answer = await searchAnswer(target, context, body);
    const hits = (answer.hits?.hits ?? []) as unknown as { _score: number; sort: [number, string]; fields?: Record<string, string[]> }[];
    for (const hit of hits) {
      const actor = hit.fields?.[query.by]?.[0];
      if (actor === undefined) continue;
      const steps = journeys.get(actor) ?? query.steps.map(() => []);
      journeys.set(actor, steps);
      const mask = Math.round(hit._score);
      const event = { time: Number(hit.sort[0]), id: String(hit.sort[1]) };
      steps.forEach((events, k) => {
        if ((mask & (2 ** k)) !== 0) events.push(event);
      });
    }
    if (hits.length < FOLLOW_PAGE) return [...journeys.values()];
    after = hits[hits.length - 1]!.sort;
  }
}

export async function retentionOnOpenSearch(
  target: OpenSearchTarget,
  context: SearchContext,
  query: RetentionQuery,
  periods: RetentionPeriods,
  passSizes: PassSizes = {},
): Promise<RetentionAnswer> {
  const events = maskedEvents(target, context, query.by, [query.first, query.returning]);
  const params = { actor: query.by, starts: periods.starts, periods: query.periods };
  const passes = (await eachPass(target, context, events, query.by, (range) => journeyBody(events, RETENTION_SCRIPTS, params, range), passSizes)) as (
    | Record<string, number>
    | undefined
  )[];
  const sizes = new Map<number, number>();
  const returned = new Map<number, Map<number, number>>();
  for (const pass of passes) {
    for (const [key, actors] of Object.entries(pass ?? {})) {
      const [cohort, offset] = key.split(':').map(Number) as [number, number];
      if (offset === 0) sizes.set(cohort, (sizes.get(cohort) ?? 0) + actors);
      else {
        const row = returned.get(cohort) ?? new Map<number, number>();
        row.set(offset, (row.get(offset) ?? 0) + actors);
        returned.set(cohort, row);
      }
    }
  }
  return retentionAnswer(query, periods, { sizes, returned, exact: true });
}
