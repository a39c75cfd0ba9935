import type { QueryNode } from '../../../schemas/search-tree';
import type { SearchContext, SearchHit } from '../port';
import { searchAnswer, wrapped, type OpenSearchTarget } from './opensearch-search';
import { MOST_BUCKETS_A_PAGE } from './search-request';
import { DOC_ID_FIELD } from './stored-source';

/**
 * The ids of the documents matching `query` (profiles, for a cohort's members walk that reads none of
 * their fields), ascending in UTF-8 byte order like a listing sorted on `_id`: a composite aggregation
 * over doc_id, as many ids a request as the node's bucket limit allows, where a listing of hits takes
 * 10,000 a page (its result window). On the bench's 20,000 users: one request of 40 ms (25 on the
 * node) against two pages of hits of 36–38 ms each.
 */
export async function* documentIdsInOrder(
  target: OpenSearchTarget,
  context: SearchContext,
  query: QueryNode,
  pageSize: number = MOST_BUCKETS_A_PAGE,
): AsyncGenerator<readonly SearchHit[]> {
  let after: Record<string, string> | undefined;
  for (;;) {
    const answer = await searchAnswer(target, context, {
      size: 0,
      track_total_hits: false,
      query: wrapped(target, context, query),
      aggs: { ids: { composite: { size: pageSize, sources: [{ id: { terms: { field: DOC_ID_FIELD } } }], ...(after ? { after } : {}) } } },
    });
    const page = (answer.aggregations as { ids?: IdPage } | undefined)?.ids;
    const buckets = page?.buckets ?? [];
    if (buckets.length > 0) yield buckets.map((bucket) => ({ _id: String(bucket.key.id) }));
    // A page short of its size is the last: no bucket is dropped after the page is cut.
    if (buckets.length < pageSize || page?.after_key === undefined) return;
    after = page.after_key;
  }
}

interface IdPage {
  readonly buckets?: readonly { key: { id: string } }[];
  readonly after_key?: Record<string, string>;
}
