import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SubscriptionStatus } from '../../schemas/org';
import { NotFoundError, PaymentRequiredError, UnauthorizedError } from '../shared/errors';
import { orgKey } from './app-store';

export interface OrgStatusOptions {
  /** How long this instance trusts a status it read (≤ 30 s: a cancellation bites within that). */
  ttlMs?: number;
  now?: () => number;
}

export const DEFAULT_ORG_STATUS_TTL_MS = 30_000;

/**
 * An organisation's subscription status (ORG#<org> / ORG, `subscription_status`), cached per
 * instance so a burst of requests costs one read.
 */
export class OrgStatusCache {
  private readonly cache = new Map<string, { status: Promise<SubscriptionStatus | undefined>; expiresAt: number }>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
    options: OrgStatusOptions = {},
  ) {
    this.ttlMs = Math.min(options.ttlMs ?? DEFAULT_ORG_STATUS_TTL_MS, DEFAULT_ORG_STATUS_TTL_MS);
    this.now = options.now ?? Date.now;
  }

  /** undefined when the organisation does not exist; a missing field means active. */
  status(orgId: string): Promise<SubscriptionStatus | undefined> {
    const cached = this.cache.get(orgId);
    if (cached && cached.expiresAt > this.now()) return cached.status;
    const status = readOrgStatus(this.documents, this.tableName, orgId);
    this.cache.set(orgId, { status, expiresAt: this.now() + this.ttlMs });
    status.catch(() => this.cache.delete(orgId)); // a failed read is not remembered
    return status;
  }

  /** 402 for an inactive or cancelled subscription, 401 for an organisation that is gone. */
  async assertActive(orgId: string): Promise<void> {
    const status = await this.status(orgId);
    if (status === undefined) {
      throw new UnauthorizedError('The organisation of this token does not exist', [{ field: 'authorization', reason: 'unknown organisation' }]);
    }
    if (status !== 'active') {
      throw new PaymentRequiredError(`The organisation's subscription is ${status}; reactivate it to use the Management API`, [
        { field: 'organization.subscription_status', reason: status },
      ]);
    }
  }
}

export async function readOrgStatus(documents: DynamoDBDocumentClient, tableName: string, orgId: string): Promise<SubscriptionStatus | undefined> {
  const result = await documents.send(new GetCommand({ TableName: tableName, Key: orgKey(orgId), ProjectionExpression: 'pk, subscription_status' }));
  if (!result.Item) return undefined;
  const parsed = SubscriptionStatus.safeParse(result.Item.subscription_status ?? 'active');
  // An unknown stored value is treated as not active: fail closed.
  return parsed.success ? parsed.data : 'inactive';
}

/** Sets an organisation's subscription status (the admin command); 404 if it does not exist. */
export async function setOrgStatus(
  documents: DynamoDBDocumentClient,
  tableName: string,
  orgId: string,
  status: SubscriptionStatus,
  now: Date = new Date(),
): Promise<void> {
  try {
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: orgKey(orgId),
        UpdateExpression: 'SET subscription_status = :s, modified_at = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':s': status, ':now': now.toISOString() },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new NotFoundError(`No organisation ${orgId}`, [{ field: 'org_id', reason: 'does not exist' }]);
    throw error;
  }
}
