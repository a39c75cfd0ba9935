import fc from 'fast-check';
import type { SearchableIndex } from '../../../../functions/search/port';
import { aggregate, call, failureOf, indexOf } from './harness';

/**
 * Metrics on DuckDB. Durations 100, 200, 300, 400, 50, 150 (sum 1200); weights 1, 2, —, 4, 1, 3 (sum 11,
 * 12 with missing 1); users u1, u2, u1, u3, u1, —; samples (a JSON array) [1, 2, 3] and [10].
 */
const DOCUMENTS = [
  call({ id: 'c1', time: '2026-03-01T10:00:00.000Z', durationMs: 100, weight: 1, user: 'u1', metadata: { samples: [1, 2, 3], plan: 'pro' } }),
  call({ id: 'c2', time: '2026-03-02T10:00:00.000Z', durationMs: 200, weight: 2, user: 'u2', metadata: { samples: [10] } }),
  call({ id: 'c3', time: '2026-03-03T10:00:00.000Z', durationMs: 300, user: 'u1' }),
  call({ id: 'c4', time: '2026-03-04T10:00:00.000Z', durationMs: 400, weight: 4, user: 'u3' }),
  call({ id: 'c5', time: '2026-03-05T10:00:00.000Z', durationMs: 50, weight: 1, user: 'u1' }),
  call({ id: 'c6', time: '2026-03-06T10:00:00.000Z', durationMs: 150, weight: 3 }),
];

describe('metric aggregations on DuckDB', () => {
  let index: SearchableIndex;
  beforeAll(async () => {
    index = await indexOf(DOCUMENTS);
  });
  afterAll(async () => {
    await index.close();
  });

  it('sum, avg, min, max, value_count, cardinality and stats', async () => {
    const aggs = {
      total: { sum: { field: 'duration_ms' } },
      mean: { avg: { field: 'weight' } },
      fastest: { min: { field: 'duration_ms' } },
      slowest: { max: { field: 'duration_ms' } },
      users: { value_count: { field: 'user_id' } },
      distinct_users: { cardinality: { field: 'user_id' } },
      latency: { stats: { field: 'duration_ms' } },
    };
    expect(await aggregate(index, { aggs })).toEqual({
      total: { value: 1200 },
      mean: { value: 2.2 },
      fastest: { value: 50 },
      slowest: { value: 400 },
      users: { value: 5 },
      distinct_users: { value: 3 },
      latency: { count: 6, min: 50, max: 400, avg: 200, sum: 1200 },
    });
  });

  it('missing stands in for documents without the field (meters: sum of weight, missing 1)', async () => {
    const aggs = {
      billable: { sum: { field: 'weight', missing: 1 } },
      plain: { sum: { field: 'weight' } },
      users: { value_count: { field: 'user_id', missing: 'anonymous' } },
      lightest: { min: { field: 'weight', missing: 0 } },
    };
    expect(await aggregate(index, { aggs })).toEqual({ billable: { value: 12 }, plain: { value: 11 }, users: { value: 6 }, lightest: { value: 0 } });
  });

  it('percentiles: exact, by linear interpolation; keyed and as a list', async () => {
    const keyed = await aggregate(index, { aggs: { p: { percentiles: { field: 'duration_ms', percents: [50, 99, 0, 100] } } } });
    expect(keyed).toEqual({ p: { values: { '50.0': 175, '99.0': 395, '0.0': 50, '100.0': 400 } } });
    const listed = await aggregate(index, { aggs: { p: { percentiles: { field: 'duration_ms', percents: [25, 99.9], keyed: false } } } });
    expect(listed.p.values).toEqual([
      { key: 25, value: 112.5 },
      { key: 99.9, value: expect.closeTo(399.5, 6) },
    ]);
  });

  it('every value of an array counts', async () => {
    const aggs = {
      sum: { sum: { field: 'metadata.samples' } },
      avg: { avg: { field: 'metadata.samples' } },
      min: { min: { field: 'metadata.samples' } },
      max: { max: { field: 'metadata.samples' } },
      count: { value_count: { field: 'metadata.samples' } },
      distinct: { cardinality: { field: 'metadata.samples' } },
      stats: { stats: { field: 'metadata.samples' } },
      median: { percentiles: { field: 'metadata.samples', percents: [50] } },
    };
    expect(await aggregate(index, { aggs })).toEqual({
      sum: { value: 16 },
      avg: { value: 4 },
      min: { value: 1 },
      max: { value: 10 },
      count: { value: 4 },
      distinct: { value: 4 },
      stats: { count: 4, min: 1, max: 10, avg: 4, sum: 16 },
      median: { values: { '50.0': 2.5 } },
    });
  });

  it('no values: sum and counts 0, the rest null', async () => {
    const aggs = {
      sum: { sum: { field: 'weight' } },
      avg: { avg: { field: 'weight' } },
      min: { min: { field: 'weight' } },
      max: { max: { field: 'weight' } },
      count: { value_count: { field: 'weight' } },
      distinct: { cardinality: { field: 'weight' } },
      stats: { stats: { field: 'weight' } },
      p: { percentiles: { field: 'weight', percents: [50] } },
    };
    expect(await aggregate(index, { query: { match_none: {} }, aggs })).toEqual({
      sum: { value: 0 },
      avg: { value: null },
      min: { value: null },
      max: { value: null },
      count: { value: 0 },
      distinct: { value: 0 },
      stats: { count: 0, min: null, max: null, avg: null, sum: 0 },
      p: { values: { '50.0': null } },
    });
  });

  it('dates: values in epoch millis with value_as_string', async () => {
    const aggs = { first: { min: { field: 'request.time' } }, last: { max: { field: 'time' } }, span: { stats: { field: 'time' } } };
    const result = await aggregate(index, { query: { ids: { values: ['c1', 'c2'] } }, aggs });
    const c1 = Date.parse('2026-03-01T10:00:00.000Z');
    const c2 = Date.parse('2026-03-02T10:00:00.000Z');
    expect(result.first).toEqual({ value: c1, value_as_string: '2026-03-01T10:00:00.000Z' });
    expect(result.last).toEqual({ value: c2, value_as_string: '2026-03-02T10:00:00.000Z' });
    expect(result.span).toMatchObject({
      count: 2,
      min: c1,
      max: c2,
      avg: (c1 + c2) / 2,
      min_as_string: '2026-03-01T10:00:00.000Z',
      avg_as_string: '2026-03-01T22:00:00.000Z',
    });
  });

  it('refuses a numeric metric on a field holding text', async () => {
    const failure = await failureOf(aggregate(index, { aggs: { plans: { sum: { field: 'metadata.plan' } } } }));
    expect(failure).toMatchObject({ status: 400, details: [{ field: 'aggs.plans.sum.field', reason: expect.stringContaining('metadata.plan.raw') }] });
  });

  it('percentiles of an integer column (read in its own type) equal those of the same numbers read as doubles (property)', async () => {
    const empty = await indexOf([]);
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }), { minLength: 1, maxLength: 40 }),
          fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 4 }),
          async (durations, percents) => {
            const scope = { org_id: 'org-p', app_id: `app-${run++}` };
            // duration_ms is a BIGINT column; the same number under metadata is read from JSON as a DOUBLE.
            const documents = durations.map((durationMs, n) =>
              call({ id: `p${n}`, time: '2026-03-01T10:00:00.000Z', durationMs, metadata: { duration: durationMs } }, scope),
            );
            expect((await empty.index(documents)).failures).toEqual([]);
            const aggs = { own: { percentiles: { field: 'duration_ms', percents } }, doubles: { percentiles: { field: 'metadata.duration', percents } } };
            const result = await aggregate(empty, { aggs }, { scope });
            expect(result.own).toEqual(result.doubles);
          },
        ),
        { numRuns: 40 },
      );
    } finally {
      await empty.close();
    }
  });
});
