import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { createDuckDbSearchIndex } from '../../../functions/search/duckdb/duckdb-index';
import { eventDocument, profileDocument } from '../../../functions/search/index-documents';
import { SEARCH_TABLES, columnsOf, quoteIdentifier } from '../../../functions/search/duckdb/tables';
import { insertOlderEventRows, olderEventColumns, olderEventRow, olderTableSql } from './support/older-layouts';
import type { IndexDocument, SearchContext } from '../../../functions/search/port';
import { parseSearchRequest } from '../../../functions/search/dsl';
import { folderPerTest } from './support/temp-folder';

const scope = { org_id: 'org-1', app_id: 'app-1' };

function apiCall(id: string, time: string, data: Record<string, unknown> = {}, tenant = scope): IndexDocument {
  return eventDocument(tenant, 'event', {
    id,
    time,
    received_at: time,
    late: true,
    data: {
      request: { time, uri: `https://api.example.com/v1/orders/${id}?x=1`, verb: 'DELETE', headers: {} },
      response: { time: new Date(Date.parse(time) + 125).toISOString(), status: 404, headers: {} },
      user_id: 'u-9',
      company_id: 'c-9',
      subscription_id: 's-9',
      session_token: 'tok',
      weight: 3,
      ...data,
    },
  });
}

describe('DuckDB search index', () => {
  const folder = folderPerTest('duckdb-index-');

  it('keeps its data in the file across a close and a reopen', async () => {
    const path = folder.path('search.duckdb');
    const first = await createDuckDbSearchIndex({ path });
    const event = apiCall('kept', '2024-02-10T08:00:00.000Z');
    const profile = profileDocument(scope, 'users', 'u-9', { user_id: 'u-9' }, 7, '2024-02-10T08:00:00.000Z');
    await first.index([event, profile]);
    await first.close();

    const reopened = await createDuckDbSearchIndex({ path });
    expect(await reopened.count(scope, 'events')).toBe(1);
    expect(await reopened.get(scope, 'events', 'kept')).toEqual({ _id: 'kept', _source: event.source });
    // The stored version survives too: an older one is still refused after the reopen.
    expect(await reopened.index([{ ...profile, version: 6 }])).toEqual({ written: 0, failures: [] });
    await reopened.close();
  });

  it("keeps events' documents and metadata with zstd, ids and user ids with DuckDB's own choice, and reads them back", async () => {
    const path = folder.path('search.duckdb');
    const index = await createDuckDbSearchIndex({ path });
    const ids = Array.from({ length: 3000 }, (_, i) => `${i.toString(16).padStart(8, '0')}-3c2b-4e1f-9a7d-0b1c2d3e4f5a`);
    await index.index(ids.map((id, i) => apiCall(id, new Date(Date.UTC(2024, 1, 10) + i * 1000).toISOString(), { user_id: `user-${i % 700}` })));
    await index.close();

    const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    const compressions = await connection.runAndReadAll(
      `SELECT DISTINCT column_name, compression FROM pragma_storage_info('events') WHERE column_name IN ('id', 'user_id', 'doc', 'metadata') AND segment_type <> 'VALIDITY' ORDER BY ALL`,
    );
    const stored = await connection.runAndReadAll('SELECT id, user_id FROM events ORDER BY id');
    connection.closeSync();
    instance.closeSync();
    const byColumn = new Map<string, string[]>();
    for (const [column, compression] of compressions.getRows() as [string, string][]) byColumn.set(column, [...(byColumn.get(column) ?? []), compression]);
    expect(byColumn.get('doc')).toEqual(['ZSTD']);
    // Every row here has metadata: a column with values throughout, kept with zstd.
    expect(byColumn.get('metadata')).toEqual(['ZSTD']);
    // Ids are random and user ids repeat: FSST and a dictionary, never left uncompressed (22 and 4 bytes an event instead of 41 and 13).
    expect(byColumn.get('id')).not.toContain('Uncompressed');
    expect(byColumn.get('user_id')).not.toContain('Uncompressed');
    expect(stored.getRows()).toEqual(ids.map((id, i) => [id, `user-${i % 700}`]));
  });

  it('fills the typed columns the query compiler reads', async () => {
    const path = folder.path('search.duckdb');
    const index = await createDuckDbSearchIndex({ path });
    await index.index([
      apiCall('typed', '2024-02-10T08:00:00.250Z'),
      profileDocument(scope, 'users', 'u-9', { user_id: 'u-9', company_id: 'c-9', metadata: { email: 'nine@example.com' } }, 2, '2024-02-10T08:00:00.000Z'),
    ]);
    await index.close();

    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    const events = await connection.runAndReadAll(
      `SELECT epoch_ms("time") AS time_ms, event_type, verb, status, route, uri, user_id, company_id, subscription_id,
              session_token, weight, duration_ms, is_late, epoch_ms(received_at) AS received_ms, doc->>'$.request.verb' AS doc_verb
       FROM events`,
    );
    expect(events.getRowObjectsJS()).toEqual([
      {
        time_ms: BigInt(Date.parse('2024-02-10T08:00:00.250Z')),
        event_type: 'api_call',
        verb: 'DELETE',
        status: 404,
        route: '/v1/orders/typed',
        uri: 'https://api.example.com/v1/orders/typed?x=1',
        user_id: 'u-9',
        company_id: 'c-9',
        subscription_id: 's-9',
        session_token: 'tok',
        weight: 3,
        duration_ms: 125n,
        is_late: true,
        received_ms: BigInt(Date.parse('2024-02-10T08:00:00.250Z')),
        doc_verb: 'DELETE',
      },
    ]);
    const users = await connection.runAndReadAll('SELECT version, user_id, company_id, email FROM users');
    expect(users.getRowObjectsJS()).toEqual([{ version: 2n, user_id: 'u-9', company_id: 'c-9', email: 'nine@example.com' }]);
    connection.closeSync();
    instance.closeSync();
  });

  it("appends into the columns by name when a file lists the events table's columns in another order", async () => {
    const path = folder.path('reordered.duckdb');
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    const columns = columnsOf(SEARCH_TABLES.events).map(({ name, type }) => `${quoteIdentifier(name)} ${type}`);
    await connection.run(`CREATE TABLE events (${[...columns].reverse().join(', ')})`);
    connection.closeSync();
    instance.closeSync();

    const index = await createDuckDbSearchIndex({ path });
    expect((await index.index([apiCall('r1', '2024-02-10T08:00:00.000Z', { metadata: { plan: 'pro' } })])).written).toBe(1);
    expect((await index.index([apiCall('r1', '2024-02-10T08:00:00.000Z')])).written).toBe(0);
    const stored = await index.get(scope, 'events', 'r1');
    expect(stored?._source).toMatchObject({ request: { verb: 'DELETE' }, response: { status: 404 }, metadata: { plan: 'pro' } });
    const ctx: SearchContext = { scope, kind: 'events', timeZone: 'UTC', now: new Date('2024-03-01T00:00:00.000Z') };
    const body = { query: { bool: { filter: [{ term: { 'response.status': 404 } }, { term: { 'metadata.plan.raw': 'pro' } }] } } };
    const found = await index.search(ctx, parseSearchRequest(body, 'events'));
    expect(found.hits.hits.map((hit) => hit._id)).toEqual(['r1']);
    await index.close();
  });

  it('migrates a file written before the metadata column: adds it, backfills it, and searches it', async () => {
    const path = folder.path('old.duckdb');
    const old = [
      apiCall('pro', '2024-02-10T08:00:00.000Z', { metadata: { plan: 'pro', seats: 5, tags: ['a', 'b'] } }),
      apiCall('free', '2024-02-10T09:00:00.000Z', { metadata: { plan: 'free/é', seats: 1 } }),
      apiCall('none', '2024-02-10T10:00:00.000Z'),
    ];
    // The layout of earlier versions: no metadata column, rows positional.
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    for (const table of Object.values(SEARCH_TABLES)) {
      const ddl = olderTableSql(table);
      const oldDdl = ddl.replace(', "metadata" JSON', '');
      expect(oldDdl).not.toBe(ddl);
      await connection.run(oldDdl);
    }
    const oldColumns = olderEventColumns() - 1;
    for (const document of old) {
      const placeholders = Array.from({ length: oldColumns }, (_, position) => `$${position + 1}`);
      await connection.run(`INSERT INTO ${quoteIdentifier('events')} VALUES (${placeholders.join(', ')})`, olderEventRow(document).slice(0, oldColumns));
    }
    connection.closeSync();
    instance.closeSync();

    const ctx: SearchContext = { scope, kind: 'events', timeZone: 'UTC', now: new Date('2024-03-01T00:00:00.000Z') };
    const idsOf = async (index: Awaited<ReturnType<typeof createDuckDbSearchIndex>>, body: unknown) =>
      (await index.search(ctx, parseSearchRequest(body, 'events'))).hits.hits.map((hit) => hit._id);

    const migrated = await createDuckDbSearchIndex({ path });
    expect(await idsOf(migrated, { query: { term: { 'metadata.plan.raw': 'pro' } }, sort: ['_id'] })).toEqual(['pro']);
    // Backfilled by DuckDB, which writes `/` and `é` as they are, as JSON.stringify does.
    expect(await idsOf(migrated, { query: { terms: { 'metadata.plan.raw': ['free/é', 'none'] } }, sort: ['_id'] })).toEqual(['free']);
    expect(await idsOf(migrated, { query: { range: { 'metadata.seats': { gte: 2 } } }, sort: ['_id'] })).toEqual(['pro']);
    expect(await idsOf(migrated, { query: { exists: { field: 'metadata.seats' } }, sort: ['_id'] })).toEqual(['free', 'pro']);
    expect(await idsOf(migrated, { query: { term: { 'metadata.tags': 'b' } }, sort: ['_id'] })).toEqual(['pro']);
    expect(await idsOf(migrated, { sort: [{ 'metadata.seats': 'desc' }, '_id'] })).toEqual(['pro', 'free', 'none']);
    // Documents written after the migration land in the new column too.
    await migrated.index([apiCall('later', '2024-02-11T08:00:00.000Z', { metadata: { plan: 'pro' } })]);
    expect(await idsOf(migrated, { query: { term: { 'metadata.plan.raw': 'pro' } }, sort: ['_id'] })).toEqual(['later', 'pro']);
    const response = await migrated.search(ctx, parseSearchRequest({ size: 0, aggs: { plans: { terms: { field: 'metadata.plan.raw' } } } }, 'events'));
    expect(response.aggregations?.plans).toMatchObject({
      buckets: [
        { key: 'pro', doc_count: 2 },
        { key: 'free/é', doc_count: 1 },
      ],
    });
    await migrated.close();

    // A second open finds the column and leaves the file as it is.
    const reopened = await createDuckDbSearchIndex({ path });
    expect(await idsOf(reopened, { query: { term: { 'metadata.plan.raw': 'pro' } }, sort: ['_id'] })).toEqual(['later', 'pro']);
    await reopened.close();
    const check = await DuckDBInstance.create(path);
    const checkConnection = await check.connect();
    const rows = await checkConnection.runAndReadAll(`SELECT id, CAST(metadata AS VARCHAR) AS metadata FROM events ORDER BY id`);
    expect(rows.getRowObjectsJS()).toEqual([
      { id: 'free', metadata: '{"plan":"free/é","seats":1}' },
      { id: 'later', metadata: '{"plan":"pro"}' },
      { id: 'none', metadata: null },
      { id: 'pro', metadata: '{"plan":"pro","seats":5,"tags":["a","b"]}' },
    ]);
    checkConnection.closeSync();
    check.closeSync();
  });

  it('rebuilds a keyed events table of an older file without its key, and still stores each event once', async () => {
    const path = folder.path('keyed.duckdb');
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    for (const table of Object.values(SEARCH_TABLES)) {
      const ddl = olderTableSql(table);
      await connection.run(table.versioned ? ddl : ddl.replace(/\)$/, ', PRIMARY KEY (org_id, app_id, id))'));
    }
    const stored = [apiCall('a', '2024-02-10T08:00:00.000Z'), apiCall('b', '2024-02-12T08:00:00.000Z')];
    await insertOlderEventRows(connection, stored);
    const keys = async () =>
      Number(
        (
          await connection.runAndReadAll(`SELECT count(*) FROM duckdb_constraints() WHERE table_name = 'events' AND constraint_type = 'PRIMARY KEY'`)
        ).getRows()[0]![0],
      );
    expect(await keys()).toBe(1);
    connection.closeSync();
    instance.closeSync();

    const index = await createDuckDbSearchIndex({ path });
    // A replay of both (and one new event) writes only the new one; so does the same batch again.
    const replay = [...stored, apiCall('c', '2024-02-11T08:00:00.000Z')];
    expect((await index.index(replay)).written).toBe(1);
    expect((await index.index(replay)).written).toBe(0);
    expect(await index.count(scope, 'events')).toBe(3);
    expect((await index.get(scope, 'events', 'b', { time: new Date('2024-02-12T08:00:00.000Z') }))?._id).toBe('b');
    expect((await index.get(scope, 'events', 'b', { time: new Date('2023-01-01T00:00:00.000Z') }))?._id).toBe('b');
    expect(await index.get(scope, 'events', 'nope')).toBeUndefined();
    await index.close();
    const check = await DuckDBInstance.create(path);
    const checkConnection = await check.connect();
    expect(
      Number(
        (
          await checkConnection.runAndReadAll(`SELECT count(*) FROM duckdb_constraints() WHERE table_name = 'events' AND constraint_type = 'PRIMARY KEY'`)
        ).getRows()[0]![0],
      ),
    ).toBe(0);
    checkConnection.closeSync();
    check.closeSync();
  });

  it("converts an older file's DOUBLE duration_ms to BIGINT, truncating as it now writes, and keeps answering", async () => {
    const path = folder.path('double-durations.duckdb');
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    for (const table of Object.values(SEARCH_TABLES)) {
      const ddl = olderTableSql(table);
      await connection.run(table.versioned ? ddl : ddl.replace('"duration_ms" BIGINT', '"duration_ms" DOUBLE'));
    }
    await insertOlderEventRows(
      connection,
      ['a', 'b', 'c'].map((id) => apiCall(id, '2024-02-10T08:00:00.000Z')),
    );
    await connection.run(`UPDATE events SET duration_ms = CASE id WHEN 'a' THEN 99.9 WHEN 'b' THEN 250.5 ELSE -3.7 END`);
    connection.closeSync();
    instance.closeSync();

    const index = await createDuckDbSearchIndex({ path });
    await index.index([apiCall('d', '2024-02-11T08:00:00.000Z')]);
    const ctx: SearchContext = { scope, kind: 'events', timeZone: 'UTC', now: new Date('2024-03-01T00:00:00.000Z') };
    const answer = await index.search(
      ctx,
      parseSearchRequest(
        { size: 10, sort: ['_id'], query: { range: { duration_ms: { gte: 99 } } }, aggs: { p: { percentiles: { field: 'duration_ms', percents: [50] } } } },
        'events',
      ),
    );
    // Stored: 99, 250, -3 (truncated toward zero, as OpenSearch coerces a long) and 125 written after.
    expect(answer.hits.hits.map((hit) => hit._id)).toEqual(['a', 'b', 'd']);
    expect(answer.aggregations).toEqual({ p: { values: { '50.0': 125 } } });
    await index.close();
    const check = await DuckDBInstance.create(path);
    const checkConnection = await check.connect();
    const stored = await checkConnection.runAndReadAll(
      `SELECT (SELECT data_type FROM duckdb_columns() WHERE table_name = 'events' AND column_name = 'duration_ms') AS type, list(duration_ms ORDER BY id) AS values FROM events`,
    );
    expect(stored.getRowObjectsJS()).toEqual([{ type: 'BIGINT', values: [99n, 250n, -3n, 125n] }]);
    checkConnection.closeSync();
    check.closeSync();
  });

  it('stores every event once, whatever batches of replays and repeats bring it (property)', async () => {
    const index = await createDuckDbSearchIndex({ path: ':memory:' });
    let run = 0;
    const event = fc.record({ id: fc.integer({ min: 0, max: 30 }), hour: fc.integer({ min: 0, max: 72 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(event, { maxLength: 20 }), { maxLength: 6 }), async (batches) => {
        const app = { org_id: 'org-p', app_id: `app-${run++}` };
        // An event's id fixes its time, as the collector stamps both once.
        const at = new Map<number, number>();
        for (const batch of batches) {
          const documents = batch.map(({ id, hour }) => {
            if (!at.has(id)) at.set(id, hour);
            return apiCall(`e${id}`, new Date(Date.UTC(2024, 1, 1, at.get(id)!)).toISOString(), {}, app);
          });
          await index.index(documents);
        }
        expect(await index.count(app, 'events')).toBe(at.size);
      }),
      { numRuns: 40 },
    );
    await index.close();
  });

  it('serialises concurrent writers: every id counted once', async () => {
    const index = await createDuckDbSearchIndex({ path: ':memory:' });
    const batches = Array.from({ length: 12 }, (_, batch) =>
      Array.from({ length: 200 }, (_, n) => apiCall(`id-${(batch * 150 + n) % 1500}`, '2024-02-10T08:00:00.000Z')),
    );
    const outcomes = await Promise.all(batches.map((batch) => index.index(batch)));
    expect(outcomes.reduce((sum, outcome) => sum + outcome.written, 0)).toBe(1500);
    expect(outcomes.flatMap((outcome) => outcome.failures)).toEqual([]);
    expect(await index.count(scope, 'events')).toBe(1500);
    await index.close();
  });

  it('stores text that is not valid Unicode with the replacement character', async () => {
    const index = await createDuckDbSearchIndex({ path: ':memory:' });
    const document = apiCall('surrogate', '2024-02-10T08:00:00.000Z', { metadata: { note: 'a\ud800b', emoji: '😀' } });
    expect(await index.index([document])).toEqual({ written: 1, failures: [] });
    expect((await index.get(scope, 'events', 'surrogate'))?._source.metadata).toEqual({ note: 'a\ufffdb', emoji: '😀' });
    await index.close();
  });

  it('refuses work once closed', async () => {
    const index = await createDuckDbSearchIndex({ path: ':memory:' });
    await index.close();
    await index.close();
    await expect(index.count(scope, 'events')).rejects.toThrow('closed');
    await expect(index.index([apiCall('late', '2024-02-10T08:00:00.000Z')])).rejects.toThrow('closed');
  });

  it('answers concurrent reads on its several readers, each correctly, and close waits for them', async () => {
    const index = await createDuckDbSearchIndex({ path: ':memory:', readers: 2 });
    await index.index(Array.from({ length: 40 }, (_, i) => apiCall(`e-${i}`, `2024-02-${String(10 + (i % 10)).padStart(2, '0')}T08:00:00.000Z`)));
    const counts = Array.from({ length: 10 }, (_, day) =>
      index.count(scope, 'events', { from: new Date(Date.UTC(2024, 1, 10 + day)), to: new Date(Date.UTC(2024, 1, 11 + day)) }),
    );
    const gets = Array.from({ length: 10 }, (_, i) => index.get(scope, 'events', `e-${i}`));
    const closing = index.close();
    expect(await Promise.all(counts)).toEqual(Array.from({ length: 10 }, () => 4));
    expect((await Promise.all(gets)).map((doc) => doc?._id)).toEqual(Array.from({ length: 10 }, (_, i) => `e-${i}`));
    await closing;
    await expect(index.count(scope, 'events')).rejects.toThrow('closed');
  });

  it('finishes writes already queued when closed', async () => {
    const path = folder.path('search.duckdb');
    const index = await createDuckDbSearchIndex({ path });
    const pending = index.index([apiCall('queued', '2024-02-10T08:00:00.000Z')]);
    await index.close();
    expect(await pending).toEqual({ written: 1, failures: [] });
    const reopened = await createDuckDbSearchIndex({ path });
    expect(await reopened.count(scope, 'events')).toBe(1);
    await reopened.close();
  });
});
