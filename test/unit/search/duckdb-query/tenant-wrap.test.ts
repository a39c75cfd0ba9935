import { baseRelation, countMatching } from '../../../../functions/search/duckdb/query/search';
import { parseQuery } from '../../../../functions/search/dsl';
import { NO_TENANT } from '../../../../functions/search/duckdb/tenant-numbers';
import { context, event, OTHER_APP, OTHER_ORG, openDatabase, search, TENANT, tenantNumberOf, type TestDatabase } from './fixture';

/**
 * The tenant and window conditions come first and are ANDed with the whole query, so no clause can
 * widen them. Every tenant holds the same ids; the other tenants' documents carry their own markers.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await openDatabase([
    ...event('shared', '2026-03-14T00:00:00.000Z', { user_id: 'mine', metadata: { owner: 'me' } }, [TENANT]),
    ...event('shared', '2026-03-14T00:00:00.000Z', { user_id: 'theirs', metadata: { owner: 'app-2' } }, [OTHER_APP]),
    ...event('shared', '2026-03-14T00:00:00.000Z', { user_id: 'theirs', metadata: { owner: 'org-2' } }, [OTHER_ORG]),
    ...event('foreign-only', '2026-03-14T00:00:00.000Z', { user_id: 'theirs' }, [OTHER_APP, OTHER_ORG]),
    ...event('old', '2020-01-01T00:00:00.000Z', { user_id: 'mine' }, [TENANT]),
  ]);
});
afterAll(() => db.close());

const window = context('events', { range: { from: new Date('2026-01-01T00:00:00Z') } });

const HOSTILE: [string, unknown][] = [
  ['a top-level should with match_all', { bool: { should: [{ match_all: {} }, { term: { app_id: OTHER_APP.app_id } }] } }],
  ['minimum_should_match 0', { bool: { should: [{ term: { org_id: OTHER_ORG.org_id } }], minimum_should_match: 0 } }],
  ['minimum_should_match "0%" with a must_not', { bool: { must_not: { term: { user_id: 'mine' } }, should: [{ match_all: {} }], minimum_should_match: '0%' } }],
  ['ids of the other tenants’ documents', { ids: { values: ['foreign-only', 'shared'] } }],
  ['their tenant keys', { bool: { filter: [{ term: { org_id: OTHER_ORG.org_id } }, { term: { app_id: OTHER_ORG.app_id } }] } }],
  ['a range reaching back to 1970', { range: { time: { gte: 0 } } }],
  ['a query_string OR', { query_string: { query: 'app_id:app-2 OR org_id:org-2 OR *:*' } }],
  ['quotes in values', { term: { user_id: "x' OR '1'='1" } }],
  ['quotes in a field name', { term: { "metadata.o'wner": "') OR TRUE --" } }],
  ['a wildcard on the tenant keys', { wildcard: { app_id: '*' } }],
  ['must_not of the tenant', { bool: { must_not: { term: { app_id: TENANT.app_id } } } }],
];

test.each(HOSTILE)('%s cannot see another tenant', async (_name, query) => {
  const response = await search(db, { query, size: 100 }, window);
  for (const hit of response.hits.hits) expect(hit._source).toMatchObject({ org_id: TENANT.org_id, app_id: TENANT.app_id });
  expect(response.hits.hits.map((hit) => hit._id).filter((id) => id !== 'shared')).toEqual([]);
  expect(response.hits.total).toBeLessThanOrEqual(1);
  expect(await countMatching(db.run, window, parseQuery(query))).toBe(response.hits.total);
});

test('post_filter cannot add documents', async () => {
  const response = await search(db, { post_filter: { bool: { should: [{ term: { app_id: OTHER_APP.app_id } }, { match_all: {} }] } }, size: 100 }, window);
  expect(response.hits.hits.map((hit) => hit._source?.metadata)).toEqual([{ owner: 'me' }]);
});

test('the window applies outside the query', async () => {
  expect((await search(db, { query: { ids: { values: ['old'] } } }, window)).hits.total).toBe(0);
  expect((await search(db, { query: { ids: { values: ['old'] } } })).hits.total).toBe(1);
});

test('the base relation puts the tenant and window first and the query in parentheses', () => {
  const base = baseRelation(window, parseQuery({ bool: { should: [{ match_all: {} }, { term: { user_id: 'x' } }] } }));
  // Voided events are left out with the tenant, before anything the query says.
  expect(base.fromWhereSql).toMatch(/^FROM "events" d WHERE d\."tenant_number" = \$1 AND d\."voided_at" IS NULL AND d\."time" >= \$2 AND \(.*\)$/);
  expect(base.params.values.slice(0, 1)).toEqual([tenantNumberOf(TENANT)]);
});

test('a tenant without rows has no number and sees nothing, whatever it asks', async () => {
  const stranger = context('events', { scope: { org_id: 'org-9', app_id: 'app-1' } });
  expect(stranger.tenantNumber).toBe(NO_TENANT);
  const response = await search(db, { query: { bool: { should: [{ match_all: {} }, { ids: { values: ['shared', 'old'] } }] } }, size: 100 }, stranger);
  expect(response.hits.total).toBe(0);
  expect(await countMatching(db.run, stranger, parseQuery({ match_all: {} }))).toBe(0);
});
