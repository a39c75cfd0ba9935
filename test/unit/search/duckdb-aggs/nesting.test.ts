import type { SearchableIndex } from '../../../../functions/search/port';
import { aggregate, call, failureOf, indexOf, type Json } from './harness';

/**
 * Nested aggregations, top_hits and the bucket cap on DuckDB. The calls:
 *
 * | id | company | user | route | verb | status | weight | time              |
 * |----|---------|------|-------|------|--------|--------|-------------------|
 * | c1 | acme    | u1   | /a    | GET  | 200    | 1      | 2026-03-01T10:00Z |
 * | c2 | acme    | u2   | /a    | GET  | 200    | 2      | 2026-03-01T11:00Z |
 * | c3 | acme    | u1   | /b    | POST | 201    | 3      | 2026-03-02T10:00Z |
 * | c4 | globex  | u3   | /a    | GET  | 500    | 4      | 2026-03-02T11:00Z |
 * | c5 | globex  | u4   | /c    | GET  | 200    | 5      | 2026-03-03T10:00Z |
 * | c6 | initech | u5   | /a    | GET  | 200    | 6      | 2026-03-03T11:00Z |
 * | c7 | acme    | u6   | /c    | GET  | 200    | 1      | 2026-03-03T12:00Z |
 */
const SPECS = [
  { id: 'c1', company: 'acme', user: 'u1', route: '/a', weight: 1, time: '2026-03-01T10:00:00.000Z' },
  { id: 'c2', company: 'acme', user: 'u2', route: '/a', weight: 2, time: '2026-03-01T11:00:00.000Z' },
  { id: 'c3', company: 'acme', user: 'u1', route: '/b', verb: 'POST', status: 201, weight: 3, time: '2026-03-02T10:00:00.000Z' },
  { id: 'c4', company: 'globex', user: 'u3', route: '/a', status: 500, weight: 4, time: '2026-03-02T11:00:00.000Z' },
  { id: 'c5', company: 'globex', user: 'u4', route: '/c', weight: 5, time: '2026-03-03T10:00:00.000Z' },
  { id: 'c6', company: 'initech', user: 'u5', route: '/a', weight: 6, time: '2026-03-03T11:00:00.000Z' },
  { id: 'c7', company: 'acme', user: 'u6', route: '/c', weight: 1, time: '2026-03-03T12:00:00.000Z' },
];
const DOCUMENTS = SPECS.map((spec) => call(spec));

describe('nested aggregations on DuckDB', () => {
  let index: SearchableIndex;
  beforeAll(async () => {
    index = await indexOf(DOCUMENTS);
  });
  afterAll(async () => {
    await index.close();
  });

  it('a level under a cut terms reads only the kept parent buckets', async () => {
    const aggs = {
      companies: {
        terms: { field: 'company_id', size: 1 },
        aggs: { users: { terms: { field: 'user_id', size: 2 }, aggs: { weight: { sum: { field: 'weight' } } } } },
      },
    };
    expect(await aggregate(index, { aggs })).toEqual({
      companies: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 3,
        buckets: [
          {
            key: 'acme',
            doc_count: 4,
            users: {
              doc_count_error_upper_bound: 0,
              sum_other_doc_count: 1,
              buckets: [
                { key: 'u1', doc_count: 2, weight: { value: 4 } },
                { key: 'u2', doc_count: 1, weight: { value: 2 } },
              ],
            },
          },
        ],
      },
    });
  });

  it('filter between levels narrows the rows of the levels below it', async () => {
    const aggs = {
      companies: {
        terms: { field: 'company_id' },
        aggs: {
          heavy: { filter: { range: { weight: { gte: 2 } } }, aggs: { users: { terms: { field: 'user_id' }, aggs: { top: { max: { field: 'weight' } } } } } },
        },
      },
    };
    const result = await aggregate(index, { aggs });
    expect(
      result.companies.buckets.map((company: Json) => [
        company.key,
        company.heavy.doc_count,
        company.heavy.users.buckets.map((user: Json) => `${user.key}:${user.top.value}`),
      ]),
    ).toEqual([
      ['acme', 2, ['u1:3', 'u2:2']],
      ['globex', 2, ['u3:4', 'u4:5']],
      ['initech', 1, ['u5:6']],
    ]);
  });

  it('orders a nested level by its own sub-metric under every parent', async () => {
    const aggs = {
      days: {
        date_histogram: { field: 'time', calendar_interval: 'day', format: 'MM-dd' },
        aggs: { companies: { terms: { field: 'company_id', order: { weight: 'asc' } }, aggs: { weight: { sum: { field: 'weight' } } } } },
      },
    };
    const result = await aggregate(index, { aggs });
    expect(
      result.days.buckets.map((day: Json) => [day.key_as_string, day.companies.buckets.map((company: Json) => `${company.key}:${company.weight.value}`)]),
    ).toEqual([
      ['03-01', ['acme:3']],
      ['03-02', ['acme:3', 'globex:4']],
      ['03-03', ['acme:1', 'globex:5', 'initech:6']],
    ]);
  });

  it('nests five levels deep', async () => {
    const level = (field: string, aggs?: Record<string, unknown>) => ({ terms: { field }, ...(aggs === undefined ? {} : { aggs }) });
    const aggs = {
      a: level('company_id', { b: level('request.route.raw', { c: level('user_id', { d: level('request.verb', { e: level('response.status') }) }) }) }),
    };
    const result = await aggregate(index, { aggs });
    const acme = result.a.buckets[0];
    expect(acme.key).toBe('acme');
    const path = acme.b.buckets[0].c.buckets[0].d.buckets[0].e.buckets[0];
    expect([acme.b.buckets[0].key, acme.b.buckets[0].c.buckets[0].key, path]).toEqual(['/a', 'u1', { key: 200, doc_count: 1 }]);
  });

  it('top_hits: the newest call of each company, with filtered source and sort values', async () => {
    const aggs = {
      companies: {
        terms: { field: 'company_id', size: 2 },
        aggs: { newest: { top_hits: { size: 1, sort: [{ time: 'desc' }], _source: { includes: ['request.route', 'user_id'] } } } },
      },
    };
    const result = await aggregate(index, { aggs });
    expect(result.companies.buckets.map((company: Json) => [company.key, company.newest])).toEqual([
      [
        'acme',
        {
          hits: {
            total: 4,
            max_score: null,
            hits: [{ _id: 'c7', _source: { request: { route: '/c' }, user_id: 'u6' }, sort: [Date.parse('2026-03-03T12:00:00.000Z')] }],
          },
        },
      ],
      [
        'globex',
        {
          hits: {
            total: 2,
            max_score: null,
            hits: [{ _id: 'c5', _source: { request: { route: '/c' }, user_id: 'u4' }, sort: [Date.parse('2026-03-03T10:00:00.000Z')] }],
          },
        },
      ],
    ]);
  });

  it('top_hits: the default order (newest first), from, size 0, and empty buckets', async () => {
    const page = await aggregate(index, { aggs: { some: { top_hits: { from: 1, size: 2, _source: false } } } });
    expect(page.some).toEqual({ hits: { total: 7, max_score: null, hits: [{ _id: 'c6' }, { _id: 'c5' }] } });
    const counted = await aggregate(index, { aggs: { none: { top_hits: { size: 0 } } } });
    expect(counted.none).toEqual({ hits: { total: 7, max_score: null, hits: [] } });
    const aggs = {
      days: {
        histogram: { field: 'weight', interval: 2 },
        aggs: { first: { top_hits: { size: 1, sort: [{ weight: 'asc' }], _source: { includes: ['weight'] } } } },
      },
    };
    const result = await aggregate(index, { query: { terms: { weight: [1, 6] } }, aggs });
    expect(result.days.buckets.map((bucket: Json) => [bucket.key, bucket.first.hits.total, bucket.first.hits.hits.map((hit: Json) => hit._id)])).toEqual([
      [0, 2, ['c1']],
      [2, 0, []],
      [4, 0, []],
      [6, 1, ['c6']],
    ]);
  });
});

describe('the bucket cap on DuckDB', () => {
  it('refuses more than 10,000 buckets in one response, naming the aggregation that passes the cap', async () => {
    const documents = Array.from({ length: 10_001 }, (_, n) => call({ id: `e${n}`, time: '2026-03-01T00:00:00.000Z', user: `user-${n}` }));
    const index = await indexOf(documents);
    try {
      const within = await aggregate(index, { aggs: { users: { terms: { field: 'user_id', size: 10_000 } } } });
      expect(within.users.buckets).toHaveLength(10_000);
      expect(within.users.sum_other_doc_count).toBe(1);
      const beyond = await failureOf(
        aggregate(index, { aggs: { users: { terms: { field: 'user_id', size: 10_000 } }, again: { terms: { field: 'user_id', size: 5 } } } }),
      );
      expect(beyond).toMatchObject({ status: 400, details: [{ field: 'aggs.again' }] });
    } finally {
      await index.close();
    }
  }, 60_000);
});
