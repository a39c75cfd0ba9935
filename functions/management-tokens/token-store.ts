import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AccessTokenRecord } from '../../schemas/oauth';
import type { ManagementTokenClaims } from '../../schemas/management-token';
import { batchGet } from '../shared/aws/batch-get';
import { batchDelete } from '../shared/aws/batch-write';
import { mapWithConcurrency } from '../shared/concurrency';
import { UnauthorizedError } from '../shared/errors';
import { userKey } from '../organisations/org-user-store';
import { queryPages } from '../shared/aws/query-pages';

/**
 * Records of issued management tokens (TOKEN#<jti> / TOKEN). A token is honoured only while its
 * record exists, is not revoked and has not expired, so revocation takes effect on the next request.
 *
 * Each record has a twin in its subject's partition, `ORG#<org>#USER_TOKENS#<sub>` / `TOKEN#<jti>`,
 * so deleting an org user can find and revoke every token issued to them. The authenticator still
 * reads only the record: revoking at deletion costs nothing per request.
 */
export const tokenKey = (jti: string) => ({ pk: `TOKEN#${jti}`, sk: 'TOKEN' });
export const userTokensPartition = (orgId: string, sub: string) => `ORG#${orgId}#USER_TOKENS#${sub}`;
const userTokenKey = (orgId: string, sub: string, jti: string) => ({ pk: userTokensPartition(orgId, sub), sk: `TOKEN#${jti}` });

/** Index items revoked per query page; each is one conditional update. */
const REVOKE_PAGE = 100;
const REVOKE_CONCURRENCY = 8;

export class TokenStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Records a token and its twin in the subject's partition, in one transaction that also checks the
   * subject is not an org user being deleted (or just deleted): a token minted or granted while its
   * user's deletion sweeps their tokens would otherwise escape the sweep. Subjects that are not org
   * users (the local bootstrap token) have no user item, which passes the check.
   */
  async put(record: AccessTokenRecord): Promise<void> {
    const parsed = AccessTokenRecord.parse(record);
    try {
      await this.documents.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: this.tableName, Item: { ...tokenKey(parsed.jti), ...parsed }, ConditionExpression: 'attribute_not_exists(pk)' } },
            {
              Put: {
                TableName: this.tableName,
                Item: {
                  ...userTokenKey(parsed.org_id, parsed.sub, parsed.jti),
                  org_id: parsed.org_id,
                  sub: parsed.sub,
                  jti: parsed.jti,
                  ...(parsed.expires_at === undefined ? {} : { expires_at: parsed.expires_at }),
                },
              },
            },
            { ConditionCheck: { TableName: this.tableName, Key: userKey(parsed.org_id, parsed.sub), ConditionExpression: 'attribute_not_exists(deleted_at)' } },
          ],
        }),
      );
    } catch (error) {
      if (error instanceof TransactionCanceledException && error.CancellationReasons?.[2]?.Code === 'ConditionalCheckFailed') {
        throw new UnauthorizedError(`The user ${parsed.sub} was deleted`, [{ field: 'authorization', reason: 'user deleted' }]);
      }
      throw error;
    }
  }

  async get(jti: string): Promise<AccessTokenRecord | undefined> {
    // Consistent read: a revocation must hold from the very next request.
    const result = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: tokenKey(jti), ConsistentRead: true }));
    return result.Item ? AccessTokenRecord.parse(result.Item) : undefined;
  }

  /** Marks a token of `orgId` revoked; false when there is no such token in that org. */
  async revoke(orgId: string, jti: string, at: Date): Promise<boolean> {
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: tokenKey(jti),
          UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :at)',
          ConditionExpression: 'attribute_exists(pk) AND org_id = :org',
          ExpressionAttributeValues: { ':at': at.toISOString(), ':org': orgId },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /**
   * Revokes every token issued to `sub` in the org, a page at a time: each page's records are revoked
   * before their twins are removed, so a sweep that stops part-way is finished by running it again.
   * Returns how many tokens were revoked.
   */
  async revokeAllOf(orgId: string, sub: string, at: Date): Promise<number> {
    let revoked = 0;
    for (;;) {
      const page = await this.documents.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': userTokensPartition(orgId, sub) },
          ProjectionExpression: 'pk, sk, jti',
          ConsistentRead: true,
          Limit: REVOKE_PAGE,
        }),
      );
      const items = page.Items ?? [];
      if (items.length === 0) return revoked;
      // A record already removed by its TTL needs no revocation.
      const results = await mapWithConcurrency(items, REVOKE_CONCURRENCY, (item) => this.revoke(orgId, String(item['jti']), at));
      revoked += results.filter(Boolean).length;
      await batchDelete(
        this.documents,
        this.tableName,
        items.map((item) => ({ pk: item['pk'], sk: item['sk'] })),
      );
    }
  }

  /**
   * The tokens issued to `sub` in the org that are still usable (not revoked, not expired), newest
   * first, at most `limit`: read from the subject's partition, each checked against its record (read
   * consistently, 100 to a request).
   */
  async usableOf(orgId: string, sub: string, nowSeconds: number, limit = 200): Promise<AccessTokenRecord[]> {
    const found: AccessTokenRecord[] = [];
    for await (const page of queryPages(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': userTokensPartition(orgId, sub) },
      ProjectionExpression: 'jti',
    })) {
      const records = (
        await batchGet(
          this.documents,
          this.tableName,
          page.map((item) => tokenKey(String(item['jti']))),
        )
      ).map((item) => AccessTokenRecord.parse(item));
      for (const record of records) {
        if (record.org_id === orgId && !record.revoked_at && (record.expires_at === undefined || record.expires_at > nowSeconds)) found.push(record);
      }
      if (found.length >= limit * 4) break;
    }
    return found.sort((a, b) => b.issued_at - a.issued_at || b.jti.localeCompare(a.jti)).slice(0, limit);
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
