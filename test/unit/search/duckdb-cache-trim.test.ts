import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { CacheTrim, walBytes } from '../../../functions/search/duckdb/cache-trim';
import { bytesOfSize } from '../../../functions/search/duckdb/memory-sizes';
import { folderPerTest } from './support/temp-folder';

const BUDGET = '256MB';

async function setting(connection: DuckDBConnection, name: string): Promise<string> {
  const result = await connection.runAndReadAll(`SELECT current_setting('${name}')`);
  return String(result.getRows()[0]?.[0]);
}

/** What DuckDB's buffer pool holds of the file's blocks: its cache. */
async function cachedBytes(connection: DuckDBConnection): Promise<number> {
  const result = await connection.runAndReadAll(`SELECT memory_usage_bytes FROM duckdb_memory() WHERE tag = 'BASE_TABLE'`);
  return Number(result.getRows()[0]?.[0] ?? 0);
}

const walSize = (path: string) => walBytes(`${path}.wal`);

describe("DuckDB's cache trimmed before a checkpoint", () => {
  const folder = folderPerTest('cache-trim-');

  it('reads memory sizes as DuckDB does', () => {
    expect(bytesOfSize('1GB')).toBe(1e9);
    expect(bytesOfSize('512 MiB')).toBe(512 * 2 ** 20);
    expect(bytesOfSize('1.5gb')).toBe(1.5e9);
    expect(() => bytesOfSize('1 lot')).toThrow('1 lot is not a size');
    // Every unit the pattern takes has its size (the pattern and the unit table agree).
    for (const [unit, bytes] of [
      ['kb', 1e3],
      ['MB', 1e6],
      ['tb', 1e12],
      ['KiB', 2 ** 10],
      ['gib', 2 ** 30],
      ['TiB', 2 ** 40],
    ] as const)
      expect(bytesOfSize(`2${unit}`)).toBe(2 * bytes);
    expect(() => bytesOfSize('2pb')).toThrow('is not a size');
  });

  it('trims the cache once the log nears a checkpoint, and leaves the budget as configured', async () => {
    const path = folder.path('search.duckdb');
    // DuckDB's own checkpoint is out of the way: the log keeps what is written.
    const instance = await DuckDBInstance.create(path, { memory_limit: BUDGET, checkpoint_threshold: '1GB' });
    const connection = await instance.connect();
    const reader = await instance.connect();
    try {
      const configured = await setting(connection, 'memory_limit');
      const cacheTrim = new CacheTrim(connection, `${path}.wal`, { memoryLimit: BUDGET, checkpointThreshold: '5MB' }, { logShare: 0.8, cacheShare: 0.1 });
      // Digests do not compress: the table's blocks are about as large as its text.
      await connection.run(
        `CREATE TABLE t AS SELECT range AS i, md5(range::VARCHAR) || md5((range + 1)::VARCHAR) || md5((range + 2)::VARCHAR) AS s FROM range(1000000)`,
      );
      await connection.run('CHECKPOINT');
      // Reading every block fills the cache with more than a tenth of the budget.
      await connection.run('SELECT sum(i), max(s) FROM t');
      const filled = await cachedBytes(connection);
      expect(filled).toBeGreaterThan(0.1 * bytesOfSize(BUDGET));

      await connection.run(`INSERT INTO t SELECT range AS i, 'y' || range AS s FROM range(10)`);
      expect(walSize(path)).toBeLessThan(4_000_000);
      expect(await cacheTrim.beforeWrite()).toBe(false);
      expect(await cachedBytes(connection)).toBe(filled);

      // Under a row group, so it goes through the log (larger inserts are written to the file directly).
      await connection.run(`INSERT INTO t SELECT range AS i, md5(range::VARCHAR) || md5((range + 3)::VARCHAR) AS s FROM range(100000)`);
      expect(walSize(path)).toBeGreaterThanOrEqual(4_000_000);
      // A search holding a transaction open does not stop the trim.
      await reader.run('BEGIN TRANSACTION');
      await reader.run('SELECT count(*) FROM t');
      expect(await cacheTrim.beforeWrite()).toBe(true);
      await reader.run('COMMIT');
      expect(await cachedBytes(connection)).toBeLessThan(filled);
      // The budget is what it was: the trim lasted a moment.
      expect(await setting(connection, 'memory_limit')).toBe(configured);
      const rows = await connection.runAndReadAll('SELECT count(*) FROM t');
      expect(Number(rows.getRows()[0]?.[0])).toBe(1_100_010);
    } finally {
      reader.closeSync();
      connection.closeSync();
      instance.closeSync();
    }
  });

  it('never trims for an in-memory database, which has no log', async () => {
    const instance = await DuckDBInstance.create(':memory:', { memory_limit: BUDGET });
    const connection = await instance.connect();
    try {
      await connection.run('CREATE TABLE t AS SELECT range AS i FROM range(1000)');
      expect(
        await new CacheTrim(connection, undefined, { memoryLimit: BUDGET, checkpointThreshold: '1KB' }, { logShare: 0.001, cacheShare: 0.5 }).beforeWrite(),
      ).toBe(false);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
