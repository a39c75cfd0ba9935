import type { DuckDBConnection } from '@duckdb/node-api';
import { ConnectionPool } from '../../../functions/search/duckdb/connection-pool';

const fakeConnections = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: i,
    closed: false,
    closeSync() {
      this.closed = true;
    },
  }));
const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe('DuckDB read connection pool', () => {
  it('runs as many tasks at once as it has connections, never two on one connection, the rest in order', async () => {
    const connections = fakeConnections(2);
    const pool = new ConnectionPool(connections as unknown as DuckDBConnection[]);
    const busy = new Set<number>();
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, deferred);
    const tasks = gates.map((gate, n) =>
      pool.run(async (connection) => {
        const { id } = connection as unknown as { id: number };
        expect(busy.has(id)).toBe(false);
        busy.add(id);
        started.push(n);
        await gate.promise;
        busy.delete(id);
        return n;
      }),
    );
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1]);
    gates[1]!.resolve();
    await tasks[1];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    gates.forEach((gate) => gate.resolve());
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('a failed task frees its connection; drain waits for tasks queued before it; closeSync closes all', async () => {
    const connections = fakeConnections(2);
    const pool = new ConnectionPool(connections as unknown as DuckDBConnection[]);
    await expect(
      pool.run(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const slow = deferred();
    let finished = false;
    const running = pool.run(async () => {
      await slow.promise;
      finished = true;
    });
    let drained = false;
    const draining = pool.drain().then(() => {
      drained = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(drained).toBe(false);
    slow.resolve();
    await Promise.all([running, draining]);
    expect(finished).toBe(true);
    pool.closeSync();
    expect(connections.every((c) => c.closed)).toBe(true);
    expect(() => new ConnectionPool([])).toThrow(RangeError);
  });

  it('lets a waiting task whose signal aborts give up its place, and one already aborted never waits', async () => {
    const pool = new ConnectionPool(fakeConnections(1) as unknown as DuckDBConnection[]);
    const gate = deferred();
    const holder = pool.run(() => gate.promise);
    const caller = new AbortController();
    const reason = new Error('budget spent');
    const waiting = pool.run(async () => 'ran', caller.signal);
    const next = pool.run(async () => 'next');
    caller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await expect(pool.run(async () => 'never', caller.signal)).rejects.toBe(reason);
    gate.resolve();
    await holder;
    // The connection went to the task after the one that gave up.
    await expect(next).resolves.toBe('next');
  });
});
