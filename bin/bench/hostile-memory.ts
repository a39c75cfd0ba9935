import { parseSearchRequest } from '../../functions/search/dsl';
import { createDuckDbSearchIndex } from '../../functions/search/duckdb/duckdb-index';
import { eventDocument } from '../../functions/search/index-documents';
import type { TenantScope } from '../../functions/search/port';
import { ServiceError } from '../../functions/shared/errors';
import { seededRandom } from './search-dataset-model';

/**
 * The process's memory through rounds of hostile search bodies, each with keys of its own where the
 * search keeps caches (time zones written in any case and as fixed offsets, fixed intervals, date
 * formats, wildcard and `_source` patterns): the JavaScript heap in use after a full collection, and
 * RSS, after each round. A cache without a bound grows round after round; bounded ones level off.
 */

export const HOSTILE_ROUNDS = 3;
export const HOSTILE_BODIES = 2_000;
/** The JavaScript heap in use after a full collection may grow by at most this over the last round (MB). */
export const HOSTILE_HEAP_GROWTH_TARGET_MB = 2;

export interface HostileMemoryResult {
  readonly startRssMb: number;
  readonly rssMbAfterRound: readonly number[];
  readonly startHeapMb: number;
  readonly heapMbAfterRound: readonly number[];
  readonly refused: number;
  readonly answered: number;
}

const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/Argentina/Buenos_Aires', 'Pacific/Chatham'];

function hostileBody(random: () => number, n: number): { body: Record<string, unknown>; timeZone: string } {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const anyCase = (text: string) => [...text].map((ch) => (random() < 0.5 ? ch.toUpperCase() : ch.toLowerCase())).join('');
  const offset = () =>
    `${random() < 0.5 ? '+' : '-'}${String(Math.floor(random() * 14)).padStart(2, '0')}:${String(Math.floor(random() * 60)).padStart(2, '0')}`;
  const timeZone = random() < 0.5 ? anyCase(pick(ZONES)) : offset();
  const body = {
    size: 5,
    _source: { includes: [`request.*${n}*`, `metadata.${pick(['a', 'b', 'c'])}*${n}`], excludes: [`*.${n}`] },
    query: {
      bool: {
        filter: [
          { range: { time: { gte: `2026-01-01 ${n % 24}h${n}`, format: `yyyy-MM-dd H'h${n}'`, time_zone: timeZone } } },
          { wildcard: { 'request.route.raw': { value: `*${n}*a?*` } } },
        ],
      },
    },
    aggs: { per: { date_histogram: { field: 'time', fixed_interval: `${1 + (n % 9_973)}s`, time_zone: timeZone, min_doc_count: 1 } } },
  };
  return { body, timeZone };
}

const rssMb = () => Math.round(process.memoryUsage().rss / 1_048_576);
/** The JavaScript heap in use after a full collection (run with --expose-gc; without it, as it stands). */
const heapMb = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round(process.memoryUsage().heapUsed / 1_048_576);
};

export async function benchHostileMemory(options: { log?: (line: string) => void } = {}): Promise<HostileMemoryResult> {
  const log = options.log ?? (() => {});
  const index = await createDuckDbSearchIndex({ path: ':memory:' });
  const scope: TenantScope = { org_id: 'org_hostile', app_id: 'app_hostile' };
  const now = new Date('2026-03-15T12:00:00.000Z');
  try {
    await index.index(
      Array.from({ length: 2_000 }, (_, i) => {
        const time = new Date(now.getTime() - i * 60_000).toISOString();
        return eventDocument(scope, 'event', {
          id: `e${i}`,
          time,
          received_at: time,
          data: { request: { time, uri: `https://api.test/v1/items/${i}a`, route: `/v1/items/${i}a`, verb: 'GET', headers: {} }, metadata: { a: i } },
        });
      }),
    );
    // The same hostile bodies every run.
    const random = seededRandom(51);
    const startHeapMb = heapMb();
    const startRssMb = rssMb();
    const rssMbAfterRound: number[] = [];
    const heapMbAfterRound: number[] = [];
    let refused = 0;
    let answered = 0;
    for (let round = 0; round < HOSTILE_ROUNDS; round += 1) {
      for (let i = 0; i < HOSTILE_BODIES; i += 1) {
        const { body, timeZone } = hostileBody(random, round * HOSTILE_BODIES + i);
        try {
          const request = parseSearchRequest(body, 'events', { timeZone: 'UTC' });
          await index.search({ scope, kind: 'events', range: { from: new Date(now.getTime() - 30 * 86_400_000), to: now }, timeZone: 'UTC', now }, request);
          answered += 1;
        } catch (error) {
          if (!(error instanceof ServiceError) || error.status >= 500)
            throw new Error(`a hostile body in ${timeZone} was not refused cleanly: ${String(error)}`);
          refused += 1;
        }
      }
      heapMbAfterRound.push(heapMb());
      rssMbAfterRound.push(rssMb());
      log(
        `  round ${round + 1}: RSS ${rssMbAfterRound.at(-1)} MB (started at ${startRssMb} MB), JavaScript heap in use ${heapMbAfterRound.at(-1)} MB (${startHeapMb} MB)`,
      );
    }
    return { startRssMb, rssMbAfterRound, startHeapMb, heapMbAfterRound, refused, answered };
  } finally {
    await index.close();
  }
}
