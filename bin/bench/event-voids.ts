import { randomUUID } from 'node:crypto';
import { copyFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DuckDBInstance, timestampTZValue } from '@duckdb/node-api';
import { MAX_VOID_EVENTS } from '../../schemas/event-voids';
import { createDuckDbSearchIndex } from '../../functions/search/duckdb/duckdb-index';
import { parseSearchRequest } from '../../functions/search/dsl';
import type { SearchContext } from '../../functions/search/port';
import { BENCH_TENANT, DEFAULT_SEARCH_DATASET, prepareSearchDataset, tenantNumberIn } from './search-dataset';
import { median, timeMs } from './timing';

export interface VoidBenchResult {
  readonly events: number;
  readonly hours: number;
  /** The engine's work of POST /~/events/voids: the hourly count, then the update. */
  readonly oursMs: number;
  /** One hand-written UPDATE of the same rows. */
  readonly sqlMs: number;
  readonly ratio: number;
}

const ROUNDS = 3;
const HOUR_MS = 3_600_000;

/**
 * `npm run bench -- voids`: a void of up to 100,000 events (the cap) on a copy of the search bench's
 * 1,000,000-event DuckDB file: what POST /~/events/voids asks of the engine (the matched events
 * counted by hour, then marked voided), against one hand-written UPDATE of the same rows. Each round
 * starts from the events unvoided. Besides the engine, a void writes its audit record twice and one
 * late mark per hour touched (DynamoDB), counted here, not timed.
 */
export async function benchEventVoids(options: { log?: (line: string) => void; dir?: string } = {}): Promise<VoidBenchResult> {
  const log = options.log ?? (() => {});
  const dataset = await prepareSearchDataset({ dir: options.dir ?? resolve(__dirname, '../../.bench/search'), spec: DEFAULT_SEARCH_DATASET, log });
  // A copy: voiding changes the file every other section reads.
  const path = join(tmpdir(), `bench-voids-${randomUUID().slice(0, 8)}.duckdb`);
  await copyFile(dataset.path, path);
  try {
    const context: SearchContext = { scope: BENCH_TENANT, kind: 'events', timeZone: 'UTC', now: dataset.anchor };
    const { from, to, events, hours } = await rangeOfAtMost(path, context, MAX_VOID_EVENTS);
    const voidContext = { ...context, range: { from, to } };
    const ours: number[] = [];
    const sql: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const index = await createDuckDbSearchIndex({ path });
      try {
        ours.push(
          await timeMs(async () => {
            const counted = await index.search(
              voidContext,
              parseSearchRequest(
                { size: 0, track_total_hits: true, aggs: { hours: { date_histogram: { field: 'time', fixed_interval: '1h', min_doc_count: 1 } } } },
                'events',
              ),
            );
            const voided = await index.voidEvents(voidContext, { type: 'match_all' }, { void_id: `bench-${round}`, voided_at: new Date().toISOString() });
            if (voided !== events || counted.hits.total !== events) throw new Error(`voids bench: voided ${voided} of ${events} events`);
          }),
        );
      } finally {
        await index.close();
      }
      sql.push(await handWrittenVoid(path, from, to, events, round));
    }
    const result = { events, hours, oursMs: median(ours), sqlMs: median(sql), ratio: median(ours) / median(sql) };
    log(
      `  ${events.toLocaleString('en')} events over ${hours} hours: ours ${result.oursMs.toFixed(0)} ms, one UPDATE ${result.sqlMs.toFixed(0)} ms, ratio ${result.ratio.toFixed(2)}; besides, 2 audit writes and ${hours} late marks (DynamoDB)`,
    );
    return result;
  } finally {
    await rm(path, { force: true });
    await rm(`${path}.wal`, { force: true });
  }
}

/** The latest whole hours before the anchor holding at most `cap` events: the range a void of the cap covers. */
async function rangeOfAtMost(path: string, context: SearchContext, cap: number): Promise<{ from: Date; to: Date; events: number; hours: number }> {
  const index = await createDuckDbSearchIndex({ path });
  try {
    const to = new Date(Math.floor(context.now.getTime() / HOUR_MS) * HOUR_MS);
    const answer = await index.search(
      { ...context, range: { from: new Date(to.getTime() - 10 * 86_400_000), to } },
      parseSearchRequest({ size: 0, aggs: { hours: { date_histogram: { field: 'time', fixed_interval: '1h', min_doc_count: 1 } } } }, 'events'),
    );
    const hourly = answer.aggregations?.['hours'] as { buckets?: { key: number; doc_count: number }[] } | undefined;
    const buckets = [...(hourly?.buckets ?? [])].reverse();
    let events = 0;
    let from = to;
    let hours = 0;
    for (const bucket of buckets) {
      if (events + bucket.doc_count > cap) break;
      events += bucket.doc_count;
      from = new Date(bucket.key);
      hours += 1;
    }
    return { from, to, events, hours };
  } finally {
    await index.close();
  }
}

/** Unvoids everything, then times one hand-written UPDATE marking the range's events, then unvoids them again. */
async function handWrittenVoid(path: string, from: Date, to: Date, events: number, round: number): Promise<number> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  const unvoid = `UPDATE events SET voided_at = NULL, doc = json_merge_patch(doc, '{"voided_at": null, "void_id": null}') WHERE voided_at IS NOT NULL`;
  try {
    await connection.run(unvoid);
    const values = {
      tenant: await tenantNumberIn(connection, BENCH_TENANT),
      from: timestampTZValue(BigInt(from.getTime()) * 1000n),
      to: timestampTZValue(BigInt(to.getTime()) * 1000n),
      at: timestampTZValue(BigInt(Date.now()) * 1000n),
      patch: JSON.stringify({ voided_at: new Date().toISOString(), void_id: `by-hand-${round}` }),
    };
    let updated = 0;
    const ms = await timeMs(async () => {
      const result = await connection.runAndReadAll(
        'UPDATE events SET voided_at = $at, doc = json_merge_patch(doc, $patch::JSON) WHERE tenant_number = $tenant AND "time" >= $from AND "time" < $to AND voided_at IS NULL',
        values,
      );
      updated = Number(result.getRows()[0]?.[0] ?? 0);
    });
    if (updated !== events) throw new Error(`voids bench: the UPDATE marked ${updated} of ${events} events`);
    await connection.run(unvoid);
    return ms;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
