import type { DuckDBConnection } from '@duckdb/node-api';
import { TENANT_NUMBER_COLUMN } from './search-tables';
import { inTransaction } from './table-writes';
import { addTenantNumberColumnSql, type TenantNumbers } from './tenant-numbers';
import {
  METADATA_COLUMN,
  addMetadataColumnSql,
  dropEventKeySql,
  quoteIdentifier,
  retypeToBigintSql,
  storageFeatures,
  type SearchTable,
  type StorageFeatures,
} from './tables';

/** What the open file's storage version lets its tables use (tables.ts StorageFeatures). */
export async function fileStorageFeatures(writer: DuckDBConnection): Promise<StorageFeatures> {
  const stored = await writer.runAndReadAll(`SELECT tags['storage_version'] FROM duckdb_databases() WHERE database_name = current_database()`);
  return storageFeatures(String(stored.getRows()[0]?.[0] ?? ''));
}

/**
 * A file from an older version is brought up to date before any read or write: the metadata
 * column is added and backfilled, hot columns added since are added (NULL), DOUBLE columns now BIGINT are converted, the rows get their
 * tenant's number (tenant-numbers.ts), and the events table loses its key index (tables.ts).
 */
export async function migrateTable(writer: DuckDBConnection, tenants: TenantNumbers, table: SearchTable, storage: StorageFeatures): Promise<void> {
  // One read of the stored columns and their types serves both checks.
  const stored = await writer.runAndReadAll(
    `SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = $1`,
    [table.name],
  );
  const types = new Map(stored.getRows().map(([name, type]) => [String(name), String(type)]));
  if (!types.has(METADATA_COLUMN)) await inTransaction(writer, addMetadataColumnSql(table));
  // Hot columns added since the file was made (events' voided_at) are NULL in its rows, as they are in their documents.
  const missing = table.hotColumns.filter((column) => !types.has(column.name));
  if (missing.length > 0)
    await inTransaction(
      writer,
      missing.map((column) => `ALTER TABLE ${quoteIdentifier(table.name)} ADD COLUMN ${quoteIdentifier(column.name)} ${column.type}`),
    );
  const retyped = table.hotColumns.filter((column) => column.type === 'BIGINT' && types.get(column.name) === 'DOUBLE');
  if (retyped.length > 0)
    await inTransaction(
      writer,
      retyped.map((column) => retypeToBigintSql(table, column.name)),
    );
  if (!types.has(TENANT_NUMBER_COLUMN)) {
    // Numbered as the writer numbers them (in a stable order), then the column is added and filled.
    const found = await writer.runAndReadAll(`SELECT DISTINCT org_id, app_id FROM ${quoteIdentifier(table.name)} ORDER BY org_id, app_id`);
    await tenants.register(
      writer,
      found.getRows().map(([org, app]) => ({ org_id: String(org), app_id: String(app) })),
    );
    await inTransaction(writer, addTenantNumberColumnSql(table));
  }
  if (table.versioned) return;
  const keyed = await writer.runAndReadAll(`SELECT count(*) FROM duckdb_constraints() WHERE table_name = $1 AND constraint_type = 'PRIMARY KEY'`, [table.name]);
  if (Number(keyed.getRows()[0]?.[0] ?? 0) > 0) await inTransaction(writer, dropEventKeySql(table, storage));
}
