import type { DuckDBConnection } from '@duckdb/node-api';
import type { IndexDocument } from '../port';
import { quoteIdentifier, toColumnValue, valueAt, type SearchTable } from './tables';

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

/**
 * Per table, the BIGINT hot columns every stored value of which fits a 32-bit INTEGER (duration_ms,
 * while no call took 24.8 days). Queries may read such a column as INTEGER: DuckDB takes percentiles of
 * INTEGERs in about 0.8x the time of BIGINTs (p50/p99 by route over 10 M events). A write that brings
 * the first wider value drops its column before it commits; the caller then drains the queries compiled
 * with the narrower reading, as it does for typed metadata's other values.
 */
export class Int32Columns {
  private readonly fitting = new Map<string, Set<string>>();

  /** Reads which of the table's BIGINT columns hold only INTEGER values (one scan of those columns). */
  async load(connection: DuckDBConnection, table: SearchTable): Promise<void> {
    const columns = table.hotColumns.filter(({ type }) => type === 'BIGINT');
    if (columns.length === 0) return;
    const wider = columns.map(({ name }) => `count(*) FILTER (WHERE ${quoteIdentifier(name)} NOT BETWEEN ${INT32_MIN} AND ${INT32_MAX})`);
    const result = await connection.runAndReadAll(`SELECT ${wider.join(', ')} FROM ${quoteIdentifier(table.name)}`);
    const counts = result.getRows()[0] ?? [];
    this.fitting.set(table.name, new Set(columns.filter((_, i) => Number(counts[i] ?? 1) === 0).map(({ name }) => name)));
  }

  /** The table's columns holding only INTEGER values now (a copy: a query keeps the set it was compiled with). */
  of(table: SearchTable): ReadonlySet<string> {
    return new Set(this.fitting.get(table.name));
  }

  /** Drops the columns the documents bring a wider value to; answers whether any was dropped. */
  widenFor(table: SearchTable, documents: readonly IndexDocument[]): boolean {
    const fitting = this.fitting.get(table.name);
    if (fitting === undefined || fitting.size === 0) return false;
    let widened = false;
    for (const column of table.hotColumns) {
      if (!fitting.has(column.name)) continue;
      if (documents.every((document) => fits(toColumnValue('BIGINT', valueAt(document.source, column.path))))) continue;
      fitting.delete(column.name);
      widened = true;
    }
    return widened;
  }
}

const fits = (value: unknown): boolean => typeof value !== 'bigint' || (value >= INT32_MIN && value <= INT32_MAX);
