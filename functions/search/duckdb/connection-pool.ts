import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * Read connections, each running one task at a time; a task waits (in order) for a free one.
 * Several readers let concurrent searches (dashboards, the billing run's look-ahead queries) run
 * side by side: a DuckDB query makes several asynchronous round trips (extract, prepare, run, one
 * per result chunk), so one reader spends much of a busy process's time waiting for its event loop.
 */
export class ConnectionPool {
  private readonly free: DuckDBConnection[];
  private readonly waiting: ((connection: DuckDBConnection) => void)[] = [];

  constructor(private readonly connections: readonly DuckDBConnection[]) {
    if (connections.length === 0) throw new RangeError('a connection pool needs a connection');
    this.free = [...connections];
  }

  async run<T>(task: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const connection = await this.acquire();
    try {
      return await task(connection);
    } finally {
      this.release(connection);
    }
  }

  /** Resolves once every task queued before it has finished (all connections free at once). */
  async drain(): Promise<void> {
    const held = await Promise.all(this.connections.map(() => this.acquire()));
    held.forEach((connection) => this.release(connection));
  }

  closeSync(): void {
    for (const connection of this.connections) connection.closeSync();
  }

  private acquire(): Promise<DuckDBConnection> {
    const connection = this.free.pop();
    return connection ? Promise.resolve(connection) : new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(connection: DuckDBConnection): void {
    const next = this.waiting.shift();
    if (next) next(connection);
    else this.free.push(connection);
  }
}
