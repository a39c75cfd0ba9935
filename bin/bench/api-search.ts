import { parseRequestRange } from '../../functions/search/dates/request-range';
import { parseSearchRequest } from '../../functions/search/dsl';
import type { SearchableIndex, SearchContext } from '../../functions/search/port';
import { BENCH_TENANT } from './search-dataset-model';
import type { DashboardQuery } from './search-queries';

/**
 * The search benches' own side, as the API runs it. The OpenSearch bench loads this module as a
 * Lambda bundle (shipped-code.ts); the DuckDB bench imports it as `npm start` runs it.
 */
export { createOpenSearchIndex } from '../../functions/search/opensearch/opensearch-index';

/** One request as the management API serves it: the query parameters and the body parsed, then the search. */
export function searchAsTheApiDoes(index: SearchableIndex, query: DashboardQuery, now: Date, body: Record<string, unknown>) {
  const range = parseRequestRange(query.params, now);
  const context: SearchContext = {
    scope: BENCH_TENANT,
    kind: query.kind,
    range: query.kind === 'events' ? { from: range.from, to: range.to } : undefined,
    timeZone: range.timeZone,
    now,
  };
  return index.search(context, parseSearchRequest(body, query.kind));
}
