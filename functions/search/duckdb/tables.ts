import { timestampTZValue, type DuckDBValue } from '@duckdb/node-api';
import { isoMillis } from '../index-documents';
import type { IndexDocument } from '../port';
import {
  METADATA_COLUMN,
  TENANT_NUMBER_COLUMN,
  TYPED_METADATA_FILLED,
  otherMetadataColumn,
  typedMetadataColumn,
  type ColumnType,
  type SearchTable,
} from './search-tables';

/** Rows, DDL and merges of the DuckDB search tables declared in search-tables.ts. */

export { METADATA_COLUMN, SEARCH_TABLES } from './search-tables';
export type { ColumnType, HotColumn, SearchTable } from './search-tables';

/**
 * Every column in table order: key, tenant number, time, version (profiles), hot columns, the
 * document, its metadata, then two columns per typed metadata key (typed-metadata.ts). The metadata
 * column and the typed keys come last because files gain them by ALTER TABLE, which appends (a file
 * from before tenant numbers gains that column last too: writes follow each file's stored order).
 */
export function columnsOf(table: SearchTable, typedKeys: readonly string[] = []): { name: string; type: ColumnType | 'JSON' }[] {
  return [
    { name: 'org_id', type: 'VARCHAR' },
    { name: 'app_id', type: 'VARCHAR' },
    { name: 'id', type: 'VARCHAR' },
    { name: TENANT_NUMBER_COLUMN, type: 'INTEGER' },
    { name: 'time', type: 'TIMESTAMPTZ' },
    ...(table.versioned ? [{ name: 'version', type: 'BIGINT' as const }] : []),
    ...table.hotColumns.map(({ name, type }) => ({ name, type })),
    { name: 'doc', type: 'JSON' },
    { name: METADATA_COLUMN, type: 'JSON' },
    ...typedKeys.flatMap((key) => [
      { name: typedMetadataColumn(key), type: 'VARCHAR' as const },
      { name: otherMetadataColumn(key), type: 'JSON' as const },
    ]),
  ];
}

/**
 * What a file's storage version lets a table use. Files DuckDB writes at storage version 1.2 or
 * later can keep a column with zstd. Measured at 1 M events (bytes an event; a scan of every value):
 * - the events' `doc` (the whole document, about 1.5 KB of JSON): 772 with DuckDB's own choice (FSST),
 *   111 with zstd, and reads faster too (a page of 100 hits 86 ms against 137, a scan of every
 *   document 478 against 735), as zstd decompresses faster than FSST for strings this long;
 * - `metadata` (the JSON object filters on untyped keys read): 39 with FSST, 19.5 with zstd, a scan
 *   36 ms against 23.
 * Other columns take DuckDB's choice: ids 22 with FSST against 41 uncompressed (a scan 14 ms
 * against 4), user ids 4.4 against 13 (grouping by them 21 ms against 18); zstd was larger and
 * slower for both. Older files keep FSST, since DuckDB cannot change a column's compression in place.
 */
const ZSTD_COLUMNS: ReadonlySet<string> = new Set(['doc', METADATA_COLUMN]);

export interface StorageFeatures {
  readonly zstd: boolean;
}

/** The storage version new files are written at (DuckDBInstance's storage_compatibility_version). */
export const STORAGE_VERSION = 'v1.2.0';

/** Whether a file of `version` (duckdb_databases().tags, such as `v1.2.0+`) can hold zstd columns. */
export function storageFeatures(version: string | undefined): StorageFeatures {
  const [major = 0, minor = 0] = (version ?? '')
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10));
  return { zstd: major > 1 || (major === 1 && minor >= 2) };
}

export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

const KEY_COLUMNS = new Set(['org_id', 'app_id', 'id', TENANT_NUMBER_COLUMN, 'time']);

/**
 * Profiles are keyed by (org_id, app_id, id): a newer version replaces the row. Events have no key
 * index: an index over every event ever stored grew memory by about 3 GB per million events and
 * slowed each write as it grew, while an event's id already fixes its time (the collector stamps
 * both once; retries and replays carry the same item), so a write only needs to look for its ids
 * among the rows of its own time span, which DuckDB's per-row-group min/max of `time` narrows to
 * the few row groups that hold that span (storedEventKeysSql).
 */
export function createTableSql(table: SearchTable, name: string = table.name, storage: StorageFeatures = { zstd: false }): string {
  const columns = columnsOf(table).map(({ name: column, type }) => {
    const notNull = KEY_COLUMNS.has(column) || column === 'version' || column === 'doc' ? ' NOT NULL' : '';
    const compression = storage.zstd && ZSTD_COLUMNS.has(column) ? ' USING COMPRESSION zstd' : '';
    return `${quoteIdentifier(column)} ${type}${notNull}${compression}`;
  });
  return `CREATE TABLE IF NOT EXISTS ${quoteIdentifier(name)} (${columns.join(', ')}${table.versioned ? ', PRIMARY KEY (org_id, app_id, id)' : ''})`;
}

/**
 * A file written before events lost their key index gets its events table rebuilt without it (in
 * time order, so the min/max of each row group stays narrow); run in one transaction.
 */
export function dropEventKeySql(table: SearchTable, storage: StorageFeatures): string[] {
  const rebuilt = `${table.name}_rebuilt`;
  const names = columnsOf(table)
    .map(({ name }) => quoteIdentifier(name))
    .join(', ');
  return [
    createTableSql(table, rebuilt, storage),
    `INSERT INTO ${quoteIdentifier(rebuilt)} (${names}) SELECT ${names} FROM ${quoteIdentifier(table.name)} ORDER BY "time"`,
    `DROP TABLE ${quoteIdentifier(table.name)}`,
    `ALTER TABLE ${quoteIdentifier(rebuilt)} RENAME TO ${quoteIdentifier(table.name)}`,
  ];
}

/**
 * A hot column a file from an older version stores as DOUBLE where the table now declares BIGINT
 * (duration_ms) is converted in place, each value truncated toward zero as `toColumnValue` does; a
 * value beyond the safe integers becomes NULL, as it would be written now.
 */
export function retypeToBigintSql(table: SearchTable, column: string): string {
  const name = quoteIdentifier(column);
  return (
    `ALTER TABLE ${quoteIdentifier(table.name)} ALTER COLUMN ${name} SET DATA TYPE BIGINT ` +
    `USING CASE WHEN abs(trunc(${name})) <= ${Number.MAX_SAFE_INTEGER} THEN CAST(trunc(${name}) AS BIGINT) END`
  );
}

/**
 * Brings a table of a file written by an older version up to `columnsOf`: the metadata column is
 * added and filled from each stored document. Run in one transaction, so a file is never left
 * with the column but without its values.
 */
export function addMetadataColumnSql(table: SearchTable): string[] {
  const target = quoteIdentifier(table.name);
  const metadata = quoteIdentifier(METADATA_COLUMN);
  return [`ALTER TABLE ${target} ADD COLUMN ${metadata} JSON`, `UPDATE ${target} SET ${metadata} = json_extract("doc", '$.${METADATA_COLUMN}')`];
}

/** Profiles are appended here first, then merged with one INSERT ... ON CONFLICT (appenders cannot skip older versions). */
export const stagingTableName = (table: SearchTable): string => `staging_${table.name}`;

export function createStagingTableSql(table: SearchTable): string {
  // The document is staged as text; the INSERT into the JSON column validates it.
  const columns = columnsOf(table).map(({ name, type }) => `${quoteIdentifier(name)} ${type === 'JSON' ? 'VARCHAR' : type}`);
  return `CREATE OR REPLACE TEMP TABLE ${quoteIdentifier(stagingTableName(table))} (${columns.join(', ')})`;
}

/**
 * Profiles: a staged row replaces the stored one only with a strictly newer version. DuckDB reports
 * the rows actually inserted or updated.
 */
export function mergeFromStagingSql(table: SearchTable): string {
  if (!table.versioned) throw new Error(`${table.name} rows are appended, not merged`);
  const target = quoteIdentifier(table.name);
  // Columns by name: a migrated file's column order need not be the one a new file gets.
  const names = columnsOf(table)
    .map(({ name }) => quoteIdentifier(name))
    .join(', ');
  const updated = columnsOf(table)
    .filter(({ name }) => !['org_id', 'app_id', 'id', TENANT_NUMBER_COLUMN].includes(name))
    .map(({ name }) => `${quoteIdentifier(name)} = excluded.${quoteIdentifier(name)}`);
  return (
    `INSERT INTO ${target} (${names}) SELECT ${names} FROM ${quoteIdentifier(stagingTableName(table))} ON CONFLICT (org_id, app_id, id) ` +
    `DO UPDATE SET ${updated.join(', ')} WHERE excluded.version > ${target}.version`
  );
}

/**
 * Events: which of a write's ids (in `idsTable`) are stored already, with their time, so a replay cannot
 * overwrite or double-count. `$from`/`$to` (the write's earliest and latest time) are constants, so
 * DuckDB reads only the row groups whose times overlap them.
 */
export function storedEventKeysSql(table: SearchTable, idsTable: string): string {
  if (table.versioned) throw new Error(`${table.name} rows are merged by version`);
  return (
    `SELECT org_id, app_id, id, epoch_ms("time") FROM ${quoteIdentifier(table.name)} ` +
    `WHERE "time" >= $from AND "time" <= $to AND id IN (SELECT id FROM ${quoteIdentifier(idsTable)})`
  );
}

const INT32_MAX = 2 ** 31 - 1;

function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  // Numeric strings are coerced, as OpenSearch coerces them into numeric fields.
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

export function toColumnValue(type: ColumnType, value: unknown): DuckDBValue {
  switch (type) {
    case 'VARCHAR':
      if (typeof value === 'string') return value;
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
    case 'INTEGER': {
      const n = numberOf(value);
      if (n === undefined) return null;
      const truncated = Math.trunc(n);
      return Math.abs(truncated) <= INT32_MAX ? truncated : null;
    }
    case 'BIGINT': {
      const n = numberOf(value);
      return n === undefined || !Number.isSafeInteger(Math.trunc(n)) ? null : BigInt(Math.trunc(n));
    }
    case 'DOUBLE':
      return numberOf(value) ?? null;
    case 'BOOLEAN':
      if (typeof value === 'boolean') return value;
      return value === 'true' ? true : value === 'false' ? false : null;
    case 'TIMESTAMPTZ': {
      const millis = isoMillis(value);
      return millis === undefined ? null : timestampTZValue(BigInt(millis) * 1000n);
    }
  }
}

export function valueAt(source: Readonly<Record<string, unknown>>, path: readonly string[]): unknown {
  let current: unknown = source;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

// JSON.stringify escapes a lone surrogate (as backslash-u-d8.., lower case), which DuckDB's JSON type
// rejects; a well-formed pair is written as the character itself. A plain substring search finds the
// (rare) candidates four times faster than a regular expression over every document.
const ESCAPED_SURROGATE = /\\ud[89a-f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A JSON value as text DuckDB accepts: lone surrogates (invalid Unicode) become U+FFFD. */
export function documentJson(source: unknown): string {
  const json = JSON.stringify(source);
  if (!json.includes('\\ud') || !ESCAPED_SURROGATE.test(json)) return json;
  return JSON.stringify(source, (_key, value: unknown) => (typeof value === 'string' ? wellFormed(value) : value));
}

/** A string as documentJson stores it inside a document: lone surrogates become U+FFFD. */
export const wellFormed = (value: string): string => value.replace(LONE_SURROGATE, '\ufffd');

/**
 * One row of the kind's table, in `columnsOf` order, for a document of the tenant numbered
 * `tenantNumber`. The document must have passed `documentProblem`.
 */
export function rowOf(table: SearchTable, document: IndexDocument, tenantNumber: number, typedKeys: readonly string[] = []): DuckDBValue[] {
  const row: DuckDBValue[] = [document.org_id, document.app_id, document.id, tenantNumber, toColumnValue('TIMESTAMPTZ', document.time)];
  if (table.versioned) row.push(toColumnValue('BIGINT', document.version));
  for (const column of table.hotColumns) row.push(toColumnValue(column.type, valueAt(document.source, column.path)));
  row.push(documentJson(document.source));
  const metadata = document.source[METADATA_COLUMN];
  row.push(metadata === undefined ? null : documentJson(metadata));
  for (const key of typedKeys) row.push(...typedMetadataValues(metadata, key));
  return row;
}

/**
 * A typed metadata key's two columns for one document: the string, or the JSON of any other value;
 * neither when the key is absent. The same split as typedMetadataFillSql's, from the document instead
 * of its stored JSON (which holds the string as wellFormed leaves it).
 */
export function typedMetadataValues(metadata: unknown, key: string): [string | null, string | null] {
  const value = metadataValue(metadata, key);
  if (value === undefined) return [null, null];
  return typeof value === 'string' ? [wellFormed(value), null] : [null, documentJson(value)];
}

/** Whether the document's metadata holds another value than a string under the key. */
export function holdsOtherValue(metadata: unknown, key: string): boolean {
  const value = metadataValue(metadata, key);
  return value !== undefined && typeof value !== 'string';
}

function metadataValue(metadata: unknown, key: string): unknown {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata) || !Object.hasOwn(metadata, key)) return undefined;
  return (metadata as Record<string, unknown>)[key];
}

/** Adds the typed metadata keys' columns to a table, empty: the writer fills them from then on, typedMetadataFillSql before. */
export function addTypedMetadataColumnsSql(table: SearchTable, keys: readonly string[]): string[] {
  const target = quoteIdentifier(table.name);
  return keys.flatMap((key) => [
    `ALTER TABLE ${target} ADD COLUMN ${quoteIdentifier(typedMetadataColumn(key))} VARCHAR`,
    `ALTER TABLE ${target} ADD COLUMN ${quoteIdentifier(otherMetadataColumn(key))} JSON`,
  ]);
}

/**
 * Fills the typed metadata keys' columns of the rows in [$from, $to) of rowid from each row's stored
 * metadata, in the split typedMetadataValues makes. Filling a row twice gives it the same values.
 */
export function typedMetadataFillSql(table: SearchTable, keys: readonly string[]): string {
  const metadata = quoteIdentifier(METADATA_COLUMN);
  // Each key passed TYPED_METADATA_KEY: a plain name, safe inside a JSON path.
  const type = (key: string) => `json_type(${metadata}, '$.${key}')`;
  const assignments = keys.flatMap((key) => [
    `${quoteIdentifier(typedMetadataColumn(key))} = CASE WHEN ${type(key)} = 'VARCHAR' THEN json_extract_string(${metadata}, '$.${key}') END`,
    `${quoteIdentifier(otherMetadataColumn(key))} = CASE WHEN ${type(key)} <> 'VARCHAR' THEN json_extract(${metadata}, '$.${key}') END`,
  ]);
  return `UPDATE ${quoteIdentifier(table.name)} SET ${assignments.join(', ')} WHERE rowid >= $from AND rowid < $to`;
}

/** Marks a typed metadata key's columns as filled for every row: queries may read them from then on. */
export const typedMetadataFilledSql = (table: SearchTable, key: string): string =>
  `COMMENT ON COLUMN ${quoteIdentifier(table.name)}.${quoteIdentifier(typedMetadataColumn(key))} IS '${TYPED_METADATA_FILLED}'`;
