import { DuckDBTimestampTZValue } from '@duckdb/node-api';
import {
  SEARCH_TABLES,
  columnsOf,
  createTableSql,
  STORAGE_VERSION,
  storageFeatures,
  documentJson,
  mergeFromStagingSql,
  storedEventKeysSql,
  rowOf,
  toColumnValue,
  valueAt,
} from '../../../functions/search/duckdb/tables';
import { eventDocument, profileDocument } from '../../../functions/search/index-documents';

describe('DuckDB search tables', () => {
  it('keys every table by tenant and id, with time, the hot columns and the document', () => {
    expect(columnsOf(SEARCH_TABLES.events).map((c) => c.name)).toEqual([
      'org_id',
      'app_id',
      'id',
      'tenant_number',
      'time',
      'event_type',
      'verb',
      'status',
      'route',
      'uri',
      'action_name',
      'user_id',
      'company_id',
      'subscription_id',
      'session_token',
      'weight',
      'duration_ms',
      'is_late',
      'received_at',
      'voided_at',
      'doc',
      'metadata',
    ]);
    expect(columnsOf(SEARCH_TABLES.users).map((c) => c.name)).toEqual([
      'org_id',
      'app_id',
      'id',
      'tenant_number',
      'time',
      'version',
      'user_id',
      'company_id',
      'email',
      'doc',
      'metadata',
    ]);
    for (const table of Object.values(SEARCH_TABLES)) {
      // Profiles are upserted by key; events keep no key index (their ids are looked for by time span).
      if (table.versioned) expect(createTableSql(table)).toContain('PRIMARY KEY (org_id, app_id, id)');
      else expect(createTableSql(table)).not.toContain('PRIMARY KEY');
      expect(createTableSql(table)).toContain('"time" TIMESTAMPTZ NOT NULL');
    }
  });

  it('keeps documents with zstd in files of storage version 1.2 or later, and leaves older files to DuckDB', () => {
    expect(storageFeatures('v1.2.0+')).toEqual({ zstd: true });
    expect(storageFeatures('v1.5.0+')).toEqual({ zstd: true });
    expect(storageFeatures('v2.0.0')).toEqual({ zstd: true });
    expect(storageFeatures('v1.0.0+')).toEqual({ zstd: false });
    expect(storageFeatures('v0.10.2')).toEqual({ zstd: false });
    expect(storageFeatures(undefined)).toEqual({ zstd: false });
    expect(storageFeatures(STORAGE_VERSION)).toEqual({ zstd: true });
    const events = createTableSql(SEARCH_TABLES.events, 'events', { zstd: true });
    expect(events).toContain('"doc" JSON NOT NULL USING COMPRESSION zstd');
    expect(events).toContain('"metadata" JSON USING COMPRESSION zstd');
    expect(events).toContain('"id" VARCHAR NOT NULL,');
    expect(createTableSql(SEARCH_TABLES.events)).toContain('"doc" JSON NOT NULL,');
  });

  it("looks up an event write's stored ids within its time span and replaces profiles only with a newer version", () => {
    const events = storedEventKeysSql(SEARCH_TABLES.events, 'write_ids');
    expect(events).toBe(
      'SELECT org_id, app_id, id, epoch_ms("time") FROM "events" WHERE "time" >= $from AND "time" <= $to AND id IN (SELECT id FROM "write_ids")',
    );
    expect(() => mergeFromStagingSql(SEARCH_TABLES.events)).toThrow('appended, not merged');
    const users = mergeFromStagingSql(SEARCH_TABLES.users);
    // Columns by name, so a migrated file (metadata appended by ALTER TABLE) takes rows the same way.
    expect(users).toMatch(
      /^INSERT INTO "users" \("org_id", "app_id", "id", "tenant_number", "time", "version", .*"doc", "metadata"\) SELECT "org_id", .*"metadata" FROM "staging_users" ON CONFLICT/,
    );
    expect(users).toContain('DO UPDATE SET "time" = excluded."time", "version" = excluded."version"');
    expect(users).toContain('"doc" = excluded."doc", "metadata" = excluded."metadata" WHERE excluded.version > "users".version');
    expect(() => storedEventKeysSql(SEARCH_TABLES.users, 'write_ids')).toThrow('merged by version');
  });

  it("copies the document's metadata into its own column, and nothing when it has none", () => {
    const document = eventDocument({ org_id: 'o', app_id: 'a' }, 'event', {
      id: 'e1',
      time: '2026-01-01T00:00:00.000Z',
      received_at: '2026-01-01T00:00:00.000Z',
      data: { request: { time: '2026-01-01T00:00:00.000Z', uri: '/x', verb: 'GET' }, metadata: { plan: 'pro', n: [1, 2] } },
    });
    const row = rowOf(SEARCH_TABLES.events, document, 7);
    expect(row).toHaveLength(columnsOf(SEARCH_TABLES.events).length);
    expect(JSON.parse(row[row.length - 1] as string)).toEqual({ plan: 'pro', n: [1, 2] });
    const bare = rowOf(
      SEARCH_TABLES.companies,
      profileDocument({ org_id: 'o', app_id: 'a' }, 'companies', 'c1', { company_id: 'c1' }, 1, '2026-01-01T00:00:00.000Z'),
      7,
    );
    expect(bare[bare.length - 1]).toBeNull();
  });

  it('coerces values into column types the way OpenSearch coerces them into fields', () => {
    expect(toColumnValue('VARCHAR', 'x')).toBe('x');
    expect(toColumnValue('VARCHAR', 42)).toBe('42');
    expect(toColumnValue('VARCHAR', { a: 1 })).toBeNull();
    expect(toColumnValue('INTEGER', 201)).toBe(201);
    expect(toColumnValue('INTEGER', '404')).toBe(404);
    expect(toColumnValue('INTEGER', 2.9)).toBe(2);
    expect(toColumnValue('INTEGER', 2 ** 40)).toBeNull();
    expect(toColumnValue('INTEGER', 'abc')).toBeNull();
    expect(toColumnValue('INTEGER', '')).toBeNull();
    expect(toColumnValue('BIGINT', 7)).toBe(7n);
    expect(toColumnValue('DOUBLE', 1.5)).toBe(1.5);
    expect(toColumnValue('DOUBLE', Number.NaN)).toBeNull();
    expect(toColumnValue('BOOLEAN', 'true')).toBe(true);
    expect(toColumnValue('BOOLEAN', 1)).toBeNull();
    expect(toColumnValue('TIMESTAMPTZ', '2024-01-01T00:00:00.123Z')).toEqual(new DuckDBTimestampTZValue(1704067200123000n));
    expect(toColumnValue('TIMESTAMPTZ', 'soon')).toBeNull();
  });

  it('reads nested paths and stops at anything that is not an object', () => {
    const source = { request: { verb: 'GET' }, list: [{ a: 1 }] };
    expect(valueAt(source, ['request', 'verb'])).toBe('GET');
    expect(valueAt(source, ['request', 'verb', 'length'])).toBeUndefined();
    expect(valueAt(source, ['list', '0'])).toBeUndefined();
  });

  it('writes documents as JSON DuckDB accepts, touching only invalid Unicode', () => {
    expect(documentJson({ a: 'plain', b: '😀', c: 'back\\ud800slash' })).toBe(JSON.stringify({ a: 'plain', b: '😀', c: 'back\\ud800slash' }));
    expect(JSON.parse(documentJson({ a: 'x\ud800y', b: '\udc00' }))).toEqual({ a: 'x\ufffdy', b: '\ufffd' });
  });
});
