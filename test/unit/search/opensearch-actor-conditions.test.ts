import fc from 'fast-check';
import { actorPageBody, distinctThreshold } from '../../../functions/search/opensearch/actor-conditions';
import type { ActorCondition, SearchContext } from '../../../functions/search/port';

const context: SearchContext = { scope: { org_id: 'o', app_id: 'a' }, kind: 'events', timeZone: 'UTC', now: new Date('2026-11-29T00:00:00Z') };
const target = { wrap: () => [{ term: { org_id: 'o' } }] };

describe('cohort conditions on OpenSearch', () => {
  it("counts distinct values exactly past the condition's number, with a small threshold a page of buckets can afford", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (value) => {
        const threshold = distinctThreshold(value);
        expect(threshold).toBeLessThanOrEqual(40_000);
        // Below 20,000 the count is exact to twice the number: an estimate past it stays past the number.
        if (value < 19_999) expect(threshold).toBeGreaterThanOrEqual(2 * (value + 1));
        expect(threshold).toBeGreaterThanOrEqual(100);
      }),
    );
    const condition: ActorCondition = {
      by: 'user_id',
      query: { type: 'match_all' },
      measure: 'distinct',
      field: 'request.route.raw',
      operator: 'gte',
      value: 5,
    };
    expect(actorPageBody(target, context, condition).aggs?.['actors']?.aggs?.['measure']).toEqual({
      cardinality: { field: 'request.route.raw', precision_threshold: 100 },
    });
  });
});
