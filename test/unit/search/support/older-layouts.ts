import type { DuckDBConnection } from '@duckdb/node-api';
import type { IndexDocument } from '../../../../functions/search/port';
import { TENANT_NUMBER_COLUMN } from '../../../../functions/search/duckdb/search-tables';
import { SEARCH_TABLES, columnsOf, createTableSql, rowOf, type SearchTable } from '../../../../functions/search/duckdb/tables';

/**
 * Search tables as files of earlier versions hold them, for migration tests: every earlier version
 * lacked the tenant number; a test removes what else its version lacked.
 */

/** The table's DDL before tenant numbers. */
export const olderTableSql = (table: SearchTable): string => createTableSql(table).replace(`, "${TENANT_NUMBER_COLUMN}" INTEGER NOT NULL`, '');

/** The events table's columns before tenant numbers. */
export const olderEventColumns = (): number => columnsOf(SEARCH_TABLES.events).length - 1;

/** A document's events row before tenant numbers, in that layout's column order. */
export function olderEventRow(document: IndexDocument): ReturnType<typeof rowOf> {
  const row = rowOf(SEARCH_TABLES.events, document, 0);
  row.splice(
    columnsOf(SEARCH_TABLES.events).findIndex(({ name }) => name === TENANT_NUMBER_COLUMN),
    1,
  );
  return row;
}

/** Writes documents as rows straight into a file's events table, as a version before tenant numbers left them. */
export async function insertOlderEventRows(connection: DuckDBConnection, documents: readonly IndexDocument[]): Promise<void> {
  const placeholders = Array.from({ length: olderEventColumns() }, (_, position) => `$${position + 1}`).join(', ');
  for (const document of documents) await connection.run(`INSERT INTO events VALUES (${placeholders})`, olderEventRow(document));
}
