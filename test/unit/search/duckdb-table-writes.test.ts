import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { TableWriter } from '../../../functions/search/duckdb/table-writes';
import { SEARCH_TABLES, createTableSql } from '../../../functions/search/duckdb/tables';
import { TenantNumbers, createTenantsTableSql } from '../../../functions/search/duckdb/tenant-numbers';
import { eventDocument, profileDocument } from '../../../functions/search/index-documents';
import { folderPerTest } from './support/temp-folder';

const scope = { org_id: 'org-w', app_id: 'app-w' };
const WRITES = 30;
const EVENTS_PER_WRITE = 2_000;

/** What DuckDB holds for in-memory tables: the temporary tables of the writer connection. */
async function inMemoryTableBytes(connection: DuckDBConnection): Promise<number> {
  const result = await connection.runAndReadAll(`SELECT memory_usage_bytes FROM duckdb_memory() WHERE tag = 'IN_MEMORY_TABLE'`);
  return Number(result.getRows()[0]?.[0] ?? 0);
}

describe('the DuckDB table writer', () => {
  const folder = folderPerTest('table-writes-');

  it('holds no memory for a write once it is done, however many writes come (the temporary tables of each are dropped)', async () => {
    const instance = await DuckDBInstance.create(folder.path('search.duckdb'));
    const connection = await instance.connect();
    try {
      await connection.run(createTenantsTableSql());
      const tenants = new TenantNumbers();
      await tenants.load(connection);
      const writer = new TableWriter(connection, tenants);
      for (const table of [SEARCH_TABLES.events, SEARCH_TABLES.users]) {
        await connection.run(createTableSql(table));
        await writer.prepare(table);
      }
      const held: number[] = [];
      for (let write = 0; write < WRITES; write += 1) {
        const events = Array.from({ length: EVENTS_PER_WRITE }, (_, i) => {
          const n = write * EVENTS_PER_WRITE + i;
          const time = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
          return eventDocument(scope, 'event', {
            id: `e-${n}`,
            time,
            received_at: time,
            data: { request: { time, uri: `https://api.example.com/v1/orders/${n}`, verb: 'GET' } },
          });
        });
        const users = Array.from({ length: 200 }, (_, i) =>
          profileDocument(scope, 'users', `u-${i}`, { user_id: `u-${i}`, metadata: { note: 'x'.repeat(500) } }, write + 1, '2026-01-01T00:00:00.000Z'),
        );
        expect(await writer.write(SEARCH_TABLES.events, events)).toBe(EVENTS_PER_WRITE);
        // Each write replaces every profile with a newer version.
        expect(await writer.write(SEARCH_TABLES.users, users)).toBe(200);
        // Rows written but not yet checkpointed are held in memory too; after a checkpoint, only what
        // the temporary tables hold is.
        await connection.run('CHECKPOINT');
        held.push(await inMemoryTableBytes(connection));
      }
      // Emptied rather than dropped, the tables held about 0.3 MB more after each of these writes.
      expect(held).toEqual(held.map(() => 0));
      const stored = await connection.runAndReadAll('SELECT count(*) FROM events');
      expect(Number(stored.getRows()[0]?.[0])).toBe(WRITES * EVENTS_PER_WRITE);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
