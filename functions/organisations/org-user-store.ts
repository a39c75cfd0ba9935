import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { StoredOrgUser, Username, type CreateOrgUser, type OrgUser } from '../../schemas/org';
import { ConflictError } from '../shared/errors';
import { hashPassword } from './password-hash';
import { queryAll } from '../shared/aws/query-pages';

/**
 * Org users: ORG#<org> / USER#<username>, with a scrypt hash of the password.
 *
 * Deleting a user is three steps (org-user-removal.ts): the item is marked `deleted_at` (its hash
 * dropped), the user's tokens are revoked, then the mark gets `expires_at` (the table's TTL) a day
 * later. While marked, no token can be recorded for that username (TokenStore.put checks it), so a
 * token minted by a request that authenticated just before the sweep cannot outlive the deletion.
 * A marked item is invisible to find and list; a username can be taken again once the sweep is done.
 */
export const userKey = (orgId: string, username: string) => ({ pk: `ORG#${orgId}`, sk: `USER#${username}` });
const USER_PREFIX = 'USER#';
/** DynamoDB's limit on a partition key's value. */
const MAX_PARTITION_KEY_BYTES = 2048;
/** How long a deleted user's mark outlives its sweep: far longer than any request that began before it. */
export const DELETED_USER_MARK_SECONDS = 24 * 3600;
const isDeleted = (item: Record<string, unknown>) => item['deleted_at'] !== undefined;

export class OrgUserStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Creates a user; an existing username is a 400 unless `replace` (local bootstrap resets its admin). */
  async create(orgId: string, input: CreateOrgUser, options: { now?: Date; replace?: boolean } = {}): Promise<OrgUser> {
    const user: StoredOrgUser = StoredOrgUser.parse({
      org_id: orgId,
      username: input.username,
      password_hash: await hashPassword(input.password),
      scopes: [...new Set(input.scopes)],
      created_at: (options.now ?? new Date()).toISOString(),
    });
    try {
      await this.documents.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...userKey(orgId, user.username), ...user },
          // A finished deletion's mark (it has expires_at) may be overwritten; one still sweeping may not.
          ConditionExpression: options.replace ? undefined : 'attribute_not_exists(pk) OR attribute_exists(expires_at)',
        }),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) {
        throw new ConflictError(`A user named ${input.username} already exists in this organisation`, [{ field: 'username', reason: 'already exists' }]);
      }
      throw error;
    }
    return publicUser(user);
  }

  async find(orgId: string, username: string): Promise<StoredOrgUser | undefined> {
    // A name no user can have, or a key DynamoDB cannot hold, names nobody (it would be a 500 from the table).
    if (!Username.safeParse(username).success || Buffer.byteLength(userKey(orgId, username).pk) > MAX_PARTITION_KEY_BYTES) return undefined;
    const result = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: userKey(orgId, username), ConsistentRead: true }));
    return result.Item && !isDeleted(result.Item) ? StoredOrgUser.parse(result.Item) : undefined;
  }

  async list(orgId: string): Promise<OrgUser[]> {
    const items = await queryAll(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :user)',
      ExpressionAttributeValues: { ':pk': `ORG#${orgId}`, ':user': USER_PREFIX },
    });
    return items.filter((item) => !isDeleted(item)).map((item) => publicUser(StoredOrgUser.parse(item)));
  }

  /**
   * Step 1 of a deletion: marks the user deleted (a repeat while the sweep is unfinished is allowed,
   * so a deletion that stopped part-way can be completed). False when there is no such user, or its
   * deletion already finished.
   */
  async markDeleted(orgId: string, username: string, at: Date): Promise<boolean> {
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: userKey(orgId, username),
          UpdateExpression: 'SET deleted_at = if_not_exists(deleted_at, :at) REMOVE password_hash',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(expires_at)',
          ExpressionAttributeValues: { ':at': at.toISOString() },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /** Last step of a deletion, after the user's tokens are revoked: the mark expires a day later. */
  async finishDeletion(orgId: string, username: string, at: Date): Promise<void> {
    await this.documents.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: userKey(orgId, username),
        UpdateExpression: 'SET expires_at = :exp',
        ConditionExpression: 'attribute_exists(deleted_at)',
        ExpressionAttributeValues: { ':exp': Math.floor(at.getTime() / 1000) + DELETED_USER_MARK_SECONDS },
      }),
    );
  }
}

function publicUser(user: StoredOrgUser): OrgUser {
  const { password_hash: _hash, ...rest } = user;
  return rest;
}
