import type { QueryNode, SortValue } from '../../schemas/search-tree';
import { MAX_RESULT_WINDOW } from './dsl/limits';
import type { SearchableIndex, SearchContext, SearchHit } from './port';

/**
 * Every document matching `query`, a page at a time in `_id` order (UTF-8 bytes on both backends),
 * reading only `includes` (none: no source). Pages are as large as both backends allow a
 * search_after page to be (10,000).
 */
export async function* pagesInIdOrder(
  index: Pick<SearchableIndex, 'search'>,
  context: SearchContext,
  query: QueryNode,
  includes: readonly string[],
  pageSize: number = MAX_RESULT_WINDOW,
): AsyncGenerator<readonly SearchHit[]> {
  const size = Math.min(pageSize, MAX_RESULT_WINDOW);
  let searchAfter: SortValue[] | undefined;
  for (;;) {
    const response = await index.search(context, {
      query,
      size,
      from: 0,
      sort: [{ field: '_id', order: 'asc', missing: '_last' }],
      ...(searchAfter ? { search_after: searchAfter } : {}),
      _source: includes.length > 0 ? { includes: [...includes], excludes: [] } : false,
      track_total_hits: false,
      aggs: {},
    });
    if (response.hits.hits.length > 0) yield response.hits.hits;
    const last = response.hits.hits.at(-1);
    if (response.hits.hits.length < size || !last?.sort) return;
    searchAfter = last.sort;
  }
}
