import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, DescribeTimeToLiveCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamSummaryCommand, GetRecordsCommand, GetShardIteratorCommand, ListShardsCommand, PutRecordsCommand } from '@aws-sdk/client-kinesis';
import { GetObjectCommand, HeadBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { startEmulators } from '../../bin/local/emulators';
import { physicalNames, provision, type ProvisionedNames } from '../../bin/local/provision';
import { ingestStream, tables } from '../../functions/definitions/resources';
import { destroyAwsClients, type AwsClients } from '../../functions/shared/aws/clients';
import { createLocalAwsClients } from '../../bin/local/local-aws-clients';
import { emulatorEndpoints, uniquePrefix } from './support/emulators';

/** Every record on every shard of the stream, from the start. */
async function readWholeStream(clients: AwsClients, streamName: string): Promise<string[]> {
  const { Shards = [] } = await clients.kinesis.send(new ListShardsCommand({ StreamName: streamName }));
  const data: string[] = [];
  for (const shard of Shards) {
    const { ShardIterator } = await clients.kinesis.send(
      new GetShardIteratorCommand({ StreamName: streamName, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' }),
    );
    const { Records = [] } = await clients.kinesis.send(new GetRecordsCommand({ ShardIterator: ShardIterator! }));
    data.push(...Records.map((record) => Buffer.from(record.Data!).toString('utf8')));
  }
  return data.sort();
}

describe('test resource prefixes', () => {
  it('gives every caller its own short, bucket-safe prefix', () => {
    const first = uniquePrefix('Collector API: limits & rules');
    const second = uniquePrefix('Collector API: limits & rules');
    expect(first).not.toBe(second);
    expect(first).toMatch(/^it-collector-api-limits-[a-z0-9]{8}-$/);
    expect(() => physicalNames(first)).not.toThrow();
  });
});

describe('provisioning on the shared emulators', () => {
  const prefix = uniquePrefix('emulators');
  let clients: AwsClients;
  let names: ProvisionedNames;

  beforeAll(async () => {
    clients = createLocalAwsClients(emulatorEndpoints());
    names = await provision(clients, prefix);
  }, 60_000);
  afterAll(() => destroyAwsClients(clients));

  it('creates every table with its key schema, and TTL where defined', async () => {
    for (const [key, table] of Object.entries(tables) as Array<[keyof typeof tables, (typeof tables)[keyof typeof tables]]>) {
      const { Table } = await clients.dynamodb.send(new DescribeTableCommand({ TableName: names.tables[key] }));
      expect(Table?.TableStatus).toBe('ACTIVE');
      expect(Table?.KeySchema?.[0]).toEqual({ AttributeName: table.partitionKey.name, KeyType: 'HASH' });
      const ttl = await clients.dynamodb.send(new DescribeTimeToLiveCommand({ TableName: names.tables[key] }));
      if ('timeToLiveAttribute' in table) {
        expect(ttl.TimeToLiveDescription).toEqual(expect.objectContaining({ TimeToLiveStatus: 'ENABLED', AttributeName: table.timeToLiveAttribute }));
      } else {
        expect(ttl.TimeToLiveDescription?.TimeToLiveStatus).toBe('DISABLED');
      }
    }
  });

  it('creates the stream ACTIVE with the local shard count and the defined retention', async () => {
    const { StreamDescriptionSummary } = await clients.kinesis.send(new DescribeStreamSummaryCommand({ StreamName: names.stream }));
    expect(StreamDescriptionSummary).toEqual(
      expect.objectContaining({
        StreamStatus: 'ACTIVE',
        OpenShardCount: ingestStream.localShardCount,
        RetentionPeriodHours: ingestStream.retentionHours,
        StreamARN: names.streamArn,
      }),
    );
  });

  it('round-trips an item, including the conditional put that dedup relies on', async () => {
    const item = { pk: 'app_1#tx_1', state: 'claimed', nested: { list: [1, 'two'] }, dropped: undefined };
    await clients.documents.send(new PutCommand({ TableName: names.tables.dedup, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    const { Item } = await clients.documents.send(new GetCommand({ TableName: names.tables.dedup, Key: { pk: 'app_1#tx_1' } }));
    expect(Item).toEqual({ pk: 'app_1#tx_1', state: 'claimed', nested: { list: [1, 'two'] } });
    await expect(
      clients.documents.send(new PutCommand({ TableName: names.tables.dedup, Item: item, ConditionExpression: 'attribute_not_exists(pk)' })),
    ).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
  });

  it('round-trips records through the stream', async () => {
    const sent = Array.from({ length: 20 }, (_, i) => `record-${String(i).padStart(2, '0')}`);
    const result = await clients.kinesis.send(
      new PutRecordsCommand({ StreamName: names.stream, Records: sent.map((data, i) => ({ Data: Buffer.from(data), PartitionKey: `key-${i}` })) }),
    );
    expect(result.FailedRecordCount).toBe(0);
    expect(await readWholeStream(clients, names.stream)).toEqual(sent);
  });

  it('round-trips objects, directly and through a pre-signed upload URL', async () => {
    const body = Buffer.from([0x1f, 0x8b, 0x00, 0xff, 0x10]);
    await clients.s3.send(new PutObjectCommand({ Bucket: names.buckets.archive, Key: 'app/2024-01-01/a.ndjson.gz', Body: body, ContentEncoding: 'gzip' }));
    const object = await clients.s3.send(new GetObjectCommand({ Bucket: names.buckets.archive, Key: 'app/2024-01-01/a.ndjson.gz' }));
    expect(Buffer.from(await object.Body!.transformToByteArray())).toEqual(body);
    expect(object.ContentEncoding).toBe('gzip');

    const url = await getSignedUrl(clients.s3, new PutObjectCommand({ Bucket: names.buckets.uploads, Key: 'upload-1.json' }), { expiresIn: 300 });
    const upload = await fetch(url, { method: 'PUT', body: '{"events":[]}' });
    expect(upload.status).toBe(200);
    const uploaded = await clients.s3.send(new GetObjectCommand({ Bucket: names.buckets.uploads, Key: 'upload-1.json' }));
    expect(await uploaded.Body!.transformToString()).toBe('{"events":[]}');
  });

  it('is idempotent: provisioning again keeps the resources and their data', async () => {
    const again = await provision(clients, prefix);
    expect(again).toEqual(names);
    const { Item } = await clients.documents.send(new GetCommand({ TableName: names.tables.dedup, Key: { pk: 'app_1#tx_1' } }));
    expect(Item?.state).toBe('claimed');
    for (const bucket of Object.values(names.buckets)) await clients.s3.send(new HeadBucketCommand({ Bucket: bucket }));
    const { TableNames = [] } = await clients.dynamodb.send(new ListTablesCommand({}));
    expect(TableNames.filter((name) => name.startsWith(prefix))).toHaveLength(Object.keys(tables).length);
  });
});

describe('emulators with a data directory', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'uab-emulators-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  /** True while any process of the group (the emulator and anything it spawned) is alive. */
  function groupAlive(pid: number): boolean {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  }

  it("keeps tables and objects across a restart (the stream starts empty: the runtime's journal refills it), and leaves no process behind", async () => {
    const first = await startEmulators({ dataDir });
    const prefix = 'restart-';
    let clients = createLocalAwsClients(first.endpoints);
    let names: ProvisionedNames;
    try {
      names = await provision(clients, prefix);
      await clients.documents.send(new PutCommand({ TableName: names.tables.resources, Item: { pk: 'org#1', sk: 'app#1', name: 'kept' } }));
      const put = await clients.kinesis.send(
        new PutRecordsCommand({ StreamName: names.stream, Records: [{ Data: Buffer.from('not kept by the emulator'), PartitionKey: 'p' }] }),
      );
      expect(put.FailedRecordCount).toBe(0);
      await clients.s3.send(new PutObjectCommand({ Bucket: names.buckets.archive, Key: 'kept.txt', Body: 'kept' }));
    } finally {
      // Open keep-alive connections would hold kinesis-local's graceful shutdown for 30 s.
      destroyAwsClients(clients);
      await first.stop();
    }
    for (const pid of Object.values(first.pids)) expect(groupAlive(pid)).toBe(false);

    const second = await startEmulators({ dataDir });
    clients = createLocalAwsClients(second.endpoints);
    try {
      expect(await provision(clients, prefix)).toEqual(names);
      const { Item } = await clients.documents.send(new GetCommand({ TableName: names.tables.resources, Key: { pk: 'org#1', sk: 'app#1' } }));
      expect(Item?.name).toBe('kept');
      // kinesis-local runs in memory; acknowledged records are kept by the local runtime's journal (hard-kill.test.ts).
      expect(await readWholeStream(clients, names.stream)).toEqual([]);
      const object = await clients.s3.send(new GetObjectCommand({ Bucket: names.buckets.archive, Key: 'kept.txt' }));
      expect(await object.Body!.transformToString()).toBe('kept');
    } finally {
      destroyAwsClients(clients);
      await second.stop();
    }
    for (const pid of Object.values(second.pids)) expect(groupAlive(pid)).toBe(false);
  }, 120_000);
});
