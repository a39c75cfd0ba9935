import { abortable } from '../abortable';
import type { FunnelAnswer, RetentionAnswer } from '../../../schemas/event-analyses';
import type { FunnelQuery, RetentionQuery } from '../analyses/analysis-queries';
import { funnelAnswer, retentionAnswer } from '../analyses/analysis-answers';
import { actorFunnel, FunnelTally, RetentionTally, type ActorEvent } from '../analyses/actor-journeys';
import type { RetentionPeriods } from '../analyses/retention-periods';
import type { SearchContext } from '../port';
import { readTarget } from './naming';
import { toOpenSearchQuery } from './query-body';
import { DOC_ID_FIELD, TIME_FIELD } from './stored-source';
import type { OpenSearchTarget } from './opensearch-search';
import type { Aggregations, QueryClause, SearchBody, SortClause } from './request-types';
import { searchRequest } from './search-request';

/**
 * Funnels and retention on OpenSearch: a composite aggregation pages through the actors of the
 * window (ANALYSIS_PAGE_ACTORS a request); per actor, each step's first events (top_hits sorted by
 * time, then id) or its first first_event and the calendar periods it returned in (a
 * date_histogram in the request's zone, the rounding retention-periods.ts reproduces). The Lambda
 * then applies the rules of analyses/actor-journeys.ts, as DuckDB does in SQL.
 *
 * Caps (documented in docs/management-api.md, Funnels and retention): at most MAX_ANALYSIS_ACTORS actors are followed, and a funnel
 * sees each actor's first EVENTS_PER_STEP events of each step; past either the answer says
 * `exact: false`.
 */

export const ANALYSIS_PAGE_ACTORS = 500;
export const MAX_ANALYSIS_ACTORS = 200_000;
export const EVENTS_PER_STEP = 100;

type Json = Record<string, unknown>;
/** Where the next composite page starts: the last actor's key. */
type AfterKey = Record<string, string>;

interface CompositePage {
  readonly buckets: readonly (Json & { key: { actor: string } })[];
  readonly after_key?: AfterKey;
}

/** The actor field as mapped: `*_id` strings are keywords (templates.ts). */
const actorField = (by: FunnelQuery['by']) => by;

/** The body of one composite page: the tenant-wrapped window, only events having an actor, the per-actor sub-aggregations. */
export function analysisPageBody(
  target: Pick<OpenSearchTarget, 'wrap'>,
  context: SearchContext,
  by: FunnelQuery['by'],
  match: QueryClause,
  perActor: Aggregations,
  after?: AfterKey,
): SearchBody {
  return {
    size: 0,
    track_total_hits: false,
    query: { bool: { filter: [...target.wrap(context.scope, context), { exists: { field: actorField(by) } }, match] } },
    aggs: {
      actors: {
        composite: { size: ANALYSIS_PAGE_ACTORS, sources: [{ actor: { terms: { field: actorField(by) } } }], ...(after ? { after } : {}) },
        aggs: perActor,
      },
    },
  };
}

/** Events in time order, ties by id: the order the DuckDB backend reads a journey in. */
const FIRST_EVENTS_FIRST: SortClause[] = [{ [TIME_FIELD]: { order: 'asc' } }, { [DOC_ID_FIELD]: { order: 'asc' } }];

/** Per step: the actor's first EVENTS_PER_STEP events of the step, as (time, id). */
export function funnelPerActor(query: FunnelQuery, context: SearchContext): Aggregations {
  return Object.fromEntries(
    query.steps.map((step, k) => [
      `step_${k}`,
      {
        filter: toOpenSearchQuery(step.query, context),
        aggs: { first: { top_hits: { size: EVENTS_PER_STEP, _source: false, sort: FIRST_EVENTS_FIRST } } },
      },
    ]),
  );
}

export function retentionPerActor(query: RetentionQuery, context: SearchContext): Aggregations {
  return {
    first: { filter: toOpenSearchQuery(query.first, context), aggs: { at: { min: { field: TIME_FIELD } } } },
    returns: {
      filter: toOpenSearchQuery(query.returning, context),
      aggs: { periods: { date_histogram: { field: TIME_FIELD, calendar_interval: query.interval, time_zone: context.timeZone, min_doc_count: 1 } } },
    },
  };
}

interface TopHits {
  hits: { total?: { value?: number } | number; hits: { sort?: unknown[] }[] };
}

/** An actor's step events from its bucket, and whether some were left out. */
export function stepEvents(bucket: Json, steps: number): { events: ActorEvent[][]; cut: boolean } {
  let cut = false;
  const events = Array.from({ length: steps }, (_, k) => {
    const top = (bucket[`step_${k}`] as { first?: TopHits } | undefined)?.first;
    if (!top) return [];
    const total = typeof top.hits.total === 'number' ? top.hits.total : (top.hits.total?.value ?? 0);
    if (total > top.hits.hits.length) cut = true;
    return top.hits.hits.map((hit) => ({ time: Number(hit.sort?.[0]), id: String(hit.sort?.[1]) }));
  });
  return { events, cut };
}

/** An actor's first first_event time (undefined when it has none) and a time in each period it returned. */
export function actorReturns(bucket: Json): { first: number | undefined; returns: number[] } {
  const first = (bucket['first'] as { at?: { value?: number | null } } | undefined)?.at?.value;
  const periods = (bucket['returns'] as { periods?: { buckets?: { key: number }[] } } | undefined)?.periods?.buckets ?? [];
  return { first: typeof first === 'number' ? first : undefined, returns: periods.map((period) => Number(period.key)) };
}

/** Every composite page in turn, up to MAX_ANALYSIS_ACTORS actors; false when the cap stopped it. */
async function eachPage(
  target: OpenSearchTarget,
  context: SearchContext,
  body: (after?: AfterKey) => SearchBody,
  visit: (bucket: Json) => void,
): Promise<boolean> {
  let after: AfterKey | undefined;
  let actors = 0;
  for (;;) {
    const pending = searchRequest(target.client, readTarget(target.prefix, 'events'), body(after));
    const response = await abortable(context.signal, pending, () => pending.abort());
    const page = (response.body as { aggregations?: { actors?: CompositePage } }).aggregations?.actors ?? { buckets: [] };
    for (const bucket of page.buckets) visit(bucket);
    actors += page.buckets.length;
    if (page.after_key === undefined || page.buckets.length === 0) return true;
    if (actors >= MAX_ANALYSIS_ACTORS) return false;
    after = page.after_key;
  }
}

export async function funnelOnOpenSearch(target: OpenSearchTarget, context: SearchContext, query: FunnelQuery): Promise<FunnelAnswer> {
  const tally = new FunnelTally(query.steps.length);
  const anyStep: QueryClause = { bool: { should: query.steps.map((step) => toOpenSearchQuery(step.query, context)), minimum_should_match: 1 } };
  const perActor = funnelPerActor(query, context);
  const complete = await eachPage(
    target,
    context,
    (after) => analysisPageBody(target, context, query.by, anyStep, perActor, after),
    (bucket) => {
      const { events, cut } = stepEvents(bucket, query.steps.length);
      if (cut) tally.markInexact();
      tally.add(actorFunnel(events, query.windowMs));
    },
  );
  if (!complete) tally.markInexact();
  return funnelAnswer(query, tally.counts());
}

export async function retentionOnOpenSearch(
  target: OpenSearchTarget,
  context: SearchContext,
  query: RetentionQuery,
  periods: RetentionPeriods,
): Promise<RetentionAnswer> {
  const tally = new RetentionTally(periods, query.periods);
  const either: QueryClause = {
    bool: { should: [toOpenSearchQuery(query.first, context), toOpenSearchQuery(query.returning, context)], minimum_should_match: 1 },
  };
  const perActor = retentionPerActor(query, context);
  const complete = await eachPage(
    target,
    context,
    (after) => analysisPageBody(target, context, query.by, either, perActor, after),
    (bucket) => {
      const { first, returns } = actorReturns(bucket);
      if (first !== undefined) tally.add(first, returns);
    },
  );
  if (!complete) tally.markInexact();
  return retentionAnswer(query, periods, tally.counts());
}
