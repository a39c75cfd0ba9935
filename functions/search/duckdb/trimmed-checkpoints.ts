import { statSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * DuckDB's cache trimmed before a write that will checkpoint. A process writing events peaks while
 * a checkpoint compresses the rows written since the last, and by then the cache has filled the
 * whole budget with blocks a write never reads again. Lowering `memory_limit` for a moment evicts
 * part of them (they are in the file: evicting costs nothing) and the budget is back before the
 * write starts, so searches keep all of it. Writing 1.5 M events peaked at 1.40–1.52 GB with the
 * cache trimmed to 600 MB of a 1 GB budget, against 1.76–1.84 GB (bench: writes).
 *
 * DuckDB still takes the checkpoint itself, in the commit that passes its threshold: it then writes
 * that commit's rows straight into the file instead of the log. A checkpoint of the writer's own
 * after the commit wrote them to the log first, and generating the bench's data took 1.1–1.2× the
 * time.
 */
export interface TrimmedCheckpointPolicy {
  /** Trim once the write-ahead log holds this many bytes: about one write of 20 k events (28 MB of log) short of DuckDB's threshold. */
  readonly walBytes: number;
  /** The share of the budget the cache is trimmed to. */
  readonly cacheShare: number;
}

/** With DuckDB checkpointing every 128 MB of log (duckdb-index.ts). */
export const DEFAULT_TRIMMED_CHECKPOINT_POLICY: TrimmedCheckpointPolicy = { walBytes: 96_000_000, cacheShare: 0.6 };

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

  /** `walPath` is undefined for an in-memory database, which never checkpoints. */
  constructor(
    private readonly connection: DuckDBConnection,
    private readonly walPath: string | undefined,
    private readonly memoryLimit: string,
    private readonly policy: TrimmedCheckpointPolicy = DEFAULT_TRIMMED_CHECKPOINT_POLICY,
  ) {
    this.trimmedLimit = `${Math.floor(bytesOfSize(memoryLimit) * policy.cacheShare)}B`;
  }

  /** Run before a write, on the writer connection: answers whether the cache was trimmed. */
  async beforeWrite(): Promise<boolean> {
    if (this.walPath === undefined || walBytes(this.walPath) < this.policy.walBytes) return false;
    try {
      await this.connection.run(`SET memory_limit = '${this.trimmedLimit}'`);
      return true;
    } catch {
      // Searches hold more than the trimmed limit: the cache stays as it was.
      return false;
    } finally {
      await this.connection.run(`SET memory_limit = '${this.memoryLimit}'`);
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
