import { DuckDBInstance } from '@duckdb/node-api';
import { createDuckDbSearchIndex } from '../../../functions/search/duckdb/duckdb-index';
import { Int32Columns } from '../../../functions/search/duckdb/int32-columns';
import { SEARCH_TABLES, createTableSql } from '../../../functions/search/duckdb/tables';
import { parseSearchRequest } from '../../../functions/search/dsl';
import { eventDocument } from '../../../functions/search/index-documents';
import type { IndexDocument, SearchableIndex, SearchContext } from '../../../functions/search/port';
import { folderPerTest } from './support/temp-folder';

const scope = { org_id: 'org-1', app_id: 'app-1' };
const ctx: SearchContext = { scope, kind: 'events', timeZone: 'UTC', now: new Date('2024-03-01T00:00:00.000Z') };
/** 2^31 ms, the first duration an INTEGER cannot hold: about 24.9 days. */
const WIDE_MS = 2 ** 31;

function callTaking(id: string, durationMs: number): IndexDocument {
  const time = '2024-02-01T08:00:00.000Z';
  return eventDocument(scope, 'event', {
    id,
    time,
    received_at: time,
    data: {
      request: { time, uri: `https://api.example.com/v1/orders/${id}`, verb: 'GET', headers: {} },
      response: { time: new Date(Date.parse(time) + durationMs).toISOString(), status: 200, headers: {} },
    },
  });
}

async function percentiles(index: SearchableIndex): Promise<unknown> {
  const body = { size: 0, aggs: { p: { percentiles: { field: 'duration_ms', percents: [0, 50, 100] } } } };
  return (await index.search(ctx, parseSearchRequest(body, 'events'))).aggregations;
}

describe('BIGINT columns read as INTEGER while their values fit', () => {
  const folder = folderPerTest('duckdb-int32-');

  it('names duration_ms while every stored value fits, and drops it for a write bringing a wider one', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(createTableSql(SEARCH_TABLES.events));
    const columns = new Int32Columns();
    await columns.load(connection, SEARCH_TABLES.events);
    expect([...columns.of(SEARCH_TABLES.events)]).toEqual(['duration_ms']);
    expect(columns.widenFor(SEARCH_TABLES.events, [callTaking('a', 5), callTaking('b', -(2 ** 31))])).toBe(false);
    expect(columns.widenFor(SEARCH_TABLES.events, [callTaking('c', 5), callTaking('d', WIDE_MS)])).toBe(true);
    expect([...columns.of(SEARCH_TABLES.events)]).toEqual([]);
    await connection.run(`INSERT INTO events (org_id, app_id, id, tenant_number, "time", duration_ms, doc) VALUES ('o', 'a', 'x', 1, now(), ${WIDE_MS}, '{}')`);
    await columns.load(connection, SEARCH_TABLES.events);
    expect([...columns.of(SEARCH_TABLES.events)]).toEqual([]);
    connection.closeSync();
    instance.closeSync();
  });

  it('answers percentiles exactly before and after the first duration wider than an INTEGER, and after a restart', async () => {
    const path = folder.path('search.duckdb');
    const index = await createDuckDbSearchIndex({ path });
    await index.index([callTaking('a', 100), callTaking('b', 300)]);
    expect(await percentiles(index)).toEqual({ p: { values: { '0.0': 100, '50.0': 200, '100.0': 300 } } });
    // Read as INTEGER until now, a query would fail on this row; the write drops the narrower reading first.
    await index.index([callTaking('c', WIDE_MS)]);
    expect(await percentiles(index)).toEqual({ p: { values: { '0.0': 100, '50.0': 300, '100.0': WIDE_MS } } });
    await index.close();
    const reopened = await createDuckDbSearchIndex({ path });
    expect(await percentiles(reopened)).toEqual({ p: { values: { '0.0': 100, '50.0': 300, '100.0': WIDE_MS } } });
    await reopened.close();
  });
});
