import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { StoredOrgUser, type CreateOrgUser, type OrgUser } from '../../schemas/org';
import { ValidationError } from '../shared/errors';
import { hashPassword } from './password-hash';

/** Org users: ORG#<org> / USER#<username>, with a scrypt hash of the password. */
export const userKey = (orgId: string, username: string) => ({ pk: `ORG#${orgId}`, sk: `USER#${username}` });
const USER_PREFIX = 'USER#';

export class OrgUserStore {
  constructor(private readonly documents: DynamoDBDocumentClient, private readonly tableName: string) {}

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
      await this.documents.send(new PutCommand({
        TableName: this.tableName,
        Item: { ...userKey(orgId, user.username), ...user },
        ConditionExpression: options.replace ? undefined : 'attribute_not_exists(pk)',
      }));
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) {
        throw new ValidationError(`A user named ${input.username} already exists in this organisation`, [{ field: 'username', reason: 'already exists' }]);
      }
      throw error;
    }
    return publicUser(user);
  }

  async find(orgId: string, username: string): Promise<StoredOrgUser | undefined> {
    const result = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: userKey(orgId, username), ConsistentRead: true }));
    return result.Item ? StoredOrgUser.parse(result.Item) : undefined;
  }

  async list(orgId: string): Promise<OrgUser[]> {
    const users: OrgUser[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.documents.send(new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :user)',
        ExpressionAttributeValues: { ':pk': `ORG#${orgId}`, ':user': USER_PREFIX },
        ExclusiveStartKey: startKey,
      }));
      for (const item of page.Items ?? []) users.push(publicUser(StoredOrgUser.parse(item)));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return users;
  }

  /** False when there was no such user. */
  async delete(orgId: string, username: string): Promise<boolean> {
    const result = await this.documents.send(new DeleteCommand({ TableName: this.tableName, Key: userKey(orgId, username), ReturnValues: 'ALL_OLD' }));
    return result.Attributes !== undefined;
  }
}

function publicUser(user: StoredOrgUser): OrgUser {
  const { password_hash: _hash, ...rest } = user;
  return rest;
}
