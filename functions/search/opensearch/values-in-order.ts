import type { QueryNode } from '../../../schemas/search-tree';
import type { SearchContext, SearchHit } from '../port';
import { searchAnswer, wrapped, type OpenSearchTarget } from './opensearch-search';
import type { QueryClause } from './request-types';
import { MOST_BUCKETS_A_PAGE } from './search-request';
import { DOC_ID_FIELD } from './stored-source';

/** One value of a keyword field and how many of the matching documents hold it. */
export interface CountedValue {
  readonly value: string;
  readonly count: number;
}

/**
 * The values of a keyword `field` among the documents matching `query` (already wrapped in the
 * tenant filter), ascending in UTF-8 byte order, each with its documents' count: a composite
 * aggregation, as many values a request as the node's bucket limit allows.
 */
export async function* valuesInOrder(
  target: OpenSearchTarget,
  context: SearchContext,
  query: QueryClause,
  field: string,
  pageSize: number = MOST_BUCKETS_A_PAGE,
): AsyncGenerator<readonly CountedValue[]> {
  let after: Record<string, string> | undefined;
  for (;;) {
    const answer = await searchAnswer(target, context, {
      size: 0,
      track_total_hits: false,
      query,
      aggs: { values: { composite: { size: pageSize, sources: [{ value: { terms: { field } } }], ...(after ? { after } : {}) } } },
    });
    const page = (answer.aggregations as { values?: ValuePage } | undefined)?.values;
    const buckets = page?.buckets ?? [];
    if (buckets.length > 0) yield buckets.map((bucket) => ({ value: String(bucket.key.value), count: bucket.doc_count }));
    // A page short of its size is the last: no bucket is dropped after the page is cut.
    if (buckets.length < pageSize || page?.after_key === undefined) return;
    after = page.after_key;
  }
}

/**
 * The ids of the documents matching `query` (profiles, for a cohort's members walk that reads none of
 * their fields), ascending in UTF-8 byte order like a listing sorted on `_id`: their doc_id values,
 * where a listing of hits takes 10,000 a page (its result window). On the bench's 20,000 users: one
 * request of 40 ms (25 on the node) against two pages of hits of 36–38 ms each.
 */
export async function* documentIdsInOrder(
  target: OpenSearchTarget,
  context: SearchContext,
  query: QueryNode,
  pageSize: number = MOST_BUCKETS_A_PAGE,
): AsyncGenerator<readonly SearchHit[]> {
  for await (const page of valuesInOrder(target, context, wrapped(target, context, query), DOC_ID_FIELD, pageSize)) {
    yield page.map(({ value }) => ({ _id: value }));
  }
}

interface ValuePage {
  readonly buckets?: readonly { key: { value: string }; doc_count: number }[];
  readonly after_key?: Record<string, string>;
}
