import { createDuckDbSearchIndex } from '../../../../functions/search/duckdb/duckdb-index';
import type { SearchableIndex } from '../../../../functions/search/port';
import { parseQuery, parseSearchRequest } from '../../../../functions/search/dsl';
import { context, event, OTHER_APP, profile, TENANT } from './fixture';

/** The DuckDB adapter's search side: search, countMatching, delete and deleteMatching. */

let index: SearchableIndex;
beforeEach(async () => {
  index = await createDuckDbSearchIndex({ path: ':memory:' });
  const outcome = await index.index([
    ...event('e1', '2026-03-14T00:00:00.000Z', { user_id: 'u1', weight: 2 }),
    ...event('e2', '2026-03-14T01:00:00.000Z', { user_id: 'u1', weight: 3 }),
    ...event('e3', '2026-03-14T02:00:00.000Z', { user_id: 'u2' }),
    ...profile('users', 'u1', { user_id: 'u1', metadata: { email: 'u1@example.com' } }),
    ...profile('users', 'u2', { user_id: 'u2', metadata: { email: 'u2@example.com' } }),
  ]);
  expect(outcome.failures).toEqual([]);
});
afterEach(() => index.close());

test('search answers in OpenSearch’s shape, with aggregations over the same documents', async () => {
  const response = await index.search(context(), parseSearchRequest({ size: 1, aggs: { usage: { sum: { field: 'weight', missing: 1 } } } }, 'events'));
  expect(response).toMatchObject({ timed_out: false, hits: { total: 3, max_score: null }, aggregations: { usage: { value: 6 } } });
  expect(response.hits.hits.map((hit) => hit._id)).toEqual(['e3']);
  expect(response.took).toEqual(expect.any(Number));
});

test('profiles search by their typed columns', async () => {
  const response = await index.search(context('users'), parseSearchRequest({ query: { term: { 'metadata.email.raw': 'u2@example.com' } } }, 'users'));
  expect(response.hits.hits.map((hit) => hit._source)).toEqual([
    { user_id: 'u2', metadata: { email: 'u2@example.com' }, org_id: TENANT.org_id, app_id: TENANT.app_id },
  ]);
});

test('countMatching counts the query inside the tenant and window', async () => {
  expect(await index.countMatching(context(), parseQuery({ term: { user_id: 'u1' } }))).toBe(2);
  expect(await index.countMatching(context('events', { range: { from: new Date('2026-03-14T00:30:00Z') } }), parseQuery({ term: { user_id: 'u1' } }))).toBe(1);
});

test('delete removes one document of the tenant', async () => {
  expect(await index.delete(TENANT, 'users', 'u1')).toBe(true);
  expect(await index.delete(TENANT, 'users', 'u1')).toBe(false);
  expect(await index.get(TENANT, 'users', 'u1')).toBeUndefined();
  expect(await index.get(OTHER_APP, 'users', 'u1')).toBeDefined();
});

test('deleteMatching removes the tenant’s matching documents only', async () => {
  // Embedded: done before it answers, with no task to follow.
  expect(await index.deleteMatching(context(), parseQuery({ term: { user_id: 'u1' } }))).toEqual({ completed: true, deleted: 2, total: 2 });
  expect(await index.deletionProgress('any')).toBeUndefined();
  expect(await index.countMatching(context(), { type: 'match_all' })).toBe(1);
  expect(await index.countMatching({ ...context(), scope: OTHER_APP }, { type: 'match_all' })).toBe(3);
});
