import fc from 'fast-check';
import {
  actorPageBody,
  actorsPerPage,
  distinctBucketBytes,
  distinctThreshold,
  MOST_ACTORS_PER_PAGE,
} from '../../../functions/search/opensearch/actor-conditions';
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

  it('pages as many actors as the node takes, and distinct counts only as many as fit in 64 MB', () => {
    const condition = (measure: ActorCondition['measure'], value: number): ActorCondition => ({
      by: 'user_id',
      query: { type: 'match_all' },
      measure,
      ...(measure === 'distinct' ? { field: 'request.route.raw' } : {}),
      operator: 'gte',
      value,
    });
    // Within OpenSearch's default bucket limit (search.max_buckets, 65,535).
    expect(MOST_ACTORS_PER_PAGE).toBeLessThanOrEqual(65_535);
    fc.assert(
      fc.property(fc.constantFrom<ActorCondition['measure']>('count', 'sum_weight', 'distinct'), fc.integer({ min: 0, max: 100_000 }), (measure, value) => {
        const size = actorsPerPage(condition(measure, value));
        expect(size).toBeLessThanOrEqual(MOST_ACTORS_PER_PAGE);
        if (measure !== 'distinct') expect(size).toBe(MOST_ACTORS_PER_PAGE);
        else expect(size === 100 || size * distinctBucketBytes(distinctThreshold(value)) <= 64 * 1024 * 1024).toBe(true);
        expect(actorPageBody(target, context, condition(measure, value)).aggs?.['actors']).toMatchObject({ composite: { size } });
      }),
    );
    // The threshold that once asked 2.4 GB for 10,000 actors: 256 a page now.
    expect(actorsPerPage(condition('distinct', 20_000))).toBe(256);
    expect(actorsPerPage(condition('distinct', 5))).toBe(MOST_ACTORS_PER_PAGE);
  });

  it('asks the window for its greatest actor on the first page only', () => {
    const condition: ActorCondition = { by: 'company_id', query: { type: 'match_all' }, measure: 'count', operator: 'gte', value: 1 };
    expect(actorPageBody(target, context, condition).aggs?.['last_actor']).toEqual({ terms: { field: 'company_id', size: 1, order: { _key: 'desc' } } });
    expect(actorPageBody(target, context, condition, { actor: 'c-9' }).aggs?.['last_actor']).toBeUndefined();
  });
});
