import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sleep } from '../concurrency';

/** BatchWriteItem's per-call limit. */
export const BATCH_WRITE_ITEMS = 25;

type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

/**
 * Writes the requests 25 at a time, retrying what DynamoDB leaves unprocessed (throttling) with a
 * growing pause; throws if items stay unprocessed after 9 attempts.
 */
export async function batchWrite(documents: DynamoDBDocumentClient, tableName: string, requests: readonly WriteRequest[]): Promise<void> {
  for (let i = 0; i < requests.length; i += BATCH_WRITE_ITEMS) {
    let pending: WriteRequest[] | undefined = requests.slice(i, i + BATCH_WRITE_ITEMS);
    for (let attempt = 0; pending && pending.length > 0; attempt++) {
      if (attempt > 8) throw new Error(`DynamoDB kept returning unprocessed items while writing to ${tableName}`);
      if (attempt > 0) await sleep(Math.min(1000, 50 * 2 ** attempt));
      const result = await documents.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = result.UnprocessedItems?.[tableName] as WriteRequest[] | undefined;
    }
  }
}

/** Deletes the items with these keys (batched as above). */
export function batchDelete(documents: DynamoDBDocumentClient, tableName: string, keys: readonly Record<string, unknown>[]): Promise<void> {
  return batchWrite(documents, tableName, keys.map((Key) => ({ DeleteRequest: { Key } })));
}
