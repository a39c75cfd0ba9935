import { MAX_PRECISION_THRESHOLD } from '../dsl/limits';
import { resolveField } from '../fields';
import type { ActorCondition, SearchContext } from '../port';
import { searchAnswer, type OpenSearchTarget } from './opensearch-search';
import { toOpenSearchQuery } from './query-body';
import type { AggregationBody, SearchBody } from './request-types';
import { mappedField } from './stored-source';

/**
 * A cohort's behavioural condition on OpenSearch: a composite aggregation pages through the
 * window's actors in id order (keywords compare by their bytes), each with its measure, and a
 * bucket_selector keeps only those meeting the threshold, so the cluster sends back members only.
 *
 * Distinct values: OpenSearch counts them exactly (a set of hashes) below a bucket's precision
 * threshold, and estimates above it with an error of a few per cent. A threshold near the
 * condition's number is enough to compare with it, and keeps each bucket small: at the most
 * (40,000) a page of 10,000 actors asked for 2.4 GB, past the node's request breaker.
 */

/** Actors a composite page covers (before the selector drops those below the threshold). */
export const ACTORS_PER_PAGE = 10_000;

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

export function actorPageBody(
  target: Pick<OpenSearchTarget, 'wrap'>,
  context: SearchContext,
  condition: ActorCondition,
  after?: Record<string, string>,
): SearchBody {
  const { path, aggs } = measure(condition);
  return {
    size: 0,
    track_total_hits: false,
    query: { bool: { filter: [...target.wrap(context.scope, context), { exists: { field: condition.by } }, toOpenSearchQuery(condition.query, context)] } },
    aggs: {
      actors: {
        composite: { size: ACTORS_PER_PAGE, sources: [{ actor: { terms: { field: condition.by } } }], ...(after ? { after } : {}) },
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
    },
  };
}

interface ActorPage {
  readonly buckets?: readonly { key: { actor: string } }[];
  readonly after_key?: Record<string, string>;
}

export async function* actorsMeetingOnOpenSearch(
  target: OpenSearchTarget,
  context: SearchContext,
  condition: ActorCondition,
): AsyncIterable<readonly string[]> {
  let after: Record<string, string> | undefined;
  for (;;) {
    const answer = await searchAnswer(target, context, actorPageBody(target, context, condition, after));
    const page = (answer.aggregations as { actors?: ActorPage } | undefined)?.actors;
    const actors = (page?.buckets ?? []).map((bucket) => String(bucket.key.actor));
    if (actors.length > 0) yield actors;
    // The selector drops buckets after the page is cut: a page may hold none and still not be the last.
    if (page?.after_key === undefined) return;
    after = page.after_key;
  }
}
