import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  ExpiredIteratorException,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  ListShardsCommand,
  type KinesisClient,
  type _Record as KinesisRecord,
} from '@aws-sdk/client-kinesis';
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { consumerEventSource } from '../../functions/definitions/resources';
import type { Quarantine } from '../../functions/ingest/consumer/quarantine';
import { sleep } from '../../functions/shared/concurrency';

/**
 * Local stand-in for the Lambda Kinesis event source mapping, with the same settings
 * (functions/definitions/resources.ts → consumerEventSource) and the same semantics:
 * batches of up to `batchSize` per shard, in order; ReportBatchItemFailures (retry from the lowest
 * failed sequence number); a thrown error bisects the batch; after `retryAttempts` retries or
 * `maxRecordAgeHours`, the records go to the on-failure destination (the failed-records bucket,
 * payload included) and the shard moves on. Checkpoints are kept in a file, so a restart resumes
 * after the last processed record.
 */
export interface StreamPollerOptions {
  readonly kinesis: KinesisClient;
  readonly streamName: string;
  readonly handler: (event: KinesisStreamEvent) => Promise<KinesisStreamBatchResponse>;
  readonly onFailure: Quarantine;
  /** Where checkpoints persist; omit to keep them in memory. */
  readonly checkpointFile?: string;
  readonly region?: string;
  readonly batchSize?: number;
  readonly retryAttempts?: number;
  /**
   * Wait after an empty read (default 100 ms), doubled after each further empty read up to
   * maxIdlePollMs (default 5 s): an idle local service barely polls (a fixed 100 ms cost kinesis-local
   * about a tenth of a core, 1 s still 3% of one). The local collector and upload watcher nudge() after
   * putting records, which reads at once, so the long idle wait adds no latency to local ingestion.
   */
  readonly idlePollMs?: number;
  readonly maxIdlePollMs?: number;
  readonly retryDelayMs?: number;
  /** Called with each batch once it is finished (consumed, or kept in the failed-records bucket), before its checkpoint moves. */
  readonly onFinished?: (records: readonly Uint8Array[]) => Promise<void>;
  readonly log?: (line: string) => void;
}

type Checkpoints = Record<string, string>;
type ShardRead = { response: GetRecordsCommandOutput } | { error: unknown };

export class StreamPoller {
  private checkpoints: Checkpoints = {};
  private running = false;
  private draining = false;
  private loops: Promise<void>[] = [];
  private readonly caughtUp = new Map<string, boolean>();
  private readonly batchSize: number;
  private readonly retryAttempts: number;
  private checkpointWrite: Promise<void> = Promise.resolve();
  private wake = signal();

  constructor(private readonly options: StreamPollerOptions) {
    this.batchSize = options.batchSize ?? consumerEventSource.batchSize;
    this.retryAttempts = options.retryAttempts ?? consumerEventSource.retryAttempts;
  }

  async start(): Promise<void> {
    this.checkpoints = await this.loadCheckpoints();
    const shards = await this.options.kinesis.send(new ListShardsCommand({ StreamName: this.options.streamName }));
    this.running = true;
    this.loops = (shards.Shards ?? []).map((s) => this.pollShard(s.ShardId!));
  }

  /** Idle shards read again now instead of after their back-off (records were just put). */
  nudge(): void {
    const current = this.wake;
    this.wake = signal();
    current.fire();
  }

  /** Resolves when every shard has been read to its end with nothing left to process. */
  async waitUntilIdle(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      this.caughtUp.clear();
      this.nudge();
      // A fresh round: wait until every shard reports an empty read after this point.
      while (Date.now() < deadline && this.caughtUp.size < this.loops.length) await sleep(20);
      if ([...this.caughtUp.values()].every(Boolean) && this.caughtUp.size === this.loops.length) return;
    }
    throw new Error('stream poller did not become idle in time');
  }

  /**
   * Stops polling. With `drain`, first consumes everything already on the stream, for at most
   * `drainTimeoutMs` when given: then each shard stops after the batch it is on.
   */
  async stop(options: { drain: boolean; drainTimeoutMs?: number }): Promise<void> {
    if (!this.running) return;
    let deadline: NodeJS.Timeout | undefined;
    if (options.drain) {
      this.draining = true;
      if (options.drainTimeoutMs !== undefined) {
        deadline = setTimeout(() => {
          this.options.log?.(`poller: stopped draining after ${options.drainTimeoutMs} ms`);
          this.running = false;
          this.nudge();
        }, options.drainTimeoutMs);
      }
    } else {
      this.running = false;
    }
    this.nudge();
    await Promise.all(this.loops);
    clearTimeout(deadline);
    this.running = false;
    await this.checkpointWrite;
  }

  private async pollShard(shardId: string): Promise<void> {
    let iterator = await this.iteratorFor(shardId);
    let idleMs = this.options.idlePollMs ?? 100;
    // The next batch is read while this one is delivered, as the Lambda event source mapping polls
    // ahead: kinesis-local spends about 25 ms of CPU per record of 500 events answering GetRecords,
    // which would otherwise leave the shard's consumer idle between batches.
    let ahead: Promise<ShardRead> | undefined;
    while (this.running) {
      const readAhead = ahead !== undefined;
      const read = await (ahead ?? this.read(iterator));
      ahead = undefined;
      if ('error' in read) {
        if (read.error instanceof ExpiredIteratorException) {
          iterator = await this.iteratorFor(shardId);
          continue;
        }
        this.options.log?.(`poller: GetRecords on ${shardId} failed: ${(read.error as Error).message}`);
        await sleep(500);
        continue;
      }
      const records = read.response.Records ?? [];
      iterator = read.response.NextShardIterator ?? iterator;
      if (records.length > 0) {
        this.caughtUp.set(shardId, false);
        idleMs = this.options.idlePollMs ?? 100;
        ahead = this.read(iterator);
        await this.deliver(shardId, records);
        await this.options.onFinished?.(records.map((r) => r.Data ?? new Uint8Array())).catch((error: unknown) => {
          // Unmarked records are only replayed after a restart, and replays are idempotent.
          this.options.log?.(`poller: could not mark ${records.length} record(s) finished: ${(error as Error).message}`);
        });
        this.checkpoints[shardId] = records[records.length - 1]!.SequenceNumber!;
        this.persistCheckpoints();
        continue;
      }
      // An empty read sent before the last batch finished says nothing about now: read again.
      if (readAhead) continue;
      this.caughtUp.set(shardId, true);
      if (this.draining) return;
      const woken = await this.idle(idleMs);
      idleMs = woken ? (this.options.idlePollMs ?? 100) : Math.min(idleMs * 2, this.options.maxIdlePollMs ?? 5_000);
    }
    // A read still ahead is dropped: its records are read again from the checkpoint after a restart.
  }

  /** One GetRecords, its failure as a value (a read ahead may be dropped unawaited). */
  private read(iterator: string): Promise<ShardRead> {
    return this.options.kinesis.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: this.batchSize })).then(
      (response) => ({ response }),
      (error: unknown) => ({ error }),
    );
  }

  /** Waits `ms`, or less when nudged (true); the timer is cleared either way (nothing keeps a stopped poller's process alive). */
  private idle(ms: number): Promise<boolean> {
    const { fired } = this.wake;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void fired.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private async iteratorFor(shardId: string): Promise<string> {
    const after = this.checkpoints[shardId];
    const result = await this.options.kinesis.send(
      new GetShardIteratorCommand({
        StreamName: this.options.streamName,
        ShardId: shardId,
        ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', StartingSequenceNumber: after } : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return result.ShardIterator!;
  }

  /** Delivers one batch with the event source mapping's retry, bisect and on-failure behaviour. */
  private async deliver(shardId: string, records: KinesisRecord[]): Promise<void> {
    const pending: KinesisRecord[][] = [records];
    while (pending.length > 0) {
      let batch = pending.shift()!;
      for (let attempt = 0; ; attempt++) {
        let failedFrom: number;
        try {
          const response = await this.options.handler(this.toEvent(shardId, batch));
          const failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
          if (failed.size === 0) break;
          failedFrom = batch.findIndex((r) => failed.has(r.SequenceNumber!));
          if (failedFrom < 0) break; // identifiers not in the batch: Lambda treats the batch as done
        } catch (error) {
          this.options.log?.(`poller: consumer failed on ${batch.length} record(s) of ${shardId}: ${(error as Error).message}`);
          if (consumerEventSource.bisectBatchOnError && batch.length > 1) {
            const half = Math.ceil(batch.length / 2);
            pending.unshift(batch.slice(0, half), batch.slice(half));
            break;
          }
          failedFrom = 0;
        }
        batch = batch.slice(failedFrom);
        if (attempt >= this.retryAttempts || this.tooOld(batch)) {
          await this.options.onFailure.put(
            `consumer failed after ${attempt + 1} attempt(s)`,
            batch.map((r) => ({
              sequenceNumber: r.SequenceNumber!,
              partitionKey: r.PartitionKey,
              data: Buffer.from(r.Data ?? new Uint8Array()).toString('base64'),
            })),
            { shardId, streamName: this.options.streamName },
            'on-failure',
          );
          this.options.log?.(`poller: ${batch.length} record(s) of ${shardId} sent to the failed-records bucket`);
          break;
        }
        await sleep((this.options.retryDelayMs ?? 200) * Math.min(2 ** attempt, 16));
      }
    }
  }

  private tooOld(batch: KinesisRecord[]): boolean {
    const oldest = batch[0]?.ApproximateArrivalTimestamp?.getTime();
    return oldest !== undefined && Date.now() - oldest > consumerEventSource.maxRecordAgeHours * 3_600_000;
  }

  private toEvent(shardId: string, records: KinesisRecord[]): KinesisStreamEvent {
    const region = this.options.region ?? 'local';
    return {
      Records: records.map((r) => ({
        kinesis: {
          kinesisSchemaVersion: '1.0',
          partitionKey: r.PartitionKey ?? '',
          sequenceNumber: r.SequenceNumber!,
          data: Buffer.from(r.Data ?? new Uint8Array()).toString('base64'),
          approximateArrivalTimestamp: (r.ApproximateArrivalTimestamp?.getTime() ?? Date.now()) / 1000,
        },
        eventSource: 'aws:kinesis',
        eventVersion: '1.0',
        eventID: `${shardId}:${r.SequenceNumber}`,
        eventName: 'aws:kinesis:record',
        invokeIdentityArn: 'arn:aws:iam::000000000000:role/local',
        awsRegion: region,
        eventSourceARN: `arn:aws:kinesis:${region}:000000000000:stream/${this.options.streamName}`,
      })),
    };
  }

  private async loadCheckpoints(): Promise<Checkpoints> {
    if (!this.options.checkpointFile) return {};
    try {
      return JSON.parse(await readFile(this.options.checkpointFile, 'utf8')) as Checkpoints;
    } catch {
      return {};
    }
  }

  /** Writes are chained and atomic (temp file + rename), so a crash never leaves a torn file. */
  private persistCheckpoints(): void {
    const file = this.options.checkpointFile;
    if (!file) return;
    const snapshot = JSON.stringify(this.checkpoints);
    this.checkpointWrite = this.checkpointWrite.then(async () => {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(`${file}.tmp`, snapshot);
      await rename(`${file}.tmp`, file);
    });
  }
}

/** A one-shot wake-up: `fired` resolves (to true) when `fire` is called. */
function signal(): { fired: Promise<true>; fire: () => void } {
  let fire!: () => void;
  const fired = new Promise<true>((resolve) => {
    fire = () => resolve(true);
  });
  return { fired, fire };
}
