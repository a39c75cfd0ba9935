import type { SearchableIndex } from '../../../../functions/search/port';
import { aggregate, call, failureOf, indexOf, OTHER, type Json } from './harness';

/**
 * Terms on DuckDB, as OpenSearch answers them. The calls (tenant TENANT; OTHER holds one more):
 *
 * | id | route | verb   | status | duration | user | company | weight | metadata                          |
 * |----|-------|--------|--------|----------|------|---------|--------|-----------------------------------|
 * | c1 | /a    | GET    | 200    | 100      | u1   | acme    | 1      | plan pro, tags [x, y], score 3    |
 * | c2 | /a    | GET    | 200    | 200      | u2   | acme    | 2      | plan free, tags [x], score 5      |
 * | c3 | /b    | POST   | 201    | 300      | u1   | globex  | —      | plan pro                          |
 * | c4 | /b    | GET    | 500    | 400      | u3   | globex  | 4      | tags [y, y]                       |
 * | c5 | /c    | GET    | 200    | 50       | u1   | initech | 1      | score 7                           |
 * | c6 | /a    | DELETE | 404    | 150      | —    | —       | 3      | {}                                |
 */
const DOCUMENTS = [
  call({
    id: 'c1',
    time: '2026-03-02T10:00:00.000Z',
    route: '/a',
    status: 200,
    durationMs: 100,
    user: 'u1',
    company: 'acme',
    weight: 1,
    metadata: { plan: 'pro', tags: ['x', 'y'], score: 3 },
  }),
  call({
    id: 'c2',
    time: '2026-03-02T11:00:00.000Z',
    route: '/a',
    status: 200,
    durationMs: 200,
    user: 'u2',
    company: 'acme',
    weight: 2,
    metadata: { plan: 'free', tags: ['x'], score: 5 },
  }),
  call({
    id: 'c3',
    time: '2026-03-03T09:00:00.000Z',
    route: '/b',
    verb: 'POST',
    status: 201,
    durationMs: 300,
    user: 'u1',
    company: 'globex',
    metadata: { plan: 'pro' },
  }),
  call({
    id: 'c4',
    time: '2026-03-03T10:00:00.000Z',
    route: '/b',
    status: 500,
    durationMs: 400,
    user: 'u3',
    company: 'globex',
    weight: 4,
    metadata: { tags: ['y', 'y'] },
  }),
  call({
    id: 'c5',
    time: '2026-03-04T12:00:00.000Z',
    route: '/c',
    status: 200,
    durationMs: 50,
    user: 'u1',
    company: 'initech',
    weight: 1,
    metadata: { score: 7 },
  }),
  call({ id: 'c6', time: '2026-03-05T08:00:00.000Z', route: '/a', verb: 'DELETE', status: 404, durationMs: 150, weight: 3, metadata: {} }),
  call({ id: 'o1', time: '2026-03-02T10:00:00.000Z', route: '/secret', status: 999, user: 'spy', company: 'evil', weight: 100 }, OTHER),
];

const terms = (buckets: Json[], sumOther = 0) => ({ doc_count_error_upper_bound: 0, sum_other_doc_count: sumOther, buckets });

describe('terms aggregation on DuckDB', () => {
  let index: SearchableIndex;
  beforeAll(async () => {
    index = await indexOf(DOCUMENTS);
  });
  afterAll(async () => {
    await index.close();
  });

  it('orders by count descending, ties by key ascending, and counts what size leaves out', async () => {
    expect(await aggregate(index, { aggs: { routes: { terms: { field: 'request.route.raw' } } } })).toEqual({
      routes: terms([
        { key: '/a', doc_count: 3 },
        { key: '/b', doc_count: 2 },
        { key: '/c', doc_count: 1 },
      ]),
    });
    expect(await aggregate(index, { aggs: { routes: { terms: { field: 'request.route.raw', size: 1 } } } })).toEqual({
      routes: terms([{ key: '/a', doc_count: 3 }], 3),
    });
  });

  it('orders by a sub-metric that differs from the one returned', async () => {
    const aggs = {
      companies: {
        terms: { field: 'company_id', order: { billable: 'desc' } },
        aggs: { billable: { sum: { field: 'weight' } }, slowest: { max: { field: 'duration_ms' } } },
      },
    };
    expect(await aggregate(index, { aggs })).toEqual({
      companies: terms([
        { key: 'globex', doc_count: 2, billable: { value: 4 }, slowest: { value: 400 } },
        { key: 'acme', doc_count: 2, billable: { value: 3 }, slowest: { value: 200 } },
        { key: 'initech', doc_count: 1, billable: { value: 1 }, slowest: { value: 50 } },
      ]),
    });
  });

  it('orders by a stats property and a percentile, keeping the top N', async () => {
    const byMax = {
      companies: { terms: { field: 'company_id', size: 2, order: { 'latency.max': 'asc' } }, aggs: { latency: { stats: { field: 'duration_ms' } } } },
    };
    const result = await aggregate(index, { aggs: byMax });
    expect(result.companies.buckets.map((bucket: Json) => [bucket.key, bucket.latency.max])).toEqual([
      ['initech', 50],
      ['acme', 200],
    ]);
    expect(result.companies.sum_other_doc_count).toBe(2);
    const byPercentile = {
      companies: { terms: { field: 'company_id', order: { 'p.50': 'desc' } }, aggs: { p: { percentiles: { field: 'duration_ms', percents: [50] } } } },
    };
    const percentiles = await aggregate(index, { aggs: byPercentile });
    expect(percentiles.companies.buckets.map((bucket: Json) => [bucket.key, bucket.p.values['50.0']])).toEqual([
      ['globex', 350],
      ['acme', 150],
      ['initech', 50],
    ]);
  });

  it('numeric keys are numbers and order numerically', async () => {
    expect(await aggregate(index, { aggs: { statuses: { terms: { field: 'response.status', order: { _key: 'desc' } } } } })).toEqual({
      statuses: terms([
        { key: 500, doc_count: 1 },
        { key: 404, doc_count: 1 },
        { key: 201, doc_count: 1 },
        { key: 200, doc_count: 3 },
      ]),
    });
    // An untyped JSON field holding numbers groups by number.
    expect(await aggregate(index, { aggs: { scores: { terms: { field: 'metadata.score' } } } })).toEqual({
      scores: terms([
        { key: 3, doc_count: 1 },
        { key: 5, doc_count: 1 },
        { key: 7, doc_count: 1 },
      ]),
    });
  });

  it('boolean keys are 1/0 with key_as_string, date keys epoch millis with key_as_string', async () => {
    expect(await aggregate(index, { aggs: { late: { terms: { field: 'is_late' } } } })).toEqual({
      late: terms([{ key: 0, key_as_string: 'false', doc_count: 6 }]),
    });
    const result = await aggregate(index, { query: { ids: { values: ['c1', 'c5'] } }, aggs: { times: { terms: { field: 'request.time' } } } });
    expect(result).toEqual({
      times: terms([
        { key: Date.parse('2026-03-02T10:00:00.000Z'), key_as_string: '2026-03-02T10:00:00.000Z', doc_count: 1 },
        { key: Date.parse('2026-03-04T12:00:00.000Z'), key_as_string: '2026-03-04T12:00:00.000Z', doc_count: 1 },
      ]),
    });
  });

  it('puts documents without the field in the missing bucket, typed like the field', async () => {
    expect(await aggregate(index, { aggs: { companies: { terms: { field: 'company_id', missing: 'none' } } } })).toEqual({
      companies: terms([
        { key: 'acme', doc_count: 2 },
        { key: 'globex', doc_count: 2 },
        { key: 'initech', doc_count: 1 },
        { key: 'none', doc_count: 1 },
      ]),
    });
    expect(await aggregate(index, { aggs: { weights: { terms: { field: 'weight', missing: 0 } } } })).toEqual({
      weights: terms([
        { key: 1, doc_count: 2 },
        { key: 0, doc_count: 1 },
        { key: 2, doc_count: 1 },
        { key: 3, doc_count: 1 },
        { key: 4, doc_count: 1 },
      ]),
    });
  });

  it('counts a document once per distinct value of an array', async () => {
    expect(await aggregate(index, { aggs: { tags: { terms: { field: 'metadata.tags.raw' } } } })).toEqual({
      tags: terms([
        { key: 'x', doc_count: 2 },
        { key: 'y', doc_count: 2 },
      ]),
    });
  });

  it('applies min_doc_count before the cut', async () => {
    expect(await aggregate(index, { aggs: { users: { terms: { field: 'user_id', min_doc_count: 2 } } } })).toEqual({
      users: terms([{ key: 'u1', doc_count: 3 }]),
    });
  });

  it('min_doc_count 0 adds the tenant’s other terms with no documents, never another tenant’s', async () => {
    const body = { query: { term: { 'request.verb': 'DELETE' } }, aggs: { companies: { terms: { field: 'company_id', min_doc_count: 0 } } } };
    expect(await aggregate(index, body)).toEqual({
      companies: terms([
        { key: 'acme', doc_count: 0 },
        { key: 'globex', doc_count: 0 },
        { key: 'initech', doc_count: 0 },
      ]),
    });
    // Under a parent: every parent bucket gets the terms it lacks, ranked after its own (count desc, key asc).
    const nested = {
      query: { term: { 'request.verb': 'GET' } },
      aggs: { routes: { terms: { field: 'request.route.raw' }, aggs: { companies: { terms: { field: 'company_id', size: 2, min_doc_count: 0 } } } } },
    };
    const result = await aggregate(index, nested);
    expect(
      result.routes.buckets.map((bucket: Json) => [
        bucket.key,
        bucket.companies.buckets.map((c: Json) => `${c.key}:${c.doc_count}`),
        bucket.companies.sum_other_doc_count,
      ]),
    ).toEqual([
      ['/a', ['acme:2', 'globex:0'], 0],
      ['/b', ['globex:1', 'acme:0'], 0],
      ['/c', ['initech:1', 'acme:0'], 0],
    ]);
  });

  it('refuses text fields with a pointer to their .raw form', async () => {
    const hot = await failureOf(aggregate(index, { aggs: { routes: { terms: { field: 'request.route' } } } }));
    expect(hot).toMatchObject({ status: 400 });
    expect(JSON.stringify(hot.details)).toContain('request.route.raw');
    const untyped = await failureOf(aggregate(index, { aggs: { plans: { terms: { field: 'metadata.plan' } } } }));
    expect(untyped).toMatchObject({ status: 400, details: [{ field: 'aggs.plans.terms.field', reason: expect.stringContaining('metadata.plan.raw') }] });
  });

  it('never shows another tenant’s terms', async () => {
    const result = await aggregate(index, {
      aggs: { companies: { terms: { field: 'company_id', size: 100 } }, statuses: { terms: { field: 'response.status', size: 100 } } },
    });
    const text = JSON.stringify(result);
    expect(text).not.toContain('evil');
    expect(text).not.toContain('999');
  });

  it('leaves out strings over 1024 characters, which have no keyword form (ignore_above)', async () => {
    const long = `/${'x'.repeat(1100)}`;
    const routes = await indexOf([
      call({ id: 'r1', time: '2026-03-02T10:00:00.000Z', route: '/short' }),
      call({ id: 'r2', time: '2026-03-02T11:00:00.000Z', route: long }),
    ]);
    try {
      expect(await aggregate(routes, { aggs: { routes: { terms: { field: 'request.route.raw' } } } })).toEqual({
        routes: terms([{ key: '/short', doc_count: 1 }]),
      });
      expect(await aggregate(routes, { aggs: { routes: { terms: { field: 'request.route.raw', missing: 'none' } } } })).toEqual({
        routes: terms([
          { key: '/short', doc_count: 1 },
          { key: 'none', doc_count: 1 },
        ]),
      });
      const nested = await aggregate(routes, {
        aggs: { verbs: { terms: { field: 'request.verb' }, aggs: { routes: { terms: { field: 'request.route.raw' } } } } },
      });
      expect(nested.verbs.buckets).toEqual([{ key: 'GET', doc_count: 2, routes: terms([{ key: '/short', doc_count: 1 }]) }]);
    } finally {
      await routes.close();
    }
  });
});
