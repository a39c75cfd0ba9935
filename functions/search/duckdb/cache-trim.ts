import { statSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { bytesOfSize } from './memory-sizes';

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
export interface CacheTrimPolicy {
  /** Trim once the write-ahead log holds this share of DuckDB's checkpoint threshold: at 0.75 of 128 MB, about one write of 20 k events (28 MB of log) short of it. */
  readonly logShare: number;
  /** The share of the budget the cache is trimmed to. */
  readonly cacheShare: number;
}

export const DEFAULT_CACHE_TRIM_POLICY: CacheTrimPolicy = { logShare: 0.75, cacheShare: 0.6 };

export class CacheTrim {
  private readonly trimmedLimit: string;
  private readonly trimAtLogBytes: number;

  /** `walPath` is undefined for an in-memory database, which never checkpoints. */
  constructor(
    private readonly connection: DuckDBConnection,
    private readonly walPath: string | undefined,
    private readonly limits: { readonly memoryLimit: string; readonly checkpointThreshold: string },
    policy: CacheTrimPolicy = DEFAULT_CACHE_TRIM_POLICY,
  ) {
    this.trimmedLimit = `${Math.floor(bytesOfSize(limits.memoryLimit) * policy.cacheShare)}B`;
    this.trimAtLogBytes = bytesOfSize(limits.checkpointThreshold) * policy.logShare;
  }

  /** Run before a write, on the writer connection: answers whether the cache was trimmed. */
  async beforeWrite(): Promise<boolean> {
    if (this.walPath === undefined || walBytes(this.walPath) < this.trimAtLogBytes) return false;
    try {
      await this.connection.run(`SET memory_limit = '${this.trimmedLimit}'`);
      return true;
    } catch {
      // Searches hold more than the trimmed limit: the cache stays as it was.
      return false;
    } finally {
      await this.connection.run(`SET memory_limit = '${this.limits.memoryLimit}'`);
    }
  }
}

/** The size of a write-ahead log; 0 when there is none (nothing written since the last checkpoint). */
export function walBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
