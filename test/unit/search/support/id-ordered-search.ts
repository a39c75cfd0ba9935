import type { SearchHit, SearchResponse } from '../../../../functions/search/port';
import type { SearchRequest } from '../../../../schemas/search-tree';
import { compareUtf8 } from '../../../../values/utf8-order';

/**
 * A stand-in for a backend's search over documents with these ids, answering id-ordered pages as
 * both backends do: after search_after on the id, a counted page answering the number of every
 * match. A query of `ids` beside other filters (a profile lookup) narrows the documents to those ids.
 */
export function idOrderedSearch(ids: readonly string[]) {
  const sorted = [...ids].sort(compareUtf8);
  const requests: SearchRequest[] = [];
  async function search(_context: unknown, request: SearchRequest): Promise<SearchResponse> {
    requests.push(request);
    const wanted = request.query.type === 'bool' ? request.query.filter.find((node) => node.type === 'ids') : undefined;
    const matching = wanted?.type === 'ids' ? sorted.filter((id) => wanted.values.includes(id)) : sorted;
    const after = request.search_after?.[0];
    const from = after === undefined ? 0 : matching.findIndex((id) => compareUtf8(id, String(after)) > 0);
    const page = from < 0 ? [] : matching.slice(from, from + request.size);
    const total = request.track_total_hits === false ? page.length : matching.length;
    return { took: 0, timed_out: false, hits: { total, max_score: null, hits: page.map((id): SearchHit => ({ _id: id, sort: [id] })) } };
  }
  return { search, requests, sorted };
}
