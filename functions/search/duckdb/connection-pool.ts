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

  /** Runs the task on a free connection; a signal that aborts while it waits gives up its place in line. */
  async run<T>(task: (connection: DuckDBConnection) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const connection = await this.acquire(signal);
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

  private acquire(signal?: AbortSignal): Promise<DuckDBConnection> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const connection = this.free.pop();
    if (connection) return Promise.resolve(connection);
    return new Promise((resolve, reject) => {
      const waiter = (given: DuckDBConnection) => {
        signal?.removeEventListener('abort', giveUp);
        resolve(given);
      };
      const giveUp = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', giveUp, { once: true });
      this.waiting.push(waiter);
    });
  }

  private release(connection: DuckDBConnection): void {
    const next = this.waiting.shift();
    if (next) next(connection);
    else this.free.push(connection);
  }
}
