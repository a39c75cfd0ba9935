import fc from 'fast-check';
import {
  actorPageBody,
  actorsPerPage,
  distinctBucketBytes,
  distinctThreshold,
  fewestEvents,
  MOST_ACTORS_PER_PAGE,
  prunedActorsBody,
  windowMonthIndex,
} from '../../../functions/search/opensearch/actor-conditions';
import type { ActorCondition, SearchContext } from '../../../functions/search/port';

const context: SearchContext = { scope: { org_id: 'o', app_id: 'a' }, kind: 'events', timeZone: 'UTC', now: new Date('2026-11-29T00:00:00Z') };
const target = { wrap: () => [{ term: { org_id: 'o' } }] };
const DISTINCT_ROUTES: ActorCondition = {
  by: 'user_id',
  query: { type: 'match_all' },
  measure: 'distinct',
  field: 'request.route.raw',
  operator: 'gte',
  value: 5,
};

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
    expect(actorPageBody(target, context, DISTINCT_ROUTES).aggs?.['actors']?.aggs?.['measure']).toEqual({
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

  it('knows the fewest events an actor meeting a count or distinct condition of at least, more than or exactly N has', () => {
    const compared = { gte: (a: number, b: number) => a >= b, gt: (a: number, b: number) => a > b, eq: (a: number, b: number) => a === b };
    fc.assert(
      fc.property(
        fc.constantFrom<ActorCondition['measure']>('count', 'distinct'),
        fc.constantFrom<'gte' | 'gt' | 'eq'>('gte', 'gt', 'eq'),
        fc.oneof(fc.integer({ min: 0, max: 1_000 }), fc.double({ min: 0, max: 1_000, noNaN: true })),
        (measure, operator, value) => {
          const fewest = fewestEvents({ by: 'user_id', query: { type: 'match_all' }, measure, operator, value });
          expect(fewest).toBeDefined();
          // No actor with fewer events can meet it (a distinct count is at most the count of events)...
          for (let events = Math.max(0, fewest! - 3); events < fewest!; events += 1) expect(compared[operator](events, value)).toBe(false);
          // ...and, but for an exact fraction, one with that many can.
          if (operator !== 'eq' || Number.isInteger(value)) expect(compared[operator](fewest!, value)).toBe(true);
        },
      ),
    );
    const condition = (measure: ActorCondition['measure'], operator: ActorCondition['operator']): ActorCondition => ({
      by: 'user_id',
      query: { type: 'match_all' },
      measure,
      operator,
      value: 5,
    });
    expect(fewestEvents(condition('sum_weight', 'gte'))).toBeUndefined();
    expect(fewestEvents(condition('count', 'lte'))).toBeUndefined();
    expect(fewestEvents(condition('distinct', 'lt'))).toBeUndefined();
  });

  it('names the one monthly index a window falls in, and none for a window across months or open-ended', () => {
    const march = (day: number, hour = 0) => new Date(Date.UTC(2025, 2, day, hour));
    expect(windowMonthIndex('p-', { from: march(3), to: march(10) })).toBe('p-events-2025.03');
    // The end is exclusive: up to the next month's first instant is still March.
    expect(windowMonthIndex('p-', { from: march(1), to: new Date(Date.UTC(2025, 3, 1)) })).toBe('p-events-2025.03');
    expect(windowMonthIndex('p-', { from: new Date(Date.UTC(2025, 1, 27)), to: march(2) })).toBeUndefined();
    expect(windowMonthIndex('p-', { from: march(3) })).toBeUndefined();
    expect(windowMonthIndex('p-', { to: march(3) })).toBeUndefined();
    expect(windowMonthIndex('p-', { from: march(3), to: march(3) })).toBeUndefined();
    expect(windowMonthIndex('p-', undefined)).toBeUndefined();
  });

  it('asks one terms aggregation in id order for the actors with enough events, distinct counts only for those kept', () => {
    expect(prunedActorsBody(target, context, DISTINCT_ROUTES, 5, 100).aggs).toEqual({
      actors: {
        terms: {
          field: 'user_id',
          size: 100,
          shard_size: 100,
          min_doc_count: 5,
          shard_min_doc_count: 5,
          order: { _key: 'asc' },
          collect_mode: 'breadth_first',
        },
        aggs: { measure: { cardinality: { field: 'request.route.raw', precision_threshold: 100 } } },
      },
    });
    const count: ActorCondition = { by: 'company_id', query: { type: 'match_all' }, measure: 'count', operator: 'gt', value: 19 };
    expect(prunedActorsBody(target, context, count, 20, 65_000).aggs).toEqual({
      actors: { terms: { field: 'company_id', size: 65_000, shard_size: 65_000, min_doc_count: 20, shard_min_doc_count: 20, order: { _key: 'asc' } } },
    });
  });
});
