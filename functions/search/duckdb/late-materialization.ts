import type { DuckDBConnection } from '@duckdb/node-api';
import type { IndexKind } from '../port';

/**
 * DuckDB's late materialization, chosen per query shape. A top-N over events (a time-sorted page)
 * reads `doc` only for the rows it returns, up to from + size = 10,000 rows, instead of for every row
 * of the window: DuckDB's default of 50 made a 100-hit page read every document (136 ms → 14 ms).
 * Profile tables are small and their searches mostly select a few rows by a hot column (a user by
 * email), where the second pass to fetch the documents costs more than it saves: a user search by
 * email took 2.7 ms with it and 1.9 without (bench: search).
 */
export const LATE_MATERIALIZATION_MAX_ROWS = 10_000;

export function lateMaterializationRowsFor(kind: IndexKind): number {
  return kind === 'events' ? LATE_MATERIALIZATION_MAX_ROWS : 0;
}

/** Each read connection's current setting, so a statement changes it only when its shape needs another. */
export class LateMaterialization {
  private readonly current = new WeakMap<DuckDBConnection, number>();

  async prepare(connection: DuckDBConnection, kind: IndexKind): Promise<void> {
    const wanted = lateMaterializationRowsFor(kind);
    if (this.current.get(connection) === wanted) return;
    await connection.run(`SET late_materialization_max_rows = ${wanted}`);
    this.current.set(connection, wanted);
  }
}
