import { BatchGetCommand, type BatchGetCommandOutput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sleep } from '../concurrency';

/** BatchGetItem's per-call limit. */
export const BATCH_GET_KEYS = 100;

/** Attempts per batch before giving up: the pauses between them add up to about 5 s (as batchWrite). */
const MAX_ATTEMPTS = 9;

/**
 * The items with these keys (strongly consistent), read 100 at a time, retrying what DynamoDB leaves
 * unprocessed (throttling) with a growing pause; throws if keys are still unprocessed after 9
 * attempts, so a caller never takes a partial answer for "not there". Items come in no particular order.
 * A key given twice is read once: DynamoDB refuses a batch that repeats a key.
 */
export async function batchGet(
  documents: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const distinct = [...new Map(keys.map((key) => [keyText(key), key])).values()];
  for (let i = 0; i < distinct.length; i += BATCH_GET_KEYS) {
    let pending: Record<string, unknown>[] | undefined = distinct.slice(i, i + BATCH_GET_KEYS);
    for (let attempt = 0; pending && pending.length > 0; attempt += 1) {
      if (attempt >= MAX_ATTEMPTS) throw new Error(`DynamoDB kept returning unprocessed keys while reading from ${tableName}`);
      if (attempt > 0) await sleep(Math.min(1000, 50 * 2 ** attempt));
      const result: BatchGetCommandOutput = await documents.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
      );
      items.push(...(result.Responses?.[tableName] ?? []));
      pending = result.UnprocessedKeys?.[tableName]?.Keys;
    }
  }
  return items;
}

/** A key's identity: its attributes in name order (key attributes are strings or numbers). */
function keyText(key: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(key)
      .sort()
      .map((name) => [name, key[name]]),
  );
}
