import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mapWithConcurrency, sleep } from '../concurrency';

/** BatchWriteItem's per-call limit. */
export const BATCH_WRITE_ITEMS = 25;

export type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

export interface BatchWriteOptions {
  /**
   * Batches sent at once (default 1). Large items (report shards) go a few at a time: DynamoDB caps
   * a batch at 16 MB and a table's write capacity is shared.
   */
  readonly batchesInFlight?: number;
}

/** Attempts per batch before giving up: the pauses between them add up to about 5 s. */
const MAX_ATTEMPTS = 9;

/**
 * Writes the requests 25 at a time, retrying what DynamoDB leaves unprocessed (throttling) with a
 * growing pause; throws if items are still unprocessed after 9 attempts, so a caller never takes a
 * partial write for a whole one.
 */
export async function batchWrite(
  documents: DynamoDBDocumentClient,
  tableName: string,
  requests: readonly WriteRequest[],
  options: BatchWriteOptions = {},
): Promise<void> {
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_WRITE_ITEMS) batches.push(requests.slice(i, i + BATCH_WRITE_ITEMS));
  await mapWithConcurrency(batches, options.batchesInFlight ?? 1, async (batch) => {
    let pending: WriteRequest[] | undefined = batch;
    for (let attempt = 0; pending && pending.length > 0; attempt++) {
      if (attempt >= MAX_ATTEMPTS) throw new Error(`DynamoDB kept returning unprocessed items while writing to ${tableName}`);
      if (attempt > 0) await sleep(Math.min(1000, 50 * 2 ** attempt));
      const result = await documents.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = result.UnprocessedItems?.[tableName] as WriteRequest[] | undefined;
    }
  });
}

/** Deletes the items with these keys (batched as above). */
export function batchDelete(documents: DynamoDBDocumentClient, tableName: string, keys: readonly Record<string, unknown>[]): Promise<void> {
  return batchWrite(
    documents,
    tableName,
    keys.map((Key) => ({ DeleteRequest: { Key } })),
  );
}
