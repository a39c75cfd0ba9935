import type { PutRecordsCommand, KinesisClient, PutRecordsCommandOutput } from '@aws-sdk/client-kinesis';
import { KinesisPublisher } from '../../../functions/ingest/stream/publisher';
import { ServiceUnavailableError } from '../../../functions/shared/errors';

/**
 * The publisher's retry logic, against a stand-in that answers PutRecords the way Kinesis does under
 * throttling (per-record ErrorCode). The real round trip is covered by the integration tests.
 */
function throttlingStream(plan: (attempt: number, keys: string[]) => boolean[]) {
  const calls: string[][] = [];
  const accepted: string[] = [];
  const client = {
    async send(command: PutRecordsCommand): Promise<PutRecordsCommandOutput> {
      const keys = command.input.Records!.map((r) => r.PartitionKey!);
      calls.push(keys);
      const ok = plan(calls.length, keys);
      keys.forEach((k, i) => ok[i] && accepted.push(k));
      return {
        FailedRecordCount: ok.filter((x) => !x).length,
        Records: ok.map((x) =>
          x ? { SequenceNumber: '1', ShardId: 's' } : { ErrorCode: 'ProvisionedThroughputExceededException', ErrorMessage: 'slow down' },
        ),
        $metadata: {},
      };
    },
  } as unknown as KinesisClient;
  return { client, calls, accepted };
}

const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ partitionKey: `k${i}`, data: Buffer.from('{}') }));
const noSleep = { sleep: async () => {} };

describe('KinesisPublisher', () => {
  it('retries only the records that failed until all are accepted', async () => {
    const stream = throttlingStream((attempt, keys) => keys.map((_, i) => attempt > 1 || i % 2 === 0));
    await new KinesisPublisher(stream.client, 'stream', noSleep).publish(entries(10));
    expect(stream.calls).toHaveLength(2);
    expect(stream.calls[1]).toEqual(['k1', 'k3', 'k5', 'k7', 'k9']);
    expect(stream.accepted.sort()).toEqual(
      entries(10)
        .map((e) => e.partitionKey)
        .sort(),
    );
  });

  it('splits requests at 500 records', async () => {
    const stream = throttlingStream((_, keys) => keys.map(() => true));
    await new KinesisPublisher(stream.client, 'stream', noSleep).publish(entries(1200));
    expect(stream.calls.map((c) => c.length).sort((a, b) => b - a)).toEqual([500, 500, 200]);
  });

  it('answers 503 (ServiceUnavailableError) when records still fail after every attempt', async () => {
    const stream = throttlingStream((_, keys) => keys.map((k) => k !== 'k3'));
    const publisher = new KinesisPublisher(stream.client, 'stream', { ...noSleep, maxAttempts: 4 });
    await expect(publisher.publish(entries(5))).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(stream.calls).toHaveLength(4);
    expect(stream.calls.slice(1)).toEqual([['k3'], ['k3'], ['k3']]);
  });

  it('retries a request that throws (network, 5xx) and then succeeds', async () => {
    let attempts = 0;
    const client = {
      async send(command: PutRecordsCommand) {
        attempts++;
        if (attempts < 3) throw new Error('socket hang up');
        return { FailedRecordCount: 0, Records: command.input.Records!.map(() => ({ SequenceNumber: '1' })), $metadata: {} };
      },
    } as unknown as KinesisClient;
    await new KinesisPublisher(client, 'stream', noSleep).publish(entries(3));
    expect(attempts).toBe(3);
  });
});
