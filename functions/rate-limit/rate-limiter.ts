import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TooManyRequestsError } from '../shared/errors';
import {
  allowance,
  minuteLabel,
  minuteStart,
  rateLimitHeaders,
  rateLimitPolicy,
  rateLimitStatus,
  type RateLimitPolicy,
  type RateLimitStatus,
} from './rate-limit-policy';

export interface RateLimiterOptions {
  limitPerMinute: number;
  /** Sort-key prefix of the counters: separate buckets (API queries, token URL) count separately. */
  bucket?: string;
  /** What the counter counts, in the refusal's words (default: Management API queries). */
  counted?: string;
  now?: () => number;
}

/** Counters survive the minute they count a little, for the next minute's burst credit. */
const COUNTER_LIFETIME_SECONDS = 5 * 60;

/**
 * Per-org fixed-window counter in the resources table: RATE#<org> / <bucket>#<yyyy-mm-ddThh:mm>.
 * One conditional ADD per query takes a slot atomically, so concurrent Lambda instances can never
 * together accept more than the minute's allowance.
 */
export class RateLimiter {
  private readonly policy: RateLimitPolicy;
  private readonly bucket: string;
  private readonly counted: string;
  private readonly now: () => number;
  /** Previous minute's count per org, read once per minute per instance (it no longer changes). */
  private previous = { minute: '', counts: new Map<string, Promise<number>>() };

  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
    options: RateLimiterOptions,
  ) {
    this.policy = rateLimitPolicy(options.limitPerMinute);
    this.bucket = options.bucket ?? 'MINUTE';
    this.counted = options.counted ?? 'Management API queries';
    this.now = options.now ?? Date.now;
  }

  /** Takes one query of the org's minute; 429 with Retry-After and X-RateLimit-* when none is left. */
  async take(orgId: string): Promise<RateLimitStatus> {
    const nowMs = this.now();
    const start = minuteStart(nowMs);
    const allowed = allowance(this.policy, await this.previousCount(orgId, start));
    try {
      const result = await this.documents.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(orgId, start),
          UpdateExpression: 'SET expires_at = :exp ADD #used :one',
          ConditionExpression: 'attribute_not_exists(#used) OR #used < :allowed',
          ExpressionAttributeNames: { '#used': 'used' },
          ExpressionAttributeValues: { ':one': 1, ':allowed': allowed, ':exp': start / 1000 + 60 + COUNTER_LIFETIME_SECONDS },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return rateLimitStatus(allowed, Number(result.Attributes?.used ?? allowed), nowMs);
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const status = rateLimitStatus(allowed, allowed, nowMs);
      throw new TooManyRequestsError(
        `The organisation has used its ${allowed} ${this.counted} of this minute; retry in ${status.retryAfter} s`,
        [{ field: 'rate_limit', reason: `${allowed} ${this.counted} per minute` }],
        { 'retry-after': String(status.retryAfter), ...rateLimitHeaders(status) },
      );
    }
  }

  private key(orgId: string, start: number) {
    return { pk: `RATE#${orgId}`, sk: `${this.bucket}#${minuteLabel(start)}` };
  }

  private previousCount(orgId: string, start: number): Promise<number> {
    const minute = minuteLabel(start);
    if (this.previous.minute !== minute) this.previous = { minute, counts: new Map() };
    let count = this.previous.counts.get(orgId);
    if (!count) {
      count = this.documents.send(new GetCommand({ TableName: this.tableName, Key: this.key(orgId, start - 60_000) })).then((r) => Number(r.Item?.used ?? 0));
      const counts = this.previous.counts;
      count.catch(() => counts.delete(orgId));
      counts.set(orgId, count);
    }
    return count;
  }
}
