import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { createDuckDbSearchIndex } from '../../../functions/search/duckdb/duckdb-index';
import { SEARCH_TABLES, quoteIdentifier, rowOf } from '../../../functions/search/duckdb/tables';
import { eventDocument, profileDocument } from '../../../functions/search/index-documents';
import type { IndexDocument, SearchableIndex, TenantScope } from '../../../functions/search/port';
import { parseSearchRequest } from '../../../functions/search/dsl';
import { insertOlderEventRows, olderTableSql } from './support/older-layouts';
import { folderPerTest } from './support/temp-folder';

/**
 * Rows carry their tenant's number and every scan filters on it (tenant-numbers.ts): each tenant
 * sees exactly its own rows, in new files and in files numbered when they were opened.
 */

const ACME = { org_id: 'org-1', app_id: 'app-1' };
const ACME_STAGING = { org_id: 'org-1', app_id: 'app-2' };
const GLOBEX = { org_id: 'org-2', app_id: 'app-1' };

const call = (scope: TenantScope, id: string, hour = 8): IndexDocument =>
  eventDocument(scope, 'event', {
    id,
    time: new Date(Date.UTC(2024, 1, 10, hour)).toISOString(),
    received_at: new Date(Date.UTC(2024, 1, 10, hour)).toISOString(),
    data: { request: { time: new Date(Date.UTC(2024, 1, 10, hour)).toISOString(), uri: '/x', verb: 'GET' }, user_id: `${scope.app_id}-user` },
  });

async function idsSeenBy(index: SearchableIndex, scope: TenantScope): Promise<string[]> {
  const ctx = { scope, kind: 'events' as const, timeZone: 'UTC', now: new Date('2024-03-01T00:00:00.000Z') };
  const response = await index.search(ctx, parseSearchRequest({ size: 100, sort: ['_id'], aggs: { users: { terms: { field: 'user_id' } } } }, 'events'));
  const users = (response.aggregations?.['users'] as { buckets: { key: string }[] } | undefined)?.buckets.map(({ key }) => key);
  // Hits and aggregations are separate statements: both must keep to the tenant.
  expect(users).toEqual(response.hits.hits.length > 0 ? [`${scope.app_id}-user`] : []);
  return response.hits.hits.map((hit) => hit._id);
}

describe('tenant numbers of the DuckDB search tables', () => {
  const folder = folderPerTest('duckdb-tenants-');

  it('numbers the tenants of a file written before them, and keeps each to its own rows after', async () => {
    const path = folder.path('older.duckdb');
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    for (const table of Object.values(SEARCH_TABLES)) await connection.run(olderTableSql(table));
    await insertOlderEventRows(connection, [call(ACME, 'a1'), call(GLOBEX, 'g1'), call(ACME, 'a2', 9), call(ACME_STAGING, 's1')]);
    connection.closeSync();
    instance.closeSync();

    const index = await createDuckDbSearchIndex({ path });
    expect(await idsSeenBy(index, ACME)).toEqual(['a1', 'a2']);
    expect(await idsSeenBy(index, ACME_STAGING)).toEqual(['s1']);
    expect(await idsSeenBy(index, GLOBEX)).toEqual(['g1']);
    // A tenant first written now gets a number of its own; one never written sees nothing.
    const initech = { org_id: 'org-3', app_id: 'app-1' };
    expect(await idsSeenBy(index, initech)).toEqual([]);
    expect((await index.index([call(initech, 'i1'), call(GLOBEX, 'g2')])).written).toBe(2);
    expect(await idsSeenBy(index, initech)).toEqual(['i1']);
    expect(await idsSeenBy(index, GLOBEX)).toEqual(['g1', 'g2']);
    expect(await index.count(ACME, 'events')).toBe(2);
    expect(await index.count({ org_id: 'org-4', app_id: 'app-1' }, 'events')).toBe(0);
    await index.close();

    const check = await DuckDBInstance.create(path);
    const checkConnection = await check.connect();
    const numbers = await checkConnection.runAndReadAll(
      `SELECT org_id, app_id, tenant_number, (SELECT count(*) FROM events e WHERE e.tenant_number = t.tenant_number) AS events FROM tenants t ORDER BY tenant_number`,
    );
    expect(numbers.getRowObjectsJS()).toEqual([
      { org_id: 'org-1', app_id: 'app-1', tenant_number: 1, events: 2n },
      { org_id: 'org-1', app_id: 'app-2', tenant_number: 2, events: 1n },
      { org_id: 'org-2', app_id: 'app-1', tenant_number: 3, events: 2n },
      { org_id: 'org-3', app_id: 'app-1', tenant_number: 4, events: 1n },
    ]);
    checkConnection.closeSync();
    check.closeSync();
  });

  it('numbers profiles too, and a profile of a tenant with no events yet', async () => {
    const index = await createDuckDbSearchIndex({ path: ':memory:' });
    const user = (scope: TenantScope) =>
      profileDocument(scope, 'users', 'u1', { user_id: 'u1', metadata: { email: `${scope.app_id}@example.com` } }, 1, '2024-02-01T00:00:00.000Z');
    expect((await index.index([user(ACME), user(GLOBEX)])).written).toBe(2);
    for (const scope of [ACME, GLOBEX]) {
      const ctx = { scope, kind: 'users' as const, timeZone: 'UTC', now: new Date('2024-03-01T00:00:00.000Z') };
      const found = await index.search(ctx, parseSearchRequest({ query: { match_all: {} } }, 'users'));
      expect(found.hits.hits.map((hit) => hit._source)).toMatchObject([{ metadata: { email: `${scope.app_id}@example.com` } }]);
    }
    await index.close();
  });

  it('each tenant counts exactly its own events, whatever tenants share an org or an app, across a reopen (property)', async () => {
    const scopes = [ACME, ACME_STAGING, GLOBEX, { org_id: 'org-2', app_id: 'app-2' }, { org_id: 'org-1\u0000', app_id: 'app-1' }];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.record({ tenant: fc.nat({ max: scopes.length - 1 }), id: fc.nat({ max: 8 }) }), { maxLength: 12 }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.nat({ max: 3 }),
        async (batches, reopenAfter) => {
          const path = folder.path(`property-${run++}.duckdb`);
          let index = await createDuckDbSearchIndex({ path });
          const expected = scopes.map(() => new Set<string>());
          for (const [position, batch] of batches.entries()) {
            await index.index(batch.map(({ tenant, id }) => call(scopes[tenant]!, `e${id}`)));
            for (const { tenant, id } of batch) expected[tenant]!.add(`e${id}`);
            if (position === reopenAfter) {
              await index.close();
              index = await createDuckDbSearchIndex({ path });
            }
          }
          for (const [tenant, scope] of scopes.entries()) {
            expect(await index.count(scope, 'events')).toBe(expected[tenant]!.size);
            expect(await idsSeenBy(index, scope)).toEqual([...expected[tenant]!].sort());
          }
          await index.close();
        },
      ),
      { numRuns: 15 },
    );
  });

  it('never matches a row whose tenant number is unknown to it', async () => {
    // Rows written straight into the table under a number no tenant has: no scope can reach them.
    const path = folder.path('stray.duckdb');
    const index = await createDuckDbSearchIndex({ path });
    await index.index([call(ACME, 'a1')]);
    await index.close();
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    const row = rowOf(SEARCH_TABLES.events, call(GLOBEX, 'stray'), 99);
    await connection.run(`INSERT INTO ${quoteIdentifier('events')} VALUES (${row.map((_, i) => `$${i + 1}`).join(', ')})`, row);
    connection.closeSync();
    instance.closeSync();
    const reopened = await createDuckDbSearchIndex({ path });
    expect(await idsSeenBy(reopened, GLOBEX)).toEqual([]);
    expect(await idsSeenBy(reopened, ACME)).toEqual(['a1']);
    await reopened.close();
  });
});
