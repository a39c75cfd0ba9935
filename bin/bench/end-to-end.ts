import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutRecordsCommand } from '@aws-sdk/client-kinesis';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { DedupStore } from '../../functions/ingest/consumer/dedup-store';
import { mapWithConcurrency, sleep } from '../../functions/shared/concurrency';
import { LOCAL_DEDUP_CLAIMS, startLocalRuntime } from '../local/runtime';
import { provision } from '../local/provision';
import { ingestStream } from '../../functions/definitions/resources';
import { MAX_EVENTS_PER_RECORD, packStreamEntries } from '../../functions/ingest/stream/pack-records';
import { realisticEvent } from './fixtures';
import { timeMs } from './timing';

/** The local pipeline keeps up with this many events/s, end to end. */
export const E2E_TARGET_EVENTS_PER_SECOND = 2_000;

export interface EndToEndResult {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  /** Events sent through the same pipeline first, and their rate: what a just-started service manages. */
  warmupEvents: number;
  warmupEventsPerSecond: number;
  /** Dedup claims/s on DynamoDB Local as the local consumer takes them (its claim mode and concurrency): one per event with a transaction_id. */
  dedupClaimsPerSecond: number;
  /** DynamoDB write units the claims of a million events cost (one per claim item of at most 1 KB). */
  dedupWriteUnitsPerMillionEvents: number;
  /** kinesis-local PutRecords records/s, with records as the collector packs and encodes them. */
  kinesisRecordsPerSecond: number;
  eventsPerRecord: number;
  /** The emulators' ceiling in events/s: the slower of the two per-event costs. */
  ceilingEventsPerSecond: number;
  ratio: number;
}

/**
 * Local end-to-end rate: POST batches to the collector until every event is countable in the index,
 * against the ceiling of the emulators underneath, measured in the same run on the same emulators.
 */
export async function benchEndToEnd(
  options: { events?: number; warmupEvents?: number; batchSize?: number; concurrency?: number; log?: (line: string) => void } = {},
): Promise<EndToEndResult> {
  const events = options.events ?? 30_000;
  // A running service is warm: DynamoDB Local's JIT spends its first tens of thousands of claims
  // compiling (about 1 ms of CPU per claim, then 0.3 ms), so the rate that says whether the pipeline
  // keeps up is the one after a warm-up through the same pipeline; the warm-up's own rate is reported too.
  const warmupEvents = options.warmupEvents ?? 20_000;
  const batchSize = options.batchSize ?? 500;
  const log = options.log ?? (() => {});
  const dataDir = await mkdtemp(join(tmpdir(), 'uab-bench-'));
  const rt = await startLocalRuntime({ dataDir });
  try {
    const c = rt.credentials;
    const scope = { org_id: c.org_id, app_id: c.app_id };

    // The ceiling, on scratch resources of the same emulators: the dedup claim rate as the consumer
    // claims (a batch per shard in parallel, each through DedupStore), after a JIT warm-up, best of a
    // probe before and one after the end-to-end run.
    const scratch = await provision(rt.clients, 'bench-ceiling-');
    const claims = new DedupStore(rt.clients.documents, scratch.tables.dedup, { mode: LOCAL_DEDUP_CLAIMS });
    let probeRound = 0;
    const probeClaims = async (count: number) => {
      const round = probeRound++;
      const batches = Array.from({ length: Math.ceil(count / 500) }, (_, b) =>
        Array.from({ length: 500 }, (_, i) => ({ appId: 'bench', eventId: `ceiling#${round}#${b}#${i}`, owner: 'bench' })),
      );
      const ms = await timeMs(() => mapWithConcurrency(batches, ingestStream.localShardCount, (batch) => claims.claim(batch)));
      return (count / ms) * 1000;
    };
    await probeClaims(2000);
    const claimsBefore = await probeClaims(10_000);
    log(`  DynamoDB Local: ${claimsBefore.toFixed(0)} dedup claims/s`);
    // What a claim costs on AWS: a write unit per started KB of the item, measured on the item as stored.
    const claimItem = {
      pk: `${c.app_id}#${randomUUID()}`,
      owner: randomUUID(),
      claimed_at: new Date().toISOString(),
      expires_at: Math.floor(Date.now() / 1000),
    };
    const written = await rt.clients.documents.send(new PutCommand({ TableName: scratch.tables.dedup, Item: claimItem, ReturnConsumedCapacity: 'TOTAL' }));
    const dedupWriteUnitsPerMillionEvents = (written.ConsumedCapacity?.CapacityUnits ?? Math.ceil(JSON.stringify(claimItem).length / 1024)) * 1_000_000;

    // Records exactly as the collector writes them: 500 realistic events, packed and encoded.
    const sample = packStreamEntries(
      scope,
      'event',
      Array.from({ length: MAX_EVENTS_PER_RECORD }, (_, i) => ({
        id: randomUUID(),
        time: new Date().toISOString(),
        received_at: new Date().toISOString(),
        data: realisticEvent(i),
      })),
    );
    const eventsPerRecord = MAX_EVENTS_PER_RECORD;
    const recordData = sample[0]!.data;
    const kinesisRecords = 40;
    const kinesisMs = await timeMs(() =>
      mapWithConcurrency(
        Array.from({ length: kinesisRecords / 4 }, (_, i) => i),
        4,
        () =>
          rt.clients.kinesis.send(
            new PutRecordsCommand({ StreamName: scratch.stream, Records: Array.from({ length: 4 }, () => ({ PartitionKey: randomUUID(), Data: recordData })) }),
          ),
      ),
    );
    const kinesisRecordsPerSecond = (kinesisRecords / kinesisMs) * 1000;
    log(`  kinesis-local: ${kinesisRecordsPerSecond.toFixed(1)} records/s of ${eventsPerRecord} events`);

    // End to end: a warm-up, then the measured run, each timed from the first POST until all its events are countable.
    const headers = { 'content-type': 'application/json', 'x-service-application-id': c.collector_application_id };
    let sent = 0;
    const sendAndWait = async (count: number): Promise<number> => {
      const at = new Date();
      const first = sent;
      const batches = Array.from({ length: Math.ceil(count / batchSize) }, (_, b) =>
        JSON.stringify(Array.from({ length: Math.min(batchSize, count - b * batchSize) }, (_, i) => realisticEvent(first + b * batchSize + i, at))),
      );
      sent += count;
      const start = process.hrtime.bigint();
      await mapWithConcurrency(batches, options.concurrency ?? 4, async (body) => {
        const res = await fetch(`${c.collector_url}/v1/events/batch`, { method: 'POST', headers, body });
        if (res.status !== 201) throw new Error(`collector answered ${res.status}: ${await res.text()}`);
      });
      let counted = 0;
      let lastLog = Date.now();
      while ((counted = await rt.index.count(scope, 'events')) < sent) {
        if (Date.now() - lastLog > 2000) {
          log(`  ${counted - first}/${count} events countable`);
          lastLog = Date.now();
        }
        await sleep(50);
      }
      return Number(process.hrtime.bigint() - start) / 1e9;
    };
    const warmupEventsPerSecond = warmupEvents > 0 ? warmupEvents / (await sendAndWait(warmupEvents)) : 0;
    if (warmupEvents > 0) log(`  warm-up: ${warmupEvents} events at ${warmupEventsPerSecond.toFixed(0)} events/s`);
    const seconds = await sendAndWait(events);
    const eventsPerSecond = events / seconds;
    log(`  measured: ${events} events at ${eventsPerSecond.toFixed(0)} events/s`);
    const claimsAfter = await probeClaims(10_000);
    log(`  DynamoDB Local after the run: ${claimsAfter.toFixed(0)} dedup claims/s`);
    const dedupClaimsPerSecond = Math.max(claimsBefore, claimsAfter);
    const ceilingEventsPerSecond = Math.min(dedupClaimsPerSecond, kinesisRecordsPerSecond * eventsPerRecord);
    return {
      events,
      seconds,
      eventsPerSecond,
      warmupEvents,
      warmupEventsPerSecond,
      dedupClaimsPerSecond,
      dedupWriteUnitsPerMillionEvents,
      kinesisRecordsPerSecond,
      eventsPerRecord,
      ceilingEventsPerSecond,
      ratio: eventsPerSecond / ceilingEventsPerSecond,
    };
  } finally {
    await rt.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
