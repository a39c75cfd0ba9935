import { statSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * Checkpoints taken after a write, with DuckDB's cache trimmed first. A process writing events
 * peaks while a checkpoint compresses the rows written since the last, and by then the cache has
 * filled the whole budget with blocks a write never reads again. Lowering `memory_limit` for a
 * moment evicts part of them (they are in the file: evicting costs nothing); the budget is back
 * before the checkpoint starts, so searches keep all of it. Writing 1.5 M events peaked at 1.44 GB
 * with the cache trimmed to 640 MB of a 1 GB budget, against 1.76 GB at the same write rate (bench:
 * writes).
 *
 * DuckDB's own automatic checkpoint stays, at a higher threshold, for a checkpoint here that fails
 * (searches running meanwhile do not make it fail).
 */
export interface TrimmedCheckpointPolicy {
  /** Checkpoint once the write-ahead log holds this many bytes: below DuckDB's own threshold, so this one comes first. */
  readonly walBytes: number;
  /** The share of the budget the cache is trimmed to. */
  readonly cacheShare: number;
}

/**
 * Every 128 MB of log, as DuckDB checkpointed before (about every fifth write of 20 k events); a
 * checkpoint after each write nearly halved the write rate, and at 256 MB writing 1 M events peaked
 * about 145 MB higher at the same rate (bench: writes).
 */
export const DEFAULT_TRIMMED_CHECKPOINT_POLICY: TrimmedCheckpointPolicy = { walBytes: 128_000_000, cacheShare: 0.6 };

const UNIT_BYTES: Record<string, number> = { kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };

/** The bytes of a size as DuckDB's memory_limit reads it (`1GB` is 10^9 bytes, `1GiB` 2^30). */
export function bytesOfSize(size: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(size.trim());
  const unit = match === null ? undefined : UNIT_BYTES[match[2]!.toLowerCase()];
  if (match === null || unit === undefined) throw new Error(`${size} is not a size such as 1GB or 512MB`);
  return Math.floor(Number(match[1]) * unit);
}

export class TrimmedCheckpoints {
  private readonly trimmedLimit: string;

  /** `walPath` is undefined for an in-memory database, which has no log to checkpoint. */
  constructor(
    private readonly connection: DuckDBConnection,
    private readonly walPath: string | undefined,
    private readonly memoryLimit: string,
    private readonly policy: TrimmedCheckpointPolicy = DEFAULT_TRIMMED_CHECKPOINT_POLICY,
  ) {
    this.trimmedLimit = `${Math.floor(bytesOfSize(memoryLimit) * policy.cacheShare)}B`;
  }

  /** Run between writes, on the writer connection: answers whether a checkpoint was taken. */
  async afterWrite(): Promise<boolean> {
    if (this.walPath === undefined || walBytes(this.walPath) < this.policy.walBytes) return false;
    try {
      // Fails, leaving the cache as it was, when searches hold more than the trimmed limit.
      await this.connection.run(`SET memory_limit = '${this.trimmedLimit}'`);
    } catch {
      // The checkpoint runs all the same, with the cache untrimmed.
    } finally {
      await this.connection.run(`SET memory_limit = '${this.memoryLimit}'`);
    }
    try {
      await this.connection.run('CHECKPOINT');
      return true;
    } catch {
      // The write is committed and in the log either way; DuckDB's own checkpoint takes it later.
      return false;
    }
  }
}

function walBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
