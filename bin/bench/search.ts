import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseRequestRange } from '../../functions/search/dates/request-range';
import { createDuckDbSearchIndex } from '../../functions/search/duckdb/duckdb-index';
import type { SearchableIndex } from '../../functions/search/port';
import { searchAsTheApiDoes } from './api-search';
import { DUCKDB_PAIR_TIMING, handSqlConnection } from './duckdb-baseline';
import { firstDifference } from './search-compare';
import { BENCH_TENANT, DEFAULT_SEARCH_DATASET, prepareSearchDataset, tenantNumberIn, type SearchDatasetSpec } from './search-dataset';
import { dashboardQueries, type RunSql, type Send, type SqlScope } from './search-queries';
import { compareSettled, timeMs, type PairTiming } from './timing';

export const SEARCH_TARGETS = { ratio: 1.5, medianMs: 300, coldMs: 1_000 } as const;

export interface SearchQueryResult {
  name: string;
  /** Median of our search API (parse the parameters and body, search, reshape), per query. */
  oursMs: number;
  /** Median of the hand-written SQL answering the same question. */
  sqlMs: number;
  /** ours / SQL. */
  ratio: number;
  rounds: number;
  /** Requests one run of the query makes (paging makes one per page); the median target applies per request. */
  requests: number;
  /** One run right after a restart: a fresh instance of the index on the file (the OS may still cache it). */
  coldMs?: number;
  /** OpenSearch: the same two answered from the node's request cache (an aggregation asked again of an unchanged index). */
  cached?: { oursMs: number; byHandMs: number };
  meetsTargets: boolean;
}

export interface SearchBenchResult {
  events: number;
  users: number;
  /** Seconds the data set took to generate (this run, or when the cached file was made). */
  generatedSeconds: number;
  reusedData: boolean;
  queries: SearchQueryResult[];
  /** Seconds for the timed part (warm-up, checks and rounds), without generation. */
  seconds: number;
  /** The DuckDB file (its profiles included) over the events it holds, both tenants'. */
  bytesPerEvent: number;
}

/** Issue target for the embedded file. */
export const FILE_BYTES_PER_EVENT_TARGET = 200;

/**
 * The search section of `npm run bench`: eight dashboard queries over 1M events through our search
 * API on DuckDB, each against hand-written SQL over the same file in the same run. Before timing,
 * the two answers must agree: a fast wrong answer fails the benchmark.
 *
 * The SQL runs on its own read-only DuckDB instance of the same file, with the adapter's settings
 * (duckdb-baseline.ts); both are warmed up before timing.
 */
export async function benchSearch(
  options: { log?: (line: string) => void; spec?: SearchDatasetSpec; dir?: string; timing?: PairTiming } = {},
): Promise<SearchBenchResult> {
  const log = options.log ?? (() => {});
  const timing = options.timing ?? DUCKDB_PAIR_TIMING;
  const spec = options.spec ?? DEFAULT_SEARCH_DATASET;
  const dataset = await prepareSearchDataset({ dir: options.dir ?? resolve(__dirname, '../../.bench/search'), spec, log });
  log(
    dataset.reused
      ? `  reusing ${dataset.path} (generated in ${Math.round(dataset.generatedSeconds)} s at ${dataset.anchor.toISOString()})`
      : `  generated ${dataset.path} in ${Math.round(dataset.generatedSeconds)} s`,
  );

  const bytesPerEvent = statSync(dataset.path).size / (spec.events + spec.otherTenantEvents);
  log(`  file: ${Math.round(bytesPerEvent)} bytes an event (target ≤ ${FILE_BYTES_PER_EVENT_TARGET})`);
  const started = process.hrtime.bigint();
  const index: SearchableIndex = await createDuckDbSearchIndex({ path: dataset.path });
  const { connection, close } = await handSqlConnection(dataset.path);
  const runSql: RunSql = async (sql, values) => (await connection.runAndReadAll(sql, values)).getRowsJS();
  const tenantNumber = await tenantNumberIn(connection, BENCH_TENANT);

  const queries: SearchQueryResult[] = [];
  try {
    for (const query of dashboardQueries({ sampleEmail: dataset.sampleEmail, plan: 'enterprise' })) {
      // The data's "now", so relative windows select the same events whenever the cached file was made.
      const range = parseRequestRange(query.params, dataset.anchor);
      const scope: SqlScope = { tenantNumber, ...(query.kind === 'events' ? { from: range.from, to: range.to } : {}) };
      let requests = 0;
      const send: Send = (body) => {
        requests++;
        return searchAsTheApiDoes(index, query, dataset.anchor, body);
      };

      // The check: the first run of each also reads the data into each instance's cache.
      const ours = await query.ours(send);
      const expected = await query.sql(runSql, scope);
      const requestsPerRun = requests;
      assertMeaningful(query.name, expected);
      const difference = firstDifference(ours, expected);
      if (difference !== undefined) {
        throw new Error(`search bench: "${query.name}" answers differently from the hand-written SQL at ${difference}`);
      }

      const timed = await compareSettled(
        timing,
        () => query.sql(runSql, scope),
        () => query.ours(send),
      );
      const rounds = timed.rounds;
      const ratio = timed.subjectMs / timed.baselineMs;
      const meetsTargets = ratio <= SEARCH_TARGETS.ratio && timed.subjectMs / requestsPerRun <= SEARCH_TARGETS.medianMs;
      queries.push({ name: query.name, oursMs: timed.subjectMs, sqlMs: timed.baselineMs, ratio, rounds, requests: requestsPerRun, meetsTargets });
      log(
        `  ${query.name}: ours ${timed.subjectMs.toFixed(1)} ms, SQL ${timed.baselineMs.toFixed(1)} ms, ratio ${ratio.toFixed(2)} (${rounds} rounds after ${timed.warmUpRounds} untimed)`,
      );
    }
  } finally {
    close();
    await index.close();
  }
  // Right after a restart: each query once on an index opened just for it, so DuckDB's own cache is empty.
  for (const [i, query] of dashboardQueries({ sampleEmail: dataset.sampleEmail, plan: 'enterprise' }).entries()) {
    const restarted = await createDuckDbSearchIndex({ path: dataset.path });
    try {
      const coldMs = await timeMs(() => query.ours((body) => searchAsTheApiDoes(restarted, query, dataset.anchor, body)));
      const result = queries[i]!;
      queries[i] = { ...result, coldMs, meetsTargets: result.meetsTargets && coldMs <= SEARCH_TARGETS.coldMs };
      log(`  ${query.name} right after a restart: ${coldMs.toFixed(1)} ms`);
    } finally {
      await restarted.close();
    }
  }
  return {
    events: spec.events,
    users: spec.users,
    generatedSeconds: dataset.generatedSeconds,
    reusedData: dataset.reused,
    queries,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    bytesPerEvent,
  };
}

/** Two empty answers agree trivially: the data must give every query something to find. */
export function assertMeaningful(name: string, answer: unknown): void {
  const { total, buckets, hits } = answer as { total?: number; buckets?: unknown[]; hits?: unknown[] };
  if (total === 0 || buckets?.length === 0 || hits?.length === 0) {
    throw new Error(`search bench: "${name}" finds nothing in the generated data, so it would prove nothing`);
  }
}

/** The section's table: one line per query with both medians, the ratio and whether it meets the targets. */
export function searchTable(result: Pick<SearchBenchResult, 'queries'>, baseline = 'SQL'): string[] {
  const width = Math.max(...result.queries.map((q) => q.name.length), 5);
  const cold = result.queries.some((q) => q.coldMs !== undefined);
  const header = `  ${'query'.padEnd(width)}  ${'ours ms'.padStart(9)}  ${`${baseline} ms`.padStart(11)}  ${'ratio'.padStart(6)}  ${'rounds'.padStart(6)}${cold ? `  ${'cold ms'.padStart(8)}` : ''}  targets`;
  const lines = result.queries.map((q) => {
    const perRequest = q.requests > 1 ? ` (${(q.oursMs / q.requests).toFixed(1)} ms per request)` : '';
    const coldColumn = cold ? `  ${(q.coldMs?.toFixed(1) ?? '').padStart(8)}` : '';
    return `  ${q.name.padEnd(width)}  ${q.oursMs.toFixed(1).padStart(9)}  ${q.sqlMs.toFixed(1).padStart(11)}  ${q.ratio.toFixed(2).padStart(6)}  ${String(q.rounds).padStart(6)}${coldColumn}  ${q.meetsTargets ? 'met' : 'MISSED'}${perRequest}`;
  });
  return [header, ...lines];
}
