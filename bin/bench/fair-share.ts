import { resolve } from 'node:path';
import { FairShare } from '../../functions/rate-limit/fair-share';
import type { QuerySlot } from '../../functions/rate-limit/query-slots';
import { parseSearchRequest } from '../../functions/search/dsl';
import { createDuckDbSearchIndex } from '../../functions/search/duckdb/duckdb-index';
import type { TenantScope } from '../../functions/search/port';
import { withinQueryBudget, type QueryBudgetDeps } from '../../functions/search/query-budget';
import { TooManyRequestsError } from '../../functions/shared/errors';
import { BENCH_TENANT, DEFAULT_SEARCH_DATASET, OTHER_TENANT, prepareSearchDataset, type SearchDatasetSpec } from './search-dataset';
import { median, timeMs } from './timing';

/**
 * One org floods the engine while another asks a simple count: the quiet org's latency, against
 * the same count on an idle engine (the baseline, this run). Run twice on the same data: queries
 * served as they come (the engine's own first-come order: what the service did before), and
 * through the process's fair share. Both orgs' queries go through withinQueryBudget, as the API's
 * do, with the per-org limit of 10 queries at once (held in memory here, as DynamoDB holds it).
 */

/** Queries the flooding org keeps asking for at once (the limit lets 10 of them run). */
const FLOOD_WORKERS = 30;
const PER_ORG_LIMIT = 10;
/** Counts the quiet org asks, one after another, while the flood runs. */
const QUIET_COUNTS = 9;
export const FAIR_SHARE_TARGET_MS = 1_000;

export interface FairShareModeResult {
  readonly quietMedianMs: number;
  readonly quietMaxMs: number;
  readonly floodCompleted: number;
  readonly floodRefused: number;
}

export interface FairShareBenchResult {
  readonly events: number;
  readonly idleCountMs: number;
  readonly unshared: FairShareModeResult;
  readonly fairShare: FairShareModeResult & { readonly capacity: number };
}

/** The per-org limit of query-slots.ts, in memory: 429 past `limit` queries of one org at once. */
function perOrgSlots(limit: number): Pick<QueryBudgetDeps['querySlots'], 'acquire'> {
  const running = new Map<string, number>();
  return {
    acquire: async (orgId: string): Promise<QuerySlot> => {
      const now = running.get(orgId) ?? 0;
      if (now >= limit) throw new TooManyRequestsError(`${orgId} runs ${limit} queries already`);
      running.set(orgId, now + 1);
      return { release: async () => void running.set(orgId, (running.get(orgId) ?? 1) - 1) };
    },
  };
}

/** A heavy dashboard search: every event of 30 days, by user with distinct companies and latency percentiles. */
const HEAVY = {
  size: 0,
  track_total_hits: true,
  aggs: {
    users: { terms: { field: 'user_id', size: 500 }, aggs: { companies: { cardinality: { field: 'company_id' } } } },
    latency: { percentiles: { field: 'duration_ms', percents: [50, 90, 99] } },
    routes: { terms: { field: 'request.route.raw', size: 100 }, aggs: { statuses: { terms: { field: 'response.status' } } } },
  },
};
const COUNT = { size: 0, track_total_hits: true, query: { term: { 'request.verb': 'GET' } } };

export async function benchFairShare(options: { log?: (line: string) => void; spec?: SearchDatasetSpec; dir?: string } = {}): Promise<FairShareBenchResult> {
  const log = options.log ?? (() => {});
  const spec = options.spec ?? DEFAULT_SEARCH_DATASET;
  const dataset = await prepareSearchDataset({ dir: options.dir ?? resolve(__dirname, '../../.bench/search'), spec, log });
  const index = await createDuckDbSearchIndex({ path: dataset.path });
  const search = (scope: TenantScope, body: Record<string, unknown>, signal: AbortSignal) =>
    index.search(
      {
        scope,
        kind: 'events',
        range: { from: new Date(dataset.anchor.getTime() - spec.days * 86_400_000), to: dataset.anchor },
        timeZone: 'UTC',
        now: dataset.anchor,
        signal,
      },
      parseSearchRequest(body, 'events'),
    );
  try {
    const idleDeps: QueryBudgetDeps = { querySlots: perOrgSlots(PER_ORG_LIMIT), queryTimeMs: 60_000 };
    const quiet = (deps: QueryBudgetDeps) => withinQueryBudget(deps, 'org_quiet', undefined, (signal) => search(OTHER_TENANT, COUNT, signal));
    await quiet(idleDeps);
    await withinQueryBudget(idleDeps, 'org_flood', undefined, (signal) => search(BENCH_TENANT, HEAVY, signal));
    const idle: number[] = [];
    for (let i = 0; i < QUIET_COUNTS; i++) idle.push(await timeMs(() => quiet(idleDeps)));
    const idleCountMs = median(idle);
    log(`  the quiet org's count on an idle engine: ${idleCountMs.toFixed(1)} ms (median of ${QUIET_COUNTS})`);

    const underFlood = async (deps: QueryBudgetDeps, label: string): Promise<FairShareModeResult> => {
      let flooding = true;
      let floodCompleted = 0;
      let floodRefused = 0;
      const worker = async () => {
        while (flooding) {
          try {
            await withinQueryBudget(deps, 'org_flood', undefined, (signal) => search(BENCH_TENANT, HEAVY, signal));
            floodCompleted += 1;
          } catch (error) {
            if (!(error instanceof TooManyRequestsError)) throw error;
            floodRefused += 1;
            await new Promise((done) => setTimeout(done, 20));
          }
        }
      };
      const workers = Array.from({ length: FLOOD_WORKERS }, worker);
      // Let the flood fill the engine before the quiet org asks.
      await new Promise((done) => setTimeout(done, 1_000));
      const times: number[] = [];
      for (let i = 0; i < QUIET_COUNTS; i++) times.push(await timeMs(() => quiet(deps)));
      flooding = false;
      await Promise.all(workers);
      const result = { quietMedianMs: median(times), quietMaxMs: Math.max(...times), floodCompleted, floodRefused };
      log(
        `  ${label}: the quiet org's count ${result.quietMedianMs.toFixed(0)} ms median, ${result.quietMaxMs.toFixed(0)} ms at most (${(result.quietMedianMs / idleCountMs).toFixed(1)}× idle); the flood completed ${floodCompleted} heavy searches`,
      );
      return result;
    };
    const unshared = await underFlood({ querySlots: perOrgSlots(PER_ORG_LIMIT), queryTimeMs: 60_000 }, 'served as they come');
    const share = new FairShare(4);
    const fair = await underFlood({ querySlots: perOrgSlots(PER_ORG_LIMIT), queryTimeMs: 60_000, fairShare: share }, `fair share of ${share.capacity}`);
    return { events: spec.events, idleCountMs, unshared, fairShare: { ...fair, capacity: share.capacity } };
  } finally {
    await index.close();
  }
}
