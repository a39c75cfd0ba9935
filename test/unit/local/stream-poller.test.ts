import { GetRecordsCommand, GetShardIteratorCommand, ListShardsCommand, type KinesisClient, type _Record as KinesisRecord } from '@aws-sdk/client-kinesis';
import type { KinesisStreamEvent } from 'aws-lambda';
import type { Quarantine } from '../../../functions/ingest/consumer/quarantine';
import { StreamPoller } from '../../../bin/local/stream-poller';

/** A one-shard stream in memory: counts reads, hands out what was put since the last read. */
class FakeStream {
  reads = 0;
  private pending: KinesisRecord[] = [];
  private sequence = 0;

  put(data: string): void {
    this.sequence += 1;
    this.pending.push({
      SequenceNumber: String(this.sequence).padStart(20, '0'),
      PartitionKey: 'p',
      Data: Buffer.from(data),
      ApproximateArrivalTimestamp: new Date(),
    });
  }

  readonly client = {
    send: async (command: unknown) => {
      if (command instanceof ListShardsCommand) return { Shards: [{ ShardId: 'shard-0' }] };
      if (command instanceof GetShardIteratorCommand) return { ShardIterator: 'it' };
      if (command instanceof GetRecordsCommand) {
        this.reads += 1;
        const records = this.pending;
        this.pending = [];
        return { Records: records, NextShardIterator: 'it' };
      }
      throw new Error(`unexpected command ${String(command)}`);
    },
  } as unknown as KinesisClient;
}

const noQuarantine = {
  put: async () => {
    throw new Error('nothing should fail');
  },
} as unknown as Quarantine;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('local stream poller: idle back-off and nudges', () => {
  it('reads less and less often while the stream is idle (doubling up to the maximum)', async () => {
    const stream = new FakeStream();
    const poller = new StreamPoller({
      kinesis: stream.client,
      streamName: 's',
      handler: async () => ({ batchItemFailures: [] }),
      onFailure: noQuarantine,
      idlePollMs: 10,
      maxIdlePollMs: 40,
    });
    await poller.start();
    await wait(400);
    await poller.stop({ drain: false });
    // A fixed 10 ms wait would read about 40 times; 10, 20, then every 40 ms reads about a dozen times.
    expect(stream.reads).toBeGreaterThanOrEqual(5);
    expect(stream.reads).toBeLessThanOrEqual(16);
  });

  it('a nudge reads at once, however long the back-off has grown; waitUntilIdle does not wait for it either', async () => {
    const stream = new FakeStream();
    const seen: string[] = [];
    const handler = async (event: KinesisStreamEvent) => {
      for (const record of event.Records) seen.push(Buffer.from(record.kinesis.data, 'base64').toString());
      return { batchItemFailures: [] };
    };
    // A back-off far longer than the test's own timeout: only a nudge can get the records read in time.
    const poller = new StreamPoller({ kinesis: stream.client, streamName: 's', handler, onFailure: noQuarantine, idlePollMs: 60_000, maxIdlePollMs: 60_000 });
    await poller.start();
    await wait(50);
    stream.put('first');
    poller.nudge();
    while (seen.length === 0) await wait(5);
    expect(seen).toEqual(['first']);
    stream.put('second');
    await poller.waitUntilIdle(5_000);
    expect(seen).toEqual(['first', 'second']);
    // Stopping wakes the idle shard too (no minute-long wait).
    await poller.stop({ drain: false });
  }, 10_000);

  it('reads the next batch while one is delivered, delivers in order, and an empty read sent ahead is not "caught up"', async () => {
    const stream = new FakeStream();
    const seen: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handler = async (event: KinesisStreamEvent) => {
      const data = event.Records.map((record) => Buffer.from(record.kinesis.data, 'base64').toString());
      if (data.includes('first')) await gate;
      seen.push(...data);
      return { batchItemFailures: [] };
    };
    const poller = new StreamPoller({ kinesis: stream.client, streamName: 's', handler, onFailure: noQuarantine, idlePollMs: 60_000, maxIdlePollMs: 60_000 });
    await poller.start();
    while (stream.reads < 1) await wait(5);
    stream.put('first');
    poller.nudge();
    while (stream.reads < 3) await wait(5);
    // The read after 'first' went out while 'first' was still being delivered, and found nothing.
    expect(seen).toEqual([]);
    stream.put('late');
    const idle = poller.waitUntilIdle(5_000);
    release();
    await idle;
    expect(seen).toEqual(['first', 'late']);
    await poller.stop({ drain: false });
  }, 10_000);
});
