/**
 * Creates the service's tables, ingest stream and buckets in the local emulators, from the same
 * definitions the CDK stack uses. Idempotent: what exists is kept (and checked), what is missing
 * is created, and it returns once everything is ACTIVE.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type KeySchemaElement,
} from '@aws-sdk/client-dynamodb';
import {
  CreateStreamCommand,
  DescribeStreamSummaryCommand,
  IncreaseStreamRetentionPeriodCommand,
  ListStreamsCommand,
  ResourceInUseException as StreamInUseException,
  type StreamDescriptionSummary,
} from '@aws-sdk/client-kinesis';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import type { AwsClients } from '../../functions/shared/aws/clients';
import { buckets, ingestStream, tables, type BucketKey, type TableDefinition, type TableKey } from '../../functions/definitions/resources';

export interface ProvisionedNames {
  tables: Record<TableKey, string>;
  stream: string;
  /** Known once the stream exists (set by provision, not by physicalNames). */
  streamArn?: string;
  buckets: Record<BucketKey, string>;
}

const READY_TIMEOUT_MS = 30_000;

/**
 * `${prefix}${logicalName}` for tables and the stream; buckets get the S3-legal spelling of the
 * same (lower case, words joined by dashes): prefix 'local-' → 'local-Dedup', 'local-archive-bucket'.
 */
export function physicalNames(prefix: string): ProvisionedNames {
  const tableNames = mapValues(tables, (table: TableDefinition) => checkName(`${prefix}${table.logicalName}`, 'table', /^[a-zA-Z0-9_.-]{3,255}$/));
  const bucketNames = mapValues(buckets, (bucket) =>
    checkName(`${prefix}${kebabCase(bucket.logicalName)}`.toLowerCase(), 'bucket', /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/),
  );
  return {
    tables: tableNames,
    stream: checkName(`${prefix}${ingestStream.logicalName}`, 'stream', /^[a-zA-Z0-9_.-]{1,128}$/),
    buckets: bucketNames,
  };
}

/** The environment a Lambda would get from CDK: each definition's envVar → its physical name. */
export function namesToEnv(names: ProvisionedNames): Record<string, string> {
  const env: Record<string, string> = { [ingestStream.envVar]: names.stream };
  for (const key of Object.keys(tables) as TableKey[]) env[tables[key].envVar] = names.tables[key];
  for (const key of Object.keys(buckets) as BucketKey[]) env[buckets[key].envVar] = names.buckets[key];
  return env;
}

export async function provision(clients: AwsClients, prefix: string): Promise<ProvisionedNames> {
  const names = physicalNames(prefix);
  const [, streamArn] = await Promise.all([
    Promise.all((Object.keys(tables) as TableKey[]).map((key) => ensureTable(clients, tables[key], names.tables[key]))),
    ensureStream(clients, names.stream),
    Promise.all(Object.values(names.buckets).map((bucket) => ensureBucket(clients, bucket))),
  ]);
  return { ...names, streamArn };
}

async function ensureTable(clients: AwsClients, table: TableDefinition, tableName: string): Promise<void> {
  const keySchema: KeySchemaElement[] = [{ AttributeName: table.partitionKey.name, KeyType: 'HASH' }];
  const attributes: AttributeDefinition[] = [{ AttributeName: table.partitionKey.name, AttributeType: table.partitionKey.type }];
  if (table.sortKey) {
    keySchema.push({ AttributeName: table.sortKey.name, KeyType: 'RANGE' });
    attributes.push({ AttributeName: table.sortKey.name, AttributeType: table.sortKey.type });
  }
  try {
    await clients.dynamodb.send(
      new CreateTableCommand({ TableName: tableName, KeySchema: keySchema, AttributeDefinitions: attributes, BillingMode: 'PAY_PER_REQUEST' }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  const description = await waitFor(`table ${tableName} to become ACTIVE`, async () => {
    const { Table } = await clients.dynamodb.send(new DescribeTableCommand({ TableName: tableName }));
    return Table?.TableStatus === 'ACTIVE' ? Table : undefined;
  });
  // A table persisted by an older version of the definitions would fail every write later, obscurely.
  const existing = (description.KeySchema ?? []).map((k) => `${k.AttributeName}:${k.KeyType}`).join(',');
  const wanted = keySchema.map((k) => `${k.AttributeName}:${k.KeyType}`).join(',');
  if (existing !== wanted) {
    throw new Error(
      `Table ${tableName} exists with key schema ${existing}, but the definitions want ${wanted}; delete the local data directory to recreate it`,
    );
  }
  if (table.timeToLiveAttribute !== undefined) await ensureTimeToLive(clients, tableName, table.timeToLiveAttribute);
}

async function ensureTimeToLive(clients: AwsClients, tableName: string, attribute: string): Promise<void> {
  const { TimeToLiveDescription } = await clients.dynamodb.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  const status = TimeToLiveDescription?.TimeToLiveStatus;
  if ((status === 'ENABLED' || status === 'ENABLING') && TimeToLiveDescription?.AttributeName === attribute) return;
  await clients.dynamodb.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: attribute, Enabled: true } }));
}

async function ensureStream(clients: AwsClients, streamName: string): Promise<string> {
  // Listing instead of describing: a describe of a missing stream makes kinesis-local log a warning.
  if (!(await streamExists(clients, streamName))) {
    try {
      await clients.kinesis.send(new CreateStreamCommand({ StreamName: streamName, ShardCount: ingestStream.localShardCount }));
    } catch (error) {
      if (!(error instanceof StreamInUseException)) throw error;
    }
  }
  let summary = await waitForActiveStream(clients, streamName);
  if ((summary.RetentionPeriodHours ?? 0) < ingestStream.retentionHours) {
    await clients.kinesis.send(new IncreaseStreamRetentionPeriodCommand({ StreamName: streamName, RetentionPeriodHours: ingestStream.retentionHours }));
    summary = await waitForActiveStream(clients, streamName);
  }
  if (summary.StreamARN === undefined) throw new Error(`Stream ${streamName} has no ARN`);
  return summary.StreamARN;
}

async function streamExists(clients: AwsClients, streamName: string): Promise<boolean> {
  let exclusiveStartStreamName: string | undefined;
  for (;;) {
    const page = await clients.kinesis.send(new ListStreamsCommand({ ExclusiveStartStreamName: exclusiveStartStreamName, Limit: 100 }));
    const names = page.StreamNames ?? [];
    if (names.includes(streamName)) return true;
    if (!page.HasMoreStreams || names.length === 0) return false;
    exclusiveStartStreamName = names[names.length - 1];
  }
}

function waitForActiveStream(clients: AwsClients, streamName: string): Promise<StreamDescriptionSummary> {
  return waitFor(`stream ${streamName} to become ACTIVE`, async () => {
    const { StreamDescriptionSummary: summary } = await clients.kinesis.send(new DescribeStreamSummaryCommand({ StreamName: streamName }));
    return summary?.StreamStatus === 'ACTIVE' ? summary : undefined;
  });
}

async function ensureBucket(clients: AwsClients, bucketName: string): Promise<void> {
  try {
    await clients.s3.send(new CreateBucketCommand({ Bucket: bucketName }));
  } catch (error) {
    // s3rver answers BucketAlreadyExists for a bucket of its own; S3 says BucketAlreadyOwnedByYou.
    const name = (error as { name?: string }).name;
    if (name !== 'BucketAlreadyExists' && name !== 'BucketAlreadyOwnedByYou') throw error;
  }
}

/** Polls `check` until it returns a value; a resource not yet visible counts as not ready. */
async function waitFor<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException) && (error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out after ${READY_TIMEOUT_MS} ms waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

function kebabCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/[^a-zA-Z0-9]+/g, '-');
}

function checkName(name: string, kind: string, pattern: RegExp): string {
  if (!pattern.test(name)) throw new Error(`"${name}" is not a valid ${kind} name (must match ${pattern}); choose another prefix`);
  return name;
}

function mapValues<K extends string, V, R>(record: Record<K, V>, map: (value: V) => R): Record<K, R> {
  return Object.fromEntries((Object.entries(record) as Array<[K, V]>).map(([key, value]) => [key, map(value)])) as Record<K, R>;
}
