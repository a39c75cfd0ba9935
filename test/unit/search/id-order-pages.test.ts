import fc from 'fast-check';
import { pagesInIdOrder } from '../../../functions/search/id-order-pages';
import type { SearchableIndex, SearchContext } from '../../../functions/search/port';
import { idOrderedSearch } from './support/id-ordered-search';

const context: SearchContext = { scope: { org_id: 'o', app_id: 'a' }, kind: 'users', timeZone: 'UTC', now: new Date('2026-11-30T00:00:00Z') };

describe('pagesInIdOrder', () => {
  it('lists every document once in id order, ending on the page that reaches the count (no empty page asked for)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 40 }), fc.integer({ min: 1, max: 9 }), async (ids, pageSize) => {
        const { search, requests, sorted } = idOrderedSearch(ids);
        const index: Pick<SearchableIndex, 'search'> = { search };
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
