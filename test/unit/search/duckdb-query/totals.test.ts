import { runSearch, type AggregateFn } from '../../../../functions/search/duckdb/query/search';
import type { QueryRunner } from '../../../../functions/search/duckdb/query/sql';
import { parseSearchRequest } from '../../../../functions/search/dsl';
import { context, event, openDatabase, type TestDatabase } from './fixture';

/** hits.total without a count statement where the answer is already known. */

let db: TestDatabase;
let statements: string[];
let run: QueryRunner;
beforeAll(async () => {
  db = await openDatabase(Array.from({ length: 5 }, (_, i) => event(`e${i}`, `2026-03-1${i}T00:00:00.000Z`, { user_id: `u${i % 2}` })).flat());
});
beforeEach(() => {
  statements = [];
  run = (sql, params) => {
    statements.push(sql);
    return db.run(sql, params);
  };
});
afterAll(() => db.close());

const counted = () => statements.filter((sql) => sql.startsWith('SELECT count(*)')).length;
const aggregate =
  (docCount: number | undefined): AggregateFn =>
  async () => ({ aggregations: { n: { value: 1 } }, docCount });
const search = (body: unknown, aggregateFn: AggregateFn = aggregate(undefined)) => runSearch(run, context(), parseSearchRequest(body, 'events'), aggregateFn);

test('a first page that is not full is every match', async () => {
  expect((await search({ query: { term: { user_id: 'u1' } } })).hits.total).toBe(2);
  expect(counted()).toBe(0);
});

test('a full page, a later page or a search_after page counts', async () => {
  expect((await search({ size: 2 })).hits.total).toBe(5);
  expect((await search({ size: 2, from: 4 })).hits.total).toBe(5);
  expect((await search({ size: 10, sort: ['_id'], search_after: ['e3'] })).hits.total).toBe(5);
  expect(counted()).toBe(3);
});

test('the aggregations’ row count answers the total unless a post_filter narrows the hits', async () => {
  const response = await search({ size: 0, aggs: { n: { value_count: { field: 'user_id' } } } }, aggregate(5));
  expect(response).toMatchObject({ hits: { total: 5, hits: [] }, aggregations: { n: { value: 1 } } });
  expect(counted()).toBe(0);
  expect((await search({ size: 0, track_total_hits: 3, aggs: { n: { value_count: { field: 'user_id' } } } }, aggregate(5))).hits.total).toBe(3);
  expect(
    (await search({ size: 0, post_filter: { term: { user_id: 'u0' } }, aggs: { n: { value_count: { field: 'user_id' } } } }, aggregate(5))).hits.total,
  ).toBe(3);
  expect((await search({ size: 0, aggs: { n: { value_count: { field: 'user_id' } } } }, aggregate(undefined))).hits.total).toBe(5);
  expect(counted()).toBe(2);
});

test('track_total_hits: a number caps even a complete first page; false counts nothing and reports what the page proves', async () => {
  expect((await search({ size: 10, track_total_hits: 2 })).hits.total).toBe(2);
  expect((await search({ size: 2, track_total_hits: 3 })).hits.total).toBe(3);
  expect((await search({ size: 2, track_total_hits: 30 })).hits.total).toBe(5);
  expect(counted()).toBe(2);
  expect((await search({ size: 2, from: 2, track_total_hits: false })).hits.total).toBe(4);
  expect((await search({ size: 2, from: 10, track_total_hits: false })).hits.total).toBe(0);
  expect((await search({ size: 0, track_total_hits: false, aggs: { n: { value_count: { field: 'user_id' } } } }, aggregate(5))).hits.total).toBe(0);
  expect(counted()).toBe(2);
});
