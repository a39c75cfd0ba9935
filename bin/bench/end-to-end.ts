import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutRecordsCommand } from '@aws-sdk/client-kinesis';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { mapWithConcurrency, sleep } from '../../functions/shared/concurrency';
import { startLocalRuntime } from '../local/runtime';
import { provision } from '../local/provision';
import { ingestStream } from '../../functions/definitions/resources';
import { CLAIM_CONCURRENCY } from '../../functions/ingest/consumer/dedup-store';
import { MAX_EVENTS_PER_RECORD, packStreamEntries } from '../../functions/ingest/stream/pack-records';
import { realisticEvent } from './fixtures';
import { timeMs } from './timing';

export interface EndToEndResult {
  events: number;
  seconds: number;
  eventsPerSecond: number;
  /** DynamoDB Local conditional puts/s at the consumer's concurrency: one per event with a transaction_id (the dedup claim). */
  dynamoConditionalPutsPerSecond: number;
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
export async function benchEndToEnd(options: { events?: number; batchSize?: number; concurrency?: number; log?: (line: string) => void } = {}): Promise<EndToEndResult> {
  const events = options.events ?? 10_000;
  const batchSize = options.batchSize ?? 500;
  const log = options.log ?? (() => {});
  const dataDir = await mkdtemp(join(tmpdir(), 'uab-bench-'));
  const rt = await startLocalRuntime({ dataDir });
  try {
    const c = rt.credentials;
    const scope = { org_id: c.org_id, app_id: c.app_id };

    // The ceiling, on scratch resources of the same emulators: DynamoDB Local's conditional-put rate
    // at the consumer's concurrency (one batch per shard, CLAIM_CONCURRENCY claims each), after a JIT
    // warm-up, best of a probe before and one after the end-to-end run.
    const consumerConcurrency = ingestStream.localShardCount * CLAIM_CONCURRENCY;
    const scratch = await provision(rt.clients, 'bench-ceiling-');
    let probeRound = 0;
    const probePuts = async (count: number) => {
      const round = probeRound++;
      const ms = await timeMs(() =>
        mapWithConcurrency(Array.from({ length: count }, (_, i) => i), consumerConcurrency, (i) =>
          rt.clients.documents.send(new PutCommand({ TableName: scratch.tables.dedup, Item: { pk: `ceiling#${round}#${i}`, owner: 'bench' }, ConditionExpression: 'attribute_not_exists(pk)' })),
        ),
      );
      return (count / ms) * 1000;
    };
    await probePuts(2000);
    const putsBefore = await probePuts(4000);
    log(`  DynamoDB Local: ${putsBefore.toFixed(0)} conditional puts/s`);

    // Records exactly as the collector writes them: 500 realistic events, packed and encoded.
    const sample = packStreamEntries(scope, 'event', Array.from({ length: MAX_EVENTS_PER_RECORD }, (_, i) => ({ id: randomUUID(), time: new Date().toISOString(), received_at: new Date().toISOString(), data: realisticEvent(i) })));
    const eventsPerRecord = MAX_EVENTS_PER_RECORD;
    const recordData = sample[0]!.data;
    const kinesisRecords = 40;
    const kinesisMs = await timeMs(() =>
      mapWithConcurrency(Array.from({ length: kinesisRecords / 4 }, (_, i) => i), 4, () =>
        rt.clients.kinesis.send(new PutRecordsCommand({ StreamName: scratch.stream, Records: Array.from({ length: 4 }, () => ({ PartitionKey: randomUUID(), Data: recordData })) })),
      ),
    );
    const kinesisRecordsPerSecond = (kinesisRecords / kinesisMs) * 1000;
    log(`  kinesis-local: ${kinesisRecordsPerSecond.toFixed(1)} records/s of ${eventsPerRecord} events`);

    // End to end.
    const at = new Date();
    const batches = Array.from({ length: Math.ceil(events / batchSize) }, (_, b) => JSON.stringify(Array.from({ length: Math.min(batchSize, events - b * batchSize) }, (_, i) => realisticEvent(b * batchSize + i, at))));
    const headers = { 'content-type': 'application/json', 'x-service-application-id': c.collector_application_id };
    const start = process.hrtime.bigint();
    await mapWithConcurrency(batches, options.concurrency ?? 4, async (body) => {
      const res = await fetch(`${c.collector_url}/v1/events/batch`, { method: 'POST', headers, body });
      if (res.status !== 201) throw new Error(`collector answered ${res.status}: ${await res.text()}`);
    });
    let counted = 0;
    let lastLog = Date.now();
    while ((counted = await rt.index.count(scope, 'events')) < events) {
      if (Date.now() - lastLog > 2000) {
        log(`  ${counted}/${events} events countable`);
        lastLog = Date.now();
      }
      await sleep(50);
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const eventsPerSecond = events / seconds;
    const putsAfter = await probePuts(4000);
    log(`  DynamoDB Local after the run: ${putsAfter.toFixed(0)} conditional puts/s`);
    const dynamoConditionalPutsPerSecond = Math.max(putsBefore, putsAfter);
    const ceilingEventsPerSecond = Math.min(dynamoConditionalPutsPerSecond, kinesisRecordsPerSecond * eventsPerRecord);
    return { events, seconds, eventsPerSecond, dynamoConditionalPutsPerSecond, kinesisRecordsPerSecond, eventsPerRecord, ceilingEventsPerSecond, ratio: eventsPerSecond / ceilingEventsPerSecond };
  } finally {
    await rt.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
