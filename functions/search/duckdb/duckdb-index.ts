import type { ArrivalLags } from '../arrival-lags';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DuckDBInstance, timestampTZValue, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import type { FunnelAnswer, RetentionAnswer } from '../../../schemas/event-analyses';
import type { QueryNode, SearchRequest } from '../../../schemas/search-tree';
import type { FunnelQuery, RetentionQuery } from '../analyses/analysis-queries';
import { windowPeriods } from '../analyses/retention-periods';
import { documentProblem } from '../index-documents';
import {
  VOID_ID_FIELD,
  VOIDED_AT_FIELD,
  type EventVoidMark,
  type ActorCondition,
  type MembersRequest,
  type SearchHit,
  type DeletionProgress,
  type IndexDocument,
  type IndexFailure,
  type IndexKind,
  type IndexOutcome,
  type SearchableIndex,
  type SearchContext,
  type SearchResponse,
  type StoredDocument,
  type TenantScope,
  type TimeRange,
} from '../port';
import { aggregateAndCount } from './query/aggregations';
import { runFunnel, runRetention } from './query/event-analyses';
import { runActorsMeeting, runMembersMeeting } from './query/actor-conditions';
import { arrivalLagsOf, baseRelation, countMatching, runSearch } from './query/search';
import type { QueryRunner } from './query/sql';
import { ConnectionPool } from './connection-pool';
import type { TableContext } from './search-tables';
import { DEFAULT_TYPED_METADATA_POLICY, type TypedMetadataPolicy } from './typed-metadata';
import { SerialQueue } from './serial-queue';
import { TableWriter } from './table-writes';
import { TenantNumbers, createTenantsTableSql } from './tenant-numbers';
import { CacheTrim } from './cache-trim';
import { MEMORY_LIMIT } from './memory-sizes';
import { LateMaterialization } from './late-materialization';
import { SEARCH_TABLES, createTableSql, quoteIdentifier, STORAGE_VERSION } from './tables';
import { fileStorageFeatures, migrateTable } from './file-migrations';

export interface DuckDbSearchIndexOptions {
  /** A database file (created with its folder if missing), or ':memory:'. */
  readonly path: string;
  /** Read connections: searches running at once (default 6, the billing run's look-ahead queries). */
  readonly readers?: number;
  /**
   * DuckDB's memory budget (`memory_limit`, e.g. `1GB`): larger work spills to temporary files next
   * to the database. Default 1 GB, whatever the data size; DuckDB's own default is 80 % of RAM.
   */
  readonly memoryLimit?: string;
  /** When frequent metadata keys become typed columns (typed-metadata.ts); the default suits real data, tests lower the thresholds. */
  readonly typedMetadata?: Partial<TypedMetadataPolicy>;
}

const DEFAULT_READERS = 6;
/** Actors a page of actorsMeeting holds (the statement reads them all at once: ids are small). */
const ACTOR_PAGE = 10_000;
export const DEFAULT_MEMORY_LIMIT = '1GB';
const CHECKPOINT_THRESHOLD = '128MB';
/**
 * DuckDB's allocator keeps freed pages for reuse, outside its memory budget. A background thread
 * returns them to the system, and so does the end of any task that allocated over 32 MB (DuckDB's
 * default: 128 MB). Writing 1 M events peaked at 1,674–1,783 MB against 1,823–2,070 (bench: writes),
 * and the funnel and retention at 10 M took the same time.
 */
export const ALLOCATOR_RETURNS_MEMORY = { allocator_background_threads: 'true', allocator_flush_threshold: '32MB' } as const;

/**
 * The embedded search backend of local mode. One connection writes (through a queue, so
 * concurrent callers cannot interleave a batch's statements) and another reads, so reads are not
 * held up behind a large write. Writes are visible to reads as soon as `index` resolves.
 */
export async function createDuckDbSearchIndex(options: DuckDbSearchIndexOptions): Promise<SearchableIndex> {
  if (options.path !== ':memory:') mkdirSync(dirname(resolve(options.path)), { recursive: true });
  const memoryLimit = options.memoryLimit ?? DEFAULT_MEMORY_LIMIT;
  if (!MEMORY_LIMIT.test(memoryLimit)) throw new Error(`memory limit ${memoryLimit} is not a size such as 1GB or 512MB`);
  // Checkpoints every 128 MB of WAL rather than DuckDB's 16 MB: a consumer write of 20 k events is
  // about 28 MB of WAL, and a checkpoint after each one nearly halved the write rate (bench: writes).
  // At 256 MB, writing 1 M events peaked about 145 MB higher at the same rate; at 64 MB, no lower
  // than at 128. The cache is trimmed before the write that will checkpoint (cache-trim.ts).
  const instance = await DuckDBInstance.create(options.path, {
    // New files at 1.2, so the events' documents can be kept with zstd (tables.ts StorageFeatures).
    storage_compatibility_version: STORAGE_VERSION,
    memory_limit: memoryLimit,
    checkpoint_threshold: CHECKPOINT_THRESHOLD,
    ...ALLOCATOR_RETURNS_MEMORY,
  });
  try {
    const writer = await instance.connect();
    const readers: DuckDBConnection[] = [];
    for (let i = 0; i < (options.readers ?? DEFAULT_READERS); i += 1) readers.push(await instance.connect());
    // Date strings without an offset in documents are UTC, whatever the machine's zone.
    for (const connection of [writer, ...readers]) await connection.run(`SET TimeZone = 'UTC'`);
    const policy = { ...DEFAULT_TYPED_METADATA_POLICY, ...options.typedMetadata };
    const walPath = options.path === ':memory:' ? undefined : `${options.path}.wal`;
    const cacheTrim = new CacheTrim(writer, walPath, { memoryLimit, checkpointThreshold: CHECKPOINT_THRESHOLD });
    const index = new DuckDbSearchIndex(instance, writer, new ConnectionPool(readers), policy, cacheTrim);
    await index.ensureReady();
    return index;
  } catch (error) {
    instance.closeSync();
    throw error;
  }
}

class DuckDbSearchIndex implements SearchableIndex {
  private readonly writes = new SerialQueue();
  private readonly tables: TableWriter;
  private readonly tenants = new TenantNumbers();
  private readonly lateMaterialization = new LateMaterialization();

  private closed = false;
  /** Changes when queries compiled before must not run any more (withLayout). */
  private layoutGeneration = 0;

  constructor(
    private readonly instance: DuckDBInstance,
    private readonly writer: DuckDBConnection,
    private readonly reads: ConnectionPool,
    policy: TypedMetadataPolicy,
    private readonly cacheTrim: CacheTrim,
  ) {
    this.tables = new TableWriter(writer, this.tenants, policy, () => this.beforeLayoutChange());
  }

  async ensureReady(): Promise<void> {
    this.assertOpen();
    return this.writes.run(async () => {
      await this.writer.run(createTenantsTableSql());
      await this.tenants.load(this.writer);
      const storage = await fileStorageFeatures(this.writer);
      for (const table of Object.values(SEARCH_TABLES)) {
        await this.writer.run(createTableSql(table, table.name, storage));
        await migrateTable(this.writer, this.tenants, table, storage);
        await this.tables.prepare(table);
        await this.tables.reviewTypedMetadata(table);
      }
    });
  }

  async index(documents: readonly IndexDocument[]): Promise<IndexOutcome> {
    this.assertOpen();
    const failures: IndexFailure[] = [];
    const byKind = new Map<IndexKind, IndexDocument[]>();
    for (const document of documents) {
      const problem = documentProblem(document);
      if (problem !== undefined) {
        failures.push({ kind: document.kind, id: document.id, reason: problem, retryable: false });
        continue;
      }
      const group = byKind.get(document.kind) ?? [];
      group.push(document);
      byKind.set(document.kind, group);
    }
    if (byKind.size === 0) return { written: 0, failures };

    return this.writes.run(async () => {
      await this.cacheTrim.beforeWrite();
      let written = 0;
      for (const [kind, group] of byKind) {
        const table = SEARCH_TABLES[kind];
        try {
          written += await this.tables.write(table, group);
        } catch (error) {
          const reason = `DuckDB write failed: ${error instanceof Error ? error.message : String(error)}`;
          for (const document of group) failures.push({ kind, id: document.id, reason, retryable: true });
        }
      }
      return { written, failures };
    });
  }

  async count(scope: TenantScope, kind: IndexKind, range: TimeRange = {}): Promise<number> {
    this.assertOpen();
    // The tenant and window every search is confined to (query/search.ts); a bare count has no date math, so no zone.
    const context: SearchContext = { scope, kind, range, timeZone: 'UTC', now: new Date() };
    return this.withLayout(context, (ctx, run) => countMatching(run, ctx, { type: 'match_all' }));
  }

  /**
   * Profiles by their key. An event with a time hint is looked for in the day around it first (the
   * row groups of that span only), then, as one without a hint, in every row.
   */
  async get(scope: TenantScope, kind: IndexKind, id: string, hint?: { time?: Date }): Promise<StoredDocument | undefined> {
    this.assertOpen();
    const sql = `SELECT doc FROM ${quoteIdentifier(SEARCH_TABLES[kind].name)} WHERE org_id = $1 AND app_id = $2 AND id = $3`;
    const read = (where: string, params: DuckDBValue[]) =>
      this.reads.run(async (reader) => {
        const result = await reader.runAndReadAll(`${sql}${where}`, [scope.org_id, scope.app_id, id, ...params]);
        const doc = result.getRows()[0]?.[0];
        if (typeof doc !== 'string') return undefined;
        return { _id: id, _source: JSON.parse(doc) as Record<string, unknown> };
      });
    const at = hint?.time?.getTime();
    if (kind === 'events' && at !== undefined && Number.isFinite(at)) {
      const near = await read(' AND "time" >= $4 AND "time" <= $5', [timestampOf(new Date(at - DAY_MS)), timestampOf(new Date(at + DAY_MS))]);
      if (near) return near;
    }
    return read('', []);
  }

  async search(context: SearchContext, request: SearchRequest): Promise<SearchResponse> {
    this.assertOpen();
    return this.withLayout(context, (ctx, run) => runSearch(run, ctx, request, aggregateAndCount));
  }

  async countMatching(context: SearchContext, query: QueryNode): Promise<number> {
    this.assertOpen();
    return this.withLayout(context, (ctx, run) => countMatching(run, ctx, query));
  }

  async arrivalLags(context: SearchContext, query: QueryNode): Promise<ArrivalLags> {
    this.assertOpen();
    if (context.kind !== 'events') return { events: 0, counts: [] };
    return this.withLayout(context, (ctx, run) => arrivalLagsOf(run, ctx, query));
  }

  async funnel(context: SearchContext, query: FunnelQuery): Promise<FunnelAnswer> {
    this.assertOpen();
    return this.withLayout(context, (ctx, run) => runFunnel(run, ctx, query));
  }

  async retention(context: SearchContext, query: RetentionQuery): Promise<RetentionAnswer> {
    this.assertOpen();
    const periods = windowPeriods(context.range, context.now, query.interval, context.timeZone);
    return this.withLayout(context, (ctx, run) => runRetention(run, ctx, query, periods));
  }

  async *actorsMeeting(context: SearchContext, condition: ActorCondition): AsyncIterable<readonly string[]> {
    this.assertOpen();
    const actors = await this.withLayout(context, (ctx, run) => runActorsMeeting(run, ctx, condition));
    for (let at = 0; at < actors.length; at += ACTOR_PAGE) yield actors.slice(at, at + ACTOR_PAGE);
  }

  async *membersMeeting(context: SearchContext, request: MembersRequest): AsyncIterable<readonly SearchHit[]> {
    this.assertOpen();
    const members = await this.withLayout(context, (ctx, run) =>
      runMembersMeeting(run, ctx, (range) => this.layoutOf({ ...context, kind: 'events', range }), request),
    );
    for (let at = 0; at < members.length; at += ACTOR_PAGE) yield members.slice(at, at + ACTOR_PAGE);
  }

  async delete(scope: TenantScope, kind: IndexKind, id: string): Promise<boolean> {
    this.assertOpen();
    const sql = `DELETE FROM ${quoteIdentifier(SEARCH_TABLES[kind].name)} WHERE org_id = $1 AND app_id = $2 AND id = $3`;
    return this.writes.run(async () => {
      const result = await this.writer.runAndReadAll(sql, [scope.org_id, scope.app_id, id]);
      return Number(result.getRows()[0]?.[0] ?? 0) > 0;
    });
  }

  /** Embedded and fast: done before it answers. A deletion takes voided events too. */
  async deleteMatching(context: SearchContext, query: QueryNode): Promise<DeletionProgress> {
    this.assertOpen();
    const deleted = await this.writes.run(async () => {
      // Compiled in the write queue: no write can change the layout before the statement runs.
      const base = baseRelation(this.layoutOf({ ...context, voided: 'include' }), query);
      const result = await this.writer.runAndReadAll(`DELETE ${base.fromWhereSql}`, [...base.params.values]);
      return Number(result.getRows()[0]?.[0] ?? 0);
    });
    return { completed: true, deleted, total: deleted };
  }

  /** One UPDATE in the write queue: the mark in the hot column reads test, and in the document reads return. */
  async voidEvents(context: SearchContext, query: QueryNode, mark: EventVoidMark): Promise<number> {
    this.assertOpen();
    return this.writes.run(async () => {
      const base = baseRelation(this.layoutOf({ ...context, kind: 'events', voided: undefined }), query);
      const at = base.params.add(new Date(mark.voided_at));
      const patch = base.params.add(JSON.stringify({ [VOIDED_AT_FIELD]: mark.voided_at, [VOID_ID_FIELD]: mark.void_id }));
      const events = quoteIdentifier(SEARCH_TABLES.events.name);
      const result = await this.writer.runAndReadAll(
        `UPDATE ${events} SET ${quoteIdentifier(VOIDED_AT_FIELD)} = ${at}, doc = json_merge_patch(doc, ${patch}::JSON) WHERE rowid IN (SELECT d.rowid ${base.fromWhereSql})`,
        [...base.params.values],
      );
      return Number(result.getRows()[0]?.[0] ?? 0);
    });
  }

  /** Deletions finish before deleteMatching answers: there is never a task to follow. */
  async deletionProgress(): Promise<DeletionProgress | undefined> {
    return undefined;
  }

  /**
   * Search statements on a free read connection, rows as plain JS values. When the signal aborts,
   * the running statement is interrupted (its connection is free again at once) and the call
   * rejects with the signal's reason.
   */
  private reader(signal: AbortSignal | undefined, generation: number, kind: IndexKind): QueryRunner {
    return (sql, params) =>
      this.reads.run(async (reader) => {
        signal?.throwIfAborted();
        if (generation !== this.layoutGeneration) throw new StaleLayoutError();
        await this.lateMaterialization.prepare(reader, kind);
        const interrupt = () => reader.interrupt();
        signal?.addEventListener('abort', interrupt, { once: true });
        try {
          const result = await reader.runAndReadAll(sql, params as DuckDBValue[]);
          return result.getRowObjectsJS() as Record<string, unknown>[];
        } catch (error) {
          signal?.throwIfAborted();
          throw error;
        } finally {
          // Removed before the connection goes back to the pool, so it can never interrupt another caller's statement.
          signal?.removeEventListener('abort', interrupt);
        }
      }, signal);
  }

  /**
   * Runs a query compiled for the table's current layout (its typed metadata keys), again from the
   * start if the layout changed before one of its statements began: a statement only runs while
   * the layout it was compiled for is the current one (see beforeLayoutChange).
   */
  private async withLayout<T>(context: SearchContext, query: (ctx: TableContext, run: QueryRunner) => Promise<T>): Promise<T> {
    for (;;) {
      const generation = this.layoutGeneration;
      try {
        return await query(this.layoutOf(context), this.reader(context.signal, generation, context.kind));
      } catch (error) {
        if (!(error instanceof StaleLayoutError)) throw error;
      }
    }
  }

  private layoutOf(context: SearchContext): TableContext {
    const table = SEARCH_TABLES[context.kind];
    return {
      ...context,
      tenantNumber: this.tenants.numberOf(context.scope),
      typedMetadata: this.tables.typedMetadataLayout(table),
      int32Columns: this.tables.int32ColumnsOf(table),
    };
  }

  /**
   * A write is about to commit rows the layout now allows for (another value than a string under a
   * typed metadata key, a value wider than INTEGER): statements compiled before (which would skip or
   * fail on those rows) must not start from now on, and those running must finish before the commit.
   */
  private async beforeLayoutChange(): Promise<void> {
    this.layoutGeneration += 1;
    await this.reads.drain();
  }

  /** Every write is committed when `index` resolves. */
  async refresh(): Promise<void> {}

  async attributeVisitor(scope: TenantScope, anonymousId: string, userId: string): Promise<number> {
    this.assertOpen();
    // The hot column and the document change together: reads take user_id from either.
    const sql = `UPDATE events SET user_id = $4, doc = json_merge_patch(doc, json_object('user_id', $4::VARCHAR))
      WHERE org_id = $1 AND app_id = $2 AND user_id IS NULL AND json_extract_string(doc, '$.anonymous_id') = $3`;
    return this.writes.run(async () => {
      const result = await this.writer.runAndReadAll(sql, [scope.org_id, scope.app_id, anonymousId, userId]);
      return Number(result.getRows()[0]?.[0] ?? 0);
    });
  }

  /** DuckDB rewrites its row groups compactly at each checkpoint: nothing is left to merge. */
  async compactSettled(): Promise<readonly string[]> {
    return [];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // New calls are refused from now on; work already queued finishes before the file is released.
    this.closed = true;
    await Promise.all([this.writes.run(async () => undefined), this.reads.drain()]);
    this.writer.closeSync();
    this.reads.closeSync();
    this.instance.closeSync();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the DuckDB search index is closed');
  }
}

function timestampOf(date: Date) {
  return timestampTZValue(BigInt(date.getTime()) * 1000n);
}

const DAY_MS = 86_400_000;

/** A statement's query was compiled for a layout that changed since: compile it again. */
class StaleLayoutError extends Error {
  constructor() {
    super('the table layout changed since the query was compiled');
  }
}
