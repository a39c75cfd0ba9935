import { MAX_PRECISION_THRESHOLD } from '../dsl/limits';
import { resolveField } from '../fields';
import type { ActorCondition, SearchContext } from '../port';
import { meetsThreshold } from '../../../values/threshold-comparison';
import { eventsIndexName } from './naming';
import { searchAnswer, type OpenSearchTarget } from './opensearch-search';
import { MOST_BUCKETS_A_PAGE } from './search-request';
import { toOpenSearchQuery } from './query-body';
import type { AggregationBody, SearchBody } from './request-types';
import { mappedField } from './stored-source';

/**
 * A cohort's behavioural condition on OpenSearch: a composite aggregation pages through the
 * window's actors in id order (keywords compare by their bytes), each with its measure, and a
 * bucket_selector keeps only those meeting the threshold, so the cluster sends back members only.
 *
 * Every page reads the whole window's events again, so pages are as large as the node allows: up to
 * 65,000 actors (its bucket limit is 65,535). The first page also asks for the window's greatest
 * actor, so the walk stops on the page that reaches it instead of asking for an empty one. At the
 * bench's 1 M events (20,000 users) a POST condition took 108 ms in 3 pages of 10,000 and 45 ms in one.
 *
 * Distinct values: OpenSearch counts them exactly (a set of hashes) below a bucket's precision
 * threshold, and estimates above it with an error of a few per cent. A threshold near the
 * condition's number is enough to compare with it, and keeps each bucket small: at the most
 * (40,000) a page of 10,000 actors asked for 2.4 GB, past the node's request breaker. A page of
 * distinct counts holds as many actors as fit in 64 MB of such buckets.
 */

/** Most actors a composite page covers (before the selector drops those below the threshold). */
export const MOST_ACTORS_PER_PAGE = MOST_BUCKETS_A_PAGE;
/** What one page's distinct counts may ask of the node's memory. */
const DISTINCT_PAGE_BYTES = 64 * 1024 * 1024;

const OPERATORS: Record<ActorCondition['operator'], string> = { gte: '>=', gt: '>', lte: '<=', lt: '<', eq: '==' };

function measure(condition: ActorCondition): { path: string; aggs?: Record<string, AggregationBody> } {
  switch (condition.measure) {
    case 'count':
      return { path: '_count' };
    case 'sum_weight':
      return { path: 'measure', aggs: { measure: { sum: { field: 'weight', missing: 1 } } } };
    case 'distinct':
      return {
        path: 'measure',
        aggs: {
          measure: { cardinality: { field: mappedField(resolveField('events', condition.field!)), precision_threshold: distinctThreshold(condition.value) } },
        },
      };
  }
}

/**
 * Exact up to twice the number compared with (and at least 100): a count past the threshold is
 * estimated within about 5 %, so it cannot fall back to the number's side of the comparison.
 */
export function distinctThreshold(value: number): number {
  return Math.min(MAX_PRECISION_THRESHOLD, Math.max(100, 2 * (Math.ceil(value) + 1)));
}

/**
 * A cardinality bucket's memory at a precision threshold: OpenSearch sizes its registers to the power
 * of two above about 5.3 bytes a value counted (4 bytes a hash at a load of 0.75).
 */
export function distinctBucketBytes(threshold: number): number {
  return 2 ** Math.ceil(Math.log2((threshold * 4) / 0.75));
}

/** Actors a page of this condition covers: the most the node takes, or fewer distinct counts. */
export function actorsPerPage(condition: ActorCondition): number {
  if (condition.measure !== 'distinct') return MOST_ACTORS_PER_PAGE;
  const fitting = Math.floor(DISTINCT_PAGE_BYTES / distinctBucketBytes(distinctThreshold(condition.value)));
  return Math.max(100, Math.min(MOST_ACTORS_PER_PAGE, fitting));
}

/** These aggregations over the window's events that count for the condition, of actors who have the actor field. */
function conditionBody(
  target: Pick<OpenSearchTarget, 'wrap'>,
  context: SearchContext,
  condition: ActorCondition,
  aggs: Record<string, AggregationBody>,
): SearchBody {
  return {
    size: 0,
    track_total_hits: false,
    query: { bool: { filter: [...target.wrap(context.scope, context), { exists: { field: condition.by } }, toOpenSearchQuery(condition.query, context)] } },
    aggs,
  };
}

export function actorPageBody(
  target: Pick<OpenSearchTarget, 'wrap'>,
  context: SearchContext,
  condition: ActorCondition,
  after?: Record<string, string>,
  pageSize: number = actorsPerPage(condition),
): SearchBody {
  const { path, aggs } = measure(condition);
  return conditionBody(target, context, condition, {
    actors: {
      composite: { size: pageSize, sources: [{ actor: { terms: { field: condition.by } } }], ...(after ? { after } : {}) },
      aggs: {
        ...aggs,
        meets: {
          bucket_selector: {
            buckets_path: { measure: path },
            script: { source: `params.measure ${OPERATORS[condition.operator]} params.threshold`, lang: 'painless', params: { threshold: condition.value } },
          },
        },
      },
    },
    // The window's greatest actor (first page only): the page whose last actor it is, is the last.
    ...(after ? {} : { last_actor: { terms: { field: condition.by, size: 1, order: { _key: 'desc' } } } }),
  });
}

interface ActorPage {
  readonly buckets?: readonly { key: { actor: string } }[];
  readonly after_key?: Record<string, string>;
}

interface ActorPageAggregations {
  readonly actors?: ActorPage;
  readonly last_actor?: { readonly buckets?: readonly { key: string }[] };
}

export async function* actorsMeetingOnOpenSearch(
  target: OpenSearchTarget,
  context: SearchContext,
  condition: ActorCondition,
  pageSize?: number,
): AsyncIterable<readonly string[]> {
  const fewest = fewestEvents(condition);
  const month = windowMonthIndex(target.prefix, context.range);
  if (fewest !== undefined && fewest >= PRUNING_FROM && month !== undefined) {
    const pruned = await actorsPrunedOnTheShard(target, context, condition, month, fewest, pageSize);
    if (pruned !== undefined) {
      if (pruned.length > 0) yield pruned;
      return;
    }
  }
  let after: Record<string, string> | undefined;
  let lastActor: string | undefined;
  for (;;) {
    const answer = await searchAnswer(target, context, actorPageBody(target, context, condition, after, pageSize));
    const aggregations = answer.aggregations as ActorPageAggregations | undefined;
    if (after === undefined) lastActor = aggregations?.last_actor?.buckets?.[0]?.key;
    const page = aggregations?.actors;
    const actors = (page?.buckets ?? []).map((bucket) => String(bucket.key.actor));
    if (actors.length > 0) yield actors;
    // The selector drops buckets after the page is cut: a page may hold none and still not be the last.
    // Its after_key is the last actor it covered, kept or not.
    if (page?.after_key === undefined || lastActor === undefined || page.after_key['actor'] === lastActor) return;
    after = page.after_key;
  }
}

// ---------------------------------------------------------------------------------------------
// A window within one month, on an index of one shard.

/**
 * Below this many events an actor, pruning on the shard cost more than it saved: on the bench's
 * POST condition over 7 days, a threshold of 2 kept 11,313 of 16,637 actors (49 ms against the
 * composite page's 40), 3 kept 6,767 (31 against 36), 20 kept 89 (8.5 against 33).
 */
const PRUNING_FROM = 3;

/**
 * The fewest events an actor meeting the condition has, where it must have some: a count of at
 * least (or more than, or exactly) N, or N distinct values, each from an event of its own.
 * Undefined for a sum of weights and for a measure at most N.
 */
export function fewestEvents(condition: ActorCondition): number | undefined {
  if (condition.measure === 'sum_weight') return undefined;
  switch (condition.operator) {
    case 'gte':
    case 'eq':
      return Math.max(0, Math.ceil(condition.value));
    case 'gt':
      return Math.max(0, Math.floor(condition.value) + 1);
    default:
      return undefined;
  }
}

/** The one monthly events index holding the window (events are written to their month's index), if it spans one month. */
export function windowMonthIndex(prefix: string, range: SearchContext['range']): string | undefined {
  if (range?.from === undefined || range.to === undefined || range.to <= range.from) return undefined;
  const month = eventsIndexName(prefix, range.from);
  return eventsIndexName(prefix, new Date(range.to.getTime() - 1)) === month ? month : undefined;
}

/** The condition's actors with at least `fewest` events, dropped on the shard, in id order. */
export function prunedActorsBody(
  target: Pick<OpenSearchTarget, 'wrap'>,
  context: SearchContext,
  condition: ActorCondition,
  fewest: number,
  size: number,
): SearchBody {
  const { aggs } = measure(condition);
  return conditionBody(target, context, condition, {
    actors: {
      terms: {
        field: condition.by,
        size,
        shard_size: size,
        min_doc_count: fewest,
        shard_min_doc_count: fewest,
        order: { _key: 'asc' },
        ...(aggs ? { collect_mode: 'breadth_first' } : {}),
      },
      ...(aggs ? { aggs } : {}),
    },
  });
}

interface PrunedBucket {
  readonly key: string;
  readonly doc_count: number;
  readonly measure?: { readonly value: number };
}

/**
 * The condition's actors from one terms aggregation over the window's month, which drops every actor
 * with fewer than `fewest` events on the shard (shard_min_doc_count), so the node builds buckets
 * only for those that can meet it, where a composite page builds one for every actor of the window
 * and drops them after. Dropping on the shard is exact when an actor's events are all on that
 * shard: the answer is used when the index has one shard (OpenSearch's default, which the templates
 * keep), and undefined otherwise, or when the kept actors fill the page, for the caller to page. A
 * count of at least N is the aggregation's own threshold; an exact or distinct count (collected for
 * the kept actors only, breadth_first) is compared here with the condition, as the selector would.
 */
async function actorsPrunedOnTheShard(
  target: OpenSearchTarget,
  context: SearchContext,
  condition: ActorCondition,
  month: string,
  fewest: number,
  pageSize: number = actorsPerPage(condition),
): Promise<string[] | undefined> {
  const answer = await searchAnswer(target, context, prunedActorsBody(target, context, condition, fewest, pageSize), { index: month });
  if ((answer._shards?.total ?? 0) > 1) return undefined;
  const buckets = (answer.aggregations as { actors?: { buckets?: readonly PrunedBucket[] } } | undefined)?.actors?.buckets ?? [];
  if (buckets.length >= pageSize) return undefined;
  const measured = (bucket: PrunedBucket) => (condition.measure === 'distinct' ? (bucket.measure?.value ?? 0) : bucket.doc_count);
  return buckets.filter((bucket) => meetsThreshold(measured(bucket), condition.operator, condition.value)).map((bucket) => String(bucket.key));
}
