import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AccessTokenRecord } from '../../schemas/oauth';
import type { ManagementTokenClaims } from '../../schemas/management-token';
import { UnauthorizedError } from '../shared/errors';

/**
 * Records of issued management tokens (TOKEN#<jti> / TOKEN). A token is honoured only while its
 * record exists, is not revoked and has not expired, so revocation takes effect on the next request.
 */
export const tokenKey = (jti: string) => ({ pk: `TOKEN#${jti}`, sk: 'TOKEN' });

export class TokenStore {
  constructor(private readonly documents: DynamoDBDocumentClient, private readonly tableName: string) {}

  async put(record: AccessTokenRecord): Promise<void> {
    await this.documents.send(new PutCommand({
      TableName: this.tableName,
      Item: { ...tokenKey(record.jti), ...AccessTokenRecord.parse(record) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
  }

  async get(jti: string): Promise<AccessTokenRecord | undefined> {
    // Consistent read: a revocation must hold from the very next request.
    const result = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: tokenKey(jti), ConsistentRead: true }));
    return result.Item ? AccessTokenRecord.parse(result.Item) : undefined;
  }

  /** Marks a token of `orgId` revoked; false when there is no such token in that org. */
  async revoke(orgId: string, jti: string, at: Date): Promise<boolean> {
    try {
      await this.documents.send(new UpdateCommand({
        TableName: this.tableName,
        Key: tokenKey(jti),
        UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :at)',
        ConditionExpression: 'attribute_exists(pk) AND org_id = :org',
        ExpressionAttributeValues: { ':at': at.toISOString(), ':org': orgId },
      }));
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /** Throws 401 unless the token's record says it is still good. */
  async assertUsable(claims: ManagementTokenClaims, nowSeconds: number): Promise<void> {
    const record = await this.get(claims.jti);
    if (!record || record.org_id !== claims.org_id) throw refused('is not known to this service', 'unknown token');
    if (record.revoked_at) throw refused(`was revoked at ${record.revoked_at}`, 'revoked');
    // The TTL sweep runs late (up to days), so the record's expiry is checked here too.
    if (record.expires_at !== undefined && record.expires_at <= nowSeconds) throw refused('has expired', 'has expired');
  }
}

function refused(what: string, reason: string): UnauthorizedError {
  return new UnauthorizedError(`The management token ${what}`, [{ field: 'authorization', reason }]);
}
