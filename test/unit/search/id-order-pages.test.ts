import fc from 'fast-check';
import { pagesInIdOrder } from '../../../functions/search/id-order-pages';
import type { SearchableIndex, SearchContext, SearchHit, SearchResponse } from '../../../functions/search/port';
import type { SearchRequest } from '../../../schemas/search-tree';
import { compareUtf8 } from '../../../values/utf8-order';

const context: SearchContext = { scope: { org_id: 'o', app_id: 'a' }, kind: 'users', timeZone: 'UTC', now: new Date('2026-11-30T00:00:00Z') };

/** A backend holding `ids`, answering id-ordered pages as both backends do (search_after on the id). */
function holding(ids: readonly string[]) {
  const sorted = [...ids].sort(compareUtf8);
  const requests: SearchRequest[] = [];
  const index: Pick<SearchableIndex, 'search'> = {
    async search(_context, request): Promise<SearchResponse> {
      requests.push(request);
      const after = request.search_after?.[0];
      const from = after === undefined ? 0 : sorted.findIndex((id) => compareUtf8(id, String(after)) > 0);
      const page = from < 0 ? [] : sorted.slice(from, from + request.size);
      const hits: SearchHit[] = page.map((id) => ({ _id: id, _score: null, sort: [id] }));
      return { took: 0, timed_out: false, hits: { total: request.track_total_hits === false ? hits.length : sorted.length, max_score: null, hits } };
    },
  };
  return { index, requests, sorted };
}

describe('pagesInIdOrder', () => {
  it('lists every document once in id order, ending on the page that reaches the count (no empty page asked for)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 40 }), fc.integer({ min: 1, max: 9 }), async (ids, pageSize) => {
        const { index, requests, sorted } = holding(ids);
        const listed: string[] = [];
        for await (const page of pagesInIdOrder(index, context, { type: 'match_all' }, [], pageSize)) listed.push(...page.map((hit) => hit._id));
        expect(listed).toEqual(sorted);
        expect(requests).toHaveLength(Math.max(1, Math.ceil(sorted.length / pageSize)));
        // Only the first page counts the matches.
        expect(requests.map((request) => request.track_total_hits)).toEqual(requests.map((_, n) => n === 0));
      }),
    );
  });
});
