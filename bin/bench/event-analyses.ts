import { resolve } from 'node:path';
import { parseFunnelBody, parseRetentionBody } from '../../functions/search/analyses/parse-analyses';
import { createDuckDbSearchIndex } from '../../functions/search/duckdb/duckdb-index';
import type { SearchContext } from '../../functions/search/port';
import { BENCH_TENANT, DEFAULT_SEARCH_DATASET, prepareSearchDataset, type SearchDatasetSpec } from './search-dataset';
import { median, timeMs } from './timing';

/** Issue target: each analysis over 1M events answers in at most a second (median) on this machine. */
export const ANALYSES_TARGET_MS = 1000;

/** The search bench's data shape over twelve weeks instead of thirty days, so a 12-week table has 12 cohorts. */
export const ANALYSES_DATASET: SearchDatasetSpec = { ...DEFAULT_SEARCH_DATASET, days: 84, seed: 20261125 };

const ROUNDS = 9;

/** The benchmarks' funnel: four steps of the generated API calls, 7-day window, by user. */
export const BENCH_FUNNEL = {
  steps: [
    { name: 'Created something', query: { term: { 'request.verb': 'POST' } } },
    { name: 'Searched', query: { wildcard: { 'request.route.raw': '*/search' } } },
    { name: 'Looked at stats', query: { wildcard: { 'request.route.raw': '*/stats' } } },
    { name: 'Listed reports', query: { term: { 'request.route.raw': '/v1/reports' } } },
  ],
  by: 'user_id',
  conversion_window: '7d',
};

/** The benchmarks' retention: users who created something, coming back to search, in weekly cohorts. */
export const benchRetention = (weeks: number) => ({
  first_event: { term: { 'request.verb': 'POST' } },
  return_event: { wildcard: { 'request.route.raw': '*/search' } },
  interval: 'week',
  periods: weeks,
});

export interface AnalysisTiming {
  readonly name: string;
  readonly medianMs: number;
  readonly rounds: number;
  /** A figure from the answer, so a fast empty answer is seen for what it is. */
  readonly detail: string;
}

export interface AnalysesBenchResult {
  readonly events: number;
  readonly generatedSeconds: number;
  readonly reusedData: boolean;
  readonly timings: readonly AnalysisTiming[];
}

/**
 * The analyses section of `npm run bench`: a 4-step funnel (7-day window, by user) and a 12-week
 * retention table over 1,000,000 events on DuckDB, each parsed and run as the API does, timed over
 * ROUNDS runs after a warm-up.
 */
export async function benchEventAnalyses(options: { log?: (line: string) => void; dir?: string; events?: number } = {}): Promise<AnalysesBenchResult> {
  const log = options.log ?? (() => {});
  const spec = options.events === undefined ? ANALYSES_DATASET : { ...ANALYSES_DATASET, events: options.events };
  const dataset = await prepareSearchDataset({ dir: options.dir ?? resolve(__dirname, '../../.bench/search'), spec, log });
  log(dataset.reused ? `  reusing ${dataset.path}` : `  generated ${dataset.path} in ${Math.round(dataset.generatedSeconds)} s`);
  const index = await createDuckDbSearchIndex({ path: dataset.path });
  const now = dataset.anchor;
  const context: SearchContext = {
    scope: BENCH_TENANT,
    kind: 'events',
    range: { from: new Date(now.getTime() - 84 * 86_400_000), to: now },
    timeZone: 'UTC',
    now,
  };
  const funnelBody = BENCH_FUNNEL;
  const retentionBody = benchRetention(12);
  const analyses = [
    {
      name: '4-step funnel, 7-day window, by user',
      run: async () => {
        const answer = await index.funnel(context, parseFunnelBody(funnelBody));
        return `entered ${answer.steps[0]!.entered}, completed ${answer.steps[3]!.entered}`;
      },
    },
    {
      name: '12-week retention, weekly cohorts, by user',
      run: async () => {
        const answer = await index.retention(context, parseRetentionBody(retentionBody));
        return `${answer.cohorts.length} cohorts, first ${answer.cohorts[0]!.size} users, ${answer.cohorts[0]!.returned[0]} back the next week`;
      },
    },
  ];
  const timings: AnalysisTiming[] = [];
  try {
    for (const analysis of analyses) {
      const detail = await analysis.run();
      const times: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) times.push(await timeMs(analysis.run));
      timings.push({ name: analysis.name, medianMs: median(times), rounds: ROUNDS, detail });
      log(`  ${analysis.name}: median ${median(times).toFixed(0)} ms over ${ROUNDS} rounds (${detail})`);
    }
  } finally {
    await index.close();
  }
  return { events: dataset.spec.events, generatedSeconds: dataset.generatedSeconds, reusedData: dataset.reused, timings };
}
