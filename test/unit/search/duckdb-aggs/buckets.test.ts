import type { SearchableIndex } from '../../../../functions/search/port';
import { aggregate, call, failureOf, indexOf, type Json } from './harness';

/**
 * histogram, range, filter and filters on DuckDB. The calls:
 *
 * | id | verb   | status | duration | weight | time                 |
 * |----|--------|--------|----------|--------|----------------------|
 * | c1 | GET    | 200    | 100      | 1      | 2026-03-01T10:00Z    |
 * | c2 | GET    | 200    | 200      | 2      | 2026-03-02T10:00Z    |
 * | c3 | POST   | 201    | 300      | —      | 2026-03-03T10:00Z    |
 * | c4 | GET    | 500    | 400      | 4      | 2026-03-04T10:00Z    |
 * | c5 | GET    | 200    | 50       | 1      | 2026-03-05T10:00Z    |
 * | c6 | DELETE | 404    | 150      | 3      | 2026-03-06T10:00Z    |
 */
const DOCUMENTS = [
  call({ id: 'c1', time: '2026-03-01T10:00:00.000Z', status: 200, durationMs: 100, weight: 1 }),
  call({ id: 'c2', time: '2026-03-02T10:00:00.000Z', status: 200, durationMs: 200, weight: 2 }),
  call({ id: 'c3', time: '2026-03-03T10:00:00.000Z', verb: 'POST', status: 201, durationMs: 300 }),
  call({ id: 'c4', time: '2026-03-04T10:00:00.000Z', status: 500, durationMs: 400, weight: 4 }),
  call({ id: 'c5', time: '2026-03-05T10:00:00.000Z', status: 200, durationMs: 50, weight: 1 }),
  call({ id: 'c6', time: '2026-03-06T10:00:00.000Z', verb: 'DELETE', status: 404, durationMs: 150, weight: 3 }),
];

const keysAndCounts = (result: Json): [unknown, number][] => result.buckets.map((bucket: Json) => [bucket.key, bucket.doc_count]);

describe('histogram, range, filter and filters on DuckDB', () => {
  let index: SearchableIndex;
  beforeAll(async () => {
    index = await indexOf(DOCUMENTS);
  });
  afterAll(async () => {
    await index.close();
  });

  it('histogram: numeric keys, empty buckets filled, offset', async () => {
    const result = await aggregate(index, { aggs: { h: { histogram: { field: 'duration_ms', interval: 100 } } } });
    expect(result.h).toEqual({
      buckets: [
        { key: 0, doc_count: 1 },
        { key: 100, doc_count: 2 },
        { key: 200, doc_count: 1 },
        { key: 300, doc_count: 1 },
        { key: 400, doc_count: 1 },
      ],
    });
    const shifted = await aggregate(index, { aggs: { h: { histogram: { field: 'duration_ms', interval: 100, offset: 25 } } } });
    expect(keysAndCounts(shifted.h)).toEqual([
      [25, 2],
      [125, 2],
      [225, 1],
      [325, 1],
    ]);
  });

  it('histogram: extended_bounds, min_doc_count and a fractional interval', async () => {
    const bounded = await aggregate(index, { aggs: { h: { histogram: { field: 'duration_ms', interval: 250, extended_bounds: { min: 0, max: 1000 } } } } });
    expect(keysAndCounts(bounded.h)).toEqual([
      [0, 4],
      [250, 2],
      [500, 0],
      [750, 0],
      [1000, 0],
    ]);
    const dense = await aggregate(index, { aggs: { h: { histogram: { field: 'duration_ms', interval: 100, min_doc_count: 2 } } } });
    expect(keysAndCounts(dense.h)).toEqual([[100, 2]]);
    const fractional = await aggregate(index, { aggs: { h: { histogram: { field: 'weight', interval: 1.5 } } } });
    expect(keysAndCounts(fractional.h)).toEqual([
      [0, 2],
      [1.5, 1],
      [3, 2],
    ]);
  });

  it('histogram over a date field: keys print as dates', async () => {
    const result = await aggregate(index, { query: { ids: { values: ['c1', 'c3'] } }, aggs: { h: { histogram: { field: 'time', interval: 86_400_000 } } } });
    expect(result.h.buckets).toEqual([
      { key: Date.parse('2026-03-01T00:00:00.000Z'), key_as_string: '2026-03-01T00:00:00.000Z', doc_count: 1 },
      { key: Date.parse('2026-03-02T00:00:00.000Z'), key_as_string: '2026-03-02T00:00:00.000Z', doc_count: 0 },
      { key: Date.parse('2026-03-03T00:00:00.000Z'), key_as_string: '2026-03-03T00:00:00.000Z', doc_count: 1 },
    ]);
  });

  it('histogram: ordered by a sub-metric', async () => {
    const aggs = { h: { histogram: { field: 'duration_ms', interval: 200, order: { weight: 'desc' } }, aggs: { weight: { sum: { field: 'weight' } } } } };
    const result = await aggregate(index, { aggs });
    expect(result.h.buckets.map((bucket: Json) => [bucket.key, bucket.weight.value])).toEqual([
      [0, 5],
      [400, 4],
      [200, 2],
    ]);
  });

  it('range: from inclusive, to exclusive, OpenSearch keys, sorted by from then to', async () => {
    const aggs = {
      r: { range: { field: 'duration_ms', ranges: [{ from: 300 }, { to: 100 }, { from: 100, to: 300 }] }, aggs: { weight: { sum: { field: 'weight' } } } },
    };
    expect(await aggregate(index, { aggs })).toEqual({
      r: {
        buckets: [
          { key: '*-100.0', to: 100, doc_count: 1, weight: { value: 1 } },
          { key: '100.0-300.0', from: 100, to: 300, doc_count: 3, weight: { value: 6 } },
          { key: '300.0-*', from: 300, doc_count: 2, weight: { value: 4 } },
        ],
      },
    });
  });

  it('range: keyed, named keys, large bounds in Java notation, empty ranges', async () => {
    const aggs = { r: { range: { field: 'duration_ms', keyed: true, ranges: [{ key: 'fast', to: 100 }, { from: 1e7 }, { from: 1000, to: 2000 }] } } };
    expect(await aggregate(index, { aggs })).toEqual({
      r: {
        buckets: {
          fast: { to: 100, doc_count: 1 },
          '1000.0-2000.0': { from: 1000, to: 2000, doc_count: 0 },
          '1.0E7-*': { from: 1e7, doc_count: 0 },
        },
      },
    });
  });

  it('range on a date field: date bounds and *_as_string', async () => {
    const aggs = { r: { range: { field: 'time', ranges: [{ to: '2026-03-03' }, { from: '2026-03-03', to: '2026-03-05T00:00:00Z' }] } } };
    const from = Date.parse('2026-03-03T00:00:00.000Z');
    const to = Date.parse('2026-03-05T00:00:00.000Z');
    expect(await aggregate(index, { aggs })).toEqual({
      r: {
        buckets: [
          { key: '*-2026-03-03T00:00:00.000Z', to: from, to_as_string: '2026-03-03T00:00:00.000Z', doc_count: 2 },
          {
            key: '2026-03-03T00:00:00.000Z-2026-03-05T00:00:00.000Z',
            from,
            from_as_string: '2026-03-03T00:00:00.000Z',
            to,
            to_as_string: '2026-03-05T00:00:00.000Z',
            doc_count: 2,
          },
        ],
      },
    });
  });

  it('filter: one bucket with its sub-aggregations', async () => {
    const aggs = {
      gets: { filter: { term: { 'request.verb': 'GET' } }, aggs: { weight: { sum: { field: 'weight' } }, statuses: { terms: { field: 'response.status' } } } },
    };
    const result = await aggregate(index, { aggs });
    expect(result.gets.doc_count).toBe(4);
    expect(result.gets.weight).toEqual({ value: 8 });
    expect(keysAndCounts(result.gets.statuses)).toEqual([
      [200, 3],
      [500, 1],
    ]);
  });

  it('filters: named buckets in key order with the other bucket last; anonymous ones as a list', async () => {
    const named = {
      f: {
        filters: { filters: { gets: { term: { 'request.verb': 'GET' } }, errors: { range: { 'response.status': { gte: 400 } } } }, other_bucket_key: 'rest' },
        aggs: { weight: { sum: { field: 'weight', missing: 1 } } },
      },
    };
    const result = await aggregate(index, { aggs: named });
    expect(result).toEqual({
      f: {
        buckets: { errors: { doc_count: 2, weight: { value: 7 } }, gets: { doc_count: 4, weight: { value: 8 } }, rest: { doc_count: 1, weight: { value: 1 } } },
      },
    });
    expect(Object.keys(result.f.buckets)).toEqual(['errors', 'gets', 'rest']);
    const anonymous = { f: { filters: { filters: [{ term: { 'request.verb': 'POST' } }, { term: { 'request.verb': 'PATCH' } }], other_bucket: true } } };
    expect(await aggregate(index, { aggs: anonymous })).toEqual({ f: { buckets: [{ doc_count: 1 }, { doc_count: 0 }, { doc_count: 5 }] } });
  });

  it('refuses buckets beyond the cap before making them', async () => {
    const failure = await failureOf(aggregate(index, { aggs: { tiny: { histogram: { field: 'duration_ms', interval: 0.001 } } } }));
    expect(failure).toMatchObject({ status: 400, details: [{ field: 'aggs.tiny' }] });
  });
});
