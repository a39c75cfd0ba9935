import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { createDuckDbSearchIndex } from '../../functions/search/duckdb/duckdb-index';
import { SEARCH_TABLES, STORAGE_VERSION, createTableSql, storageFeatures } from '../../functions/search/duckdb/tables';
import type { IndexDocument, SearchIndex, TenantScope } from '../../functions/search/port';
import {
  BENCH_TENANT,
  DEFAULT_SEARCH_DATASET,
  OTHER_TENANT,
  type SearchDatasetSpec,
  hourlyDocuments,
  populationOf,
  seededRandom,
  userDocuments,
} from './search-dataset-model';

/**
 * The data set of the search benchmark: API calls over the last `days` days as the collector
 * normalises them and the consumer indexes them (through the DuckDB adapter's own `index()`), user
 * profiles, and a second, small tenant sharing the tables, so tenant filtering is real work and any
 * leak shows up as a wrong answer. Generation is deterministic (seeded) and the file is reused while
 * the parameters, the generator and the table layout are unchanged: 1M events take minutes to write.
 */

export { BENCH_TENANT, DEFAULT_SEARCH_DATASET, OTHER_TENANT, type SearchDatasetSpec } from './search-dataset-model';

/** Bump when the generated data changes shape, so cached files are regenerated. */
const GENERATOR_VERSION = 2;
const INDEX_CHUNK = 20_000;

export interface SearchDataset {
  readonly path: string;
  readonly spec: SearchDatasetSpec;
  /** The "now" the data was generated at: events lie in [anchor - days, anchor). Queries use it as their now. */
  readonly anchor: Date;
  /** Seconds the generation took (this run's, or the cached file's). */
  readonly generatedSeconds: number;
  readonly reused: boolean;
  /** A user of the benchmarked tenant whose email the other tenant also has. */
  readonly sampleEmail: string;
}

interface Manifest {
  generator: number;
  schema: string;
  spec: SearchDatasetSpec;
  anchor: string;
  generatedSeconds: number;
  sampleEmail: string;
}

/** The cached data set for `spec` under `dir`, generated first when missing or stale. */
/** The file name (without extension) of a spec's cached data set. */
export const datasetName = (spec: SearchDatasetSpec): string => `search-${createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 12)}`;

export async function prepareSearchDataset(options: {
  dir: string;
  spec?: SearchDatasetSpec;
  log?: (line: string) => void;
  anchor?: Date;
}): Promise<SearchDataset> {
  const spec = options.spec ?? DEFAULT_SEARCH_DATASET;
  const log = options.log ?? (() => {});
  const name = datasetName(spec);
  const path = `${options.dir}/${name}.duckdb`;
  const manifestPath = `${options.dir}/${name}.json`;
  const schema = schemaFingerprint();

  const cached = await readManifest(manifestPath);
  if (cached && cached.generator === GENERATOR_VERSION && cached.schema === schema && existsSync(path)) {
    return { path, spec, anchor: new Date(cached.anchor), generatedSeconds: cached.generatedSeconds, reused: true, sampleEmail: cached.sampleEmail };
  }

  // A partial or stale file is never reused: the manifest is written only after a complete run.
  await mkdir(options.dir, { recursive: true });
  await rm(manifestPath, { force: true });
  await rm(path, { force: true });
  await rm(`${path}.wal`, { force: true });
  // Tests pass a fixed anchor: where the hours fall then does not depend on when they run.
  const anchor = options.anchor ?? new Date(Math.floor(Date.now() / 1000) * 1000);
  const start = process.hrtime.bigint();
  const index = await createDuckDbSearchIndex({ path });
  let sampleEmail: string;
  try {
    sampleEmail = await generateSearchData(index, spec, anchor, log);
  } finally {
    await index.close();
  }
  const generatedSeconds = Number(process.hrtime.bigint() - start) / 1e9;
  const manifest: Manifest = { generator: GENERATOR_VERSION, schema, spec, anchor: anchor.toISOString(), generatedSeconds, sampleEmail };
  await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
  return { path, spec, anchor, generatedSeconds, reused: false, sampleEmail };
}

async function readManifest(path: string): Promise<Manifest | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/** The tenant's number in a search file (tenant-numbers.ts), which the hand-written SQL filters on as the adapter does. */
export async function tenantNumberIn(connection: DuckDBConnection, scope: TenantScope): Promise<number> {
  const result = await connection.runAndReadAll('SELECT tenant_number FROM tenants WHERE org_id = $1 AND app_id = $2', [scope.org_id, scope.app_id]);
  const number = result.getRows()[0]?.[0];
  if (typeof number !== 'number') throw new Error(`the search file has no tenant ${scope.org_id}/${scope.app_id}`);
  return number;
}

/** A change of the table layout (hot columns, types) makes the cached file stale. */
function schemaFingerprint(): string {
  const ddl = Object.values(SEARCH_TABLES)
    .map((table) => createTableSql(table, table.name, storageFeatures(STORAGE_VERSION)))
    .join(';');
  return createHash('sha256').update(ddl).digest('hex').slice(0, 16);
}

/** Writes the data set of `spec` at `anchor` into any index (DuckDB here, OpenSearch for its bench); returns the sample email. */
export async function generateSearchData(index: SearchIndex, spec: SearchDatasetSpec, anchor: Date, log: (line: string) => void): Promise<string> {
  const random = seededRandom(spec.seed);
  const population = populationOf(spec, random);
  const started = Date.now();
  const sink = new IndexSink(index, spec.events + spec.otherTenantEvents, log);

  // Users first (dashboards resolve users as events arrive); then events hour by hour, both tenants
  // interleaved in time order as the collector would receive them.
  const sampleUser = Math.min(137, spec.otherTenantUsers - 1, spec.users - 1);
  await indexAll(index, userDocuments(spec, population, anchor, random));
  for (const documents of hourlyDocuments(spec, anchor, population, random)) await sink.add(documents);
  await sink.flush();
  const expected: [TenantScope, 'events' | 'users', number][] = [
    [BENCH_TENANT, 'events', spec.events],
    [OTHER_TENANT, 'events', spec.otherTenantEvents],
    [BENCH_TENANT, 'users', spec.users],
    [OTHER_TENANT, 'users', spec.otherTenantUsers],
  ];
  for (const [scope, kind, count] of expected) {
    const found = await index.count(scope, kind);
    if (found !== count) throw new Error(`the generated data has ${found} ${kind} of ${scope.app_id}, expected ${count}`);
  }
  log(
    `  generated ${(spec.events + spec.otherTenantEvents).toLocaleString('en')} events and ${(spec.users + spec.otherTenantUsers).toLocaleString('en')} users in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  return population.userEmail[sampleUser]!;
}

async function indexAll(index: SearchIndex, documents: readonly IndexDocument[]): Promise<void> {
  for (let start = 0; start < documents.length; start += INDEX_CHUNK) await indexChunk(index, documents.slice(start, start + INDEX_CHUNK));
}

async function indexChunk(index: SearchIndex, chunk: readonly IndexDocument[]): Promise<void> {
  const outcome = await index.index(chunk);
  if (outcome.failures.length > 0 || outcome.written !== chunk.length) {
    throw new Error(
      `indexing the benchmark data failed: ${outcome.written} of ${chunk.length} written; first failure: ${outcome.failures[0]?.reason ?? 'none (duplicate ids?)'}`,
    );
  }
}

/**
 * Buffers documents into chunks of INDEX_CHUNK for `index()` and reports progress every 5%. One
 * write runs while the next chunk is generated, and generation gives way to the event loop after
 * each hour, so the write's steps run as soon as DuckDB answers: generating and writing in turn
 * left the main thread idle for a fifth of the time, while DuckDB committed.
 */
class IndexSink {
  private buffer: IndexDocument[] = [];
  private inFlight: Promise<void> | undefined;
  private written = 0;
  private nextReport = 0.05;
  private readonly started = Date.now();

  constructor(
    private readonly index: SearchIndex,
    private readonly total: number,
    private readonly log: (line: string) => void,
  ) {}

  async add(documents: readonly IndexDocument[]): Promise<void> {
    for (const document of documents) this.buffer.push(document);
    while (this.buffer.length >= INDEX_CHUNK) await this.start(this.buffer.splice(0, INDEX_CHUNK));
    await new Promise(setImmediate);
  }

  async flush(): Promise<void> {
    if (this.buffer.length > 0) await this.start(this.buffer.splice(0));
    await this.inFlight;
  }

  /** Waits for the write before (throwing its failure), then starts this one without waiting for it. */
  private async start(chunk: IndexDocument[]): Promise<void> {
    await this.inFlight;
    this.inFlight = this.write(chunk);
    // Its failure is thrown by the next start() or flush(), not reported as unhandled meanwhile.
    this.inFlight.catch(() => undefined);
  }

  private async write(chunk: IndexDocument[]): Promise<void> {
    await indexChunk(this.index, chunk);
    this.written += chunk.length;
    const done = this.written / this.total;
    if (done >= this.nextReport || this.written === this.total) {
      const seconds = (Date.now() - this.started) / 1000;
      const eta = done > 0 ? seconds / done - seconds : 0;
      this.log(
        `  indexing events: ${this.written.toLocaleString('en')} / ${this.total.toLocaleString('en')} (${Math.round(done * 100)}%), ${Math.round(this.written / seconds).toLocaleString('en')} events/s, ~${Math.round(eta)} s left`,
      );
      while (this.nextReport <= done) this.nextReport += 0.05;
    }
  }
}
