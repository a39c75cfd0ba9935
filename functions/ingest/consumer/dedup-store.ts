import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DEDUP_RETENTION_DAYS } from '../../definitions/resources';
import { mapWithConcurrency } from '../../shared/concurrency';

/**
 * Exactly-once for events: one claim per `app_id#transaction_id`, owned by the stream record that
 * carried the event (its collector-assigned record_id), taken with one conditional put:
 *
 *   attribute_not_exists(pk) OR owner = :this record
 *
 *   claimed    the event is this record's to store: first sight, or a retry / replay of the same
 *              record after a failure anywhere after the claim (so a failed attempt never turns the
 *              event into a "duplicate" of itself — the OpenMeter #5118 trap)
 *   duplicate  another record owns it: the same event sent again (client retry), skipped
 *
 * Every acknowledged record is eventually processed — by the event source's retries, or by replaying
 * it from the failed-records bucket with its record_id intact — so the owner always finishes. One
 * write per event. Claims outlive the 30-day acceptance window (35 days, DynamoDB TTL).
 */
export type ClaimStatus = 'claimed' | 'duplicate';

export interface ClaimRequest {
  readonly appId: string;
  readonly eventId: string;
  /** The record_id of the stream record carrying the event. */
  readonly owner: string;
}

export const dedupKey = (appId: string, eventId: string) => `${appId}#${eventId}`;

/** Claims in flight per consumer batch: DynamoDB takes them in parallel, and claims are most of a batch's work. */
export const CLAIM_CONCURRENCY = 32;

export class DedupStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly options: { concurrency?: number; now?: () => number } = {},
  ) {}

  async claim(requests: readonly ClaimRequest[]): Promise<ClaimStatus[]> {
    return mapWithConcurrency(requests, this.options.concurrency ?? CLAIM_CONCURRENCY, (request) => this.claimOne(request));
  }

  private async claimOne(request: ClaimRequest): Promise<ClaimStatus> {
    const now = (this.options.now ?? Date.now)();
    try {
      await this.documents.send(new PutCommand({
        TableName: this.tableName,
        Item: { pk: dedupKey(request.appId, request.eventId), owner: request.owner, claimed_at: new Date(now).toISOString(), expires_at: Math.floor(now / 1000) + DEDUP_RETENTION_DAYS * 86_400 },
        ConditionExpression: 'attribute_not_exists(pk) OR #owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': request.owner },
      }));
      return 'claimed';
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return 'duplicate';
      throw error;
    }
  }
}
