import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DEDUP_RETENTION_DAYS } from '../../definitions/resources';
import { mapWithConcurrency, sleep } from '../../shared/concurrency';

/**
 * Exactly-once for events: a claim per `app_id#transaction_id`, taken with a conditional put.
 *
 *   new        nobody had it: this consumer stores the event
 *   unfinished claimed earlier but never marked done (a crash or failure after the claim):
 *              this consumer finishes it, routing by the claim's time so the index write lands on
 *              the same document id and index as the first attempt's
 *   done       stored already: a duplicate, skipped
 *
 * Claims outlive the 30-day acceptance window (35 days, DynamoDB TTL).
 */
export type ClaimStatus = 'new' | 'unfinished' | 'done';

export interface ClaimRequest {
  readonly appId: string;
  readonly eventId: string;
  /** The event's time; stored with the claim and returned to whoever finishes it. */
  readonly time: string;
}

export interface Claim {
  readonly key: string;
  readonly status: ClaimStatus;
  /** The time to index the event under: the claim's, not the duplicate's. */
  readonly time: string;
}

export const dedupKey = (appId: string, eventId: string) => `${appId}#${eventId}`;

export class DedupStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly options: { concurrency?: number; now?: () => number } = {},
  ) {}

  async claim(requests: readonly ClaimRequest[]): Promise<Claim[]> {
    return mapWithConcurrency(requests, this.options.concurrency ?? 32, (request) => this.claimOne(request));
  }

  private async claimOne(request: ClaimRequest): Promise<Claim> {
    const key = dedupKey(request.appId, request.eventId);
    const now = this.now();
    try {
      await this.documents.send(new PutCommand({
        TableName: this.tableName,
        Item: { pk: key, state: 'claimed', time: request.time, claimed_at: new Date(now).toISOString(), expires_at: expiry(now) },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }));
      return { key, status: 'new', time: request.time };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const existing = error.Item ? { state: error.Item.state?.S, time: error.Item.time?.S } : await this.read(key);
      return { key, status: existing.state === 'done' ? 'done' : 'unfinished', time: existing.time ?? request.time };
    }
  }

  private async read(key: string): Promise<{ state?: string; time?: string }> {
    const result = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: { pk: key }, ConsistentRead: true }));
    return { state: result.Item?.state as string | undefined, time: result.Item?.time as string | undefined };
  }

  /** Marks claims done once their events are indexed and archived (unconditional batch puts). */
  async markDone(claims: readonly Claim[]): Promise<void> {
    const now = this.now();
    const items = claims.map((c) => ({ PutRequest: { Item: { pk: c.key, state: 'done', time: c.time, done_at: new Date(now).toISOString(), expires_at: expiry(now) } } }));
    const chunks: (typeof items)[] = [];
    for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
    await mapWithConcurrency(chunks, 8, async (chunk) => {
      let pending = chunk;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt >= 8) throw new Error(`dedup table did not take ${pending.length} done marks`);
        if (attempt > 0) await sleep(Math.random() * 50 * 2 ** attempt);
        const result = await this.documents.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } }));
        pending = (result.UnprocessedItems?.[this.tableName] ?? []) as typeof pending;
      }
    });
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

function expiry(nowMs: number): number {
  return Math.floor(nowMs / 1000) + DEDUP_RETENTION_DAYS * 86_400;
}
