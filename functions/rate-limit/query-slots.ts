import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TooManyRequestsError } from '../shared/errors';

export interface QuerySlotsOptions {
  /** Queries of one org that may run at once. */
  readonly slots: number;
  /** How long a slot is held at most: the query budget plus a margin, so a crashed holder frees it by itself. */
  readonly leaseMs: number;
  readonly now?: () => number;
}

/** A slot taken: give it back when the query ends, whichever way. */
export interface QuerySlot {
  release(): Promise<void>;
}

/** Queries typically end within a second or two: a client is told to retry after that long. */
const RETRY_AFTER_SECONDS = 2;

/**
 * The per-organisation bound on queries running at once, shared by every Lambda instance: `slots`
 * items QUERY_SLOTS#<org> / <n> in the resources table. A query leases a slot with one conditional
 * put (free: absent, or its lease has ended) and deletes it when it ends (only while it is still its
 * own). When every slot is leased the query is refused with 429 and Retry-After.
 */
export class QuerySlots {
  private readonly now: () => number;

  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly options: QuerySlotsOptions,
  ) {
    if (!Number.isInteger(options.slots) || options.slots < 1) throw new Error(`query slots must be a positive integer, got ${options.slots}`);
    this.now = options.now ?? Date.now;
  }

  async acquire(orgId: string): Promise<QuerySlot> {
    const holder = randomUUID();
    // A random first slot spreads concurrent callers, so most take one on their first try.
    const first = Math.floor(Math.random() * this.options.slots);
    for (let tried = 0; tried < this.options.slots; tried += 1) {
      const key = { pk: `QUERY_SLOTS#${orgId}`, sk: String((first + tried) % this.options.slots) };
      const nowMs = this.now();
      try {
        await this.documents.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { ...key, holder, lease_until: nowMs + this.options.leaseMs, expires_at: Math.ceil((nowMs + this.options.leaseMs) / 1000) + 3600 },
            ConditionExpression: 'attribute_not_exists(pk) OR lease_until < :now',
            ExpressionAttributeValues: { ':now': nowMs },
          }),
        );
        return { release: () => this.release(key, holder) };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
    throw new TooManyRequestsError(
      `The organisation already runs ${this.options.slots} queries at once; retry when one has finished`,
      [{ field: 'concurrent_queries', reason: `at most ${this.options.slots} at once per organisation` }],
      { 'retry-after': String(RETRY_AFTER_SECONDS) },
    );
  }

  private async release(key: { pk: string; sk: string }, holder: string): Promise<void> {
    try {
      await this.documents.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: key,
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeValues: { ':holder': holder },
        }),
      );
    } catch (error) {
      // The lease ran out and another query holds the slot now: it is no longer ours to free.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
