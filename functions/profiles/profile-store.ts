import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sleep } from '../shared/concurrency';
import { deepMerge } from './deep-merge';

export type ProfileKind = 'user' | 'company' | 'subscription';

export interface StoredProfile {
  readonly document: Record<string, unknown>;
  readonly version: number;
  readonly created_at: string;
  readonly updated_at: string;
}

/**
 * Users, companies and subscriptions, created or merged in the profiles table:
 *   pk <org>#<app>, sk <kind>#<id>, document, version, created_at, updated_at
 * Each write is conditional on the version read, and retried on conflict, so concurrent updates of
 * one profile (two consumers, two shards) never lose each other's fields.
 */
export const profileKey = (orgId: string, appId: string, kind: ProfileKind, id: string) => ({ pk: `${orgId}#${appId}`, sk: `${kind}#${id}` });

export class ProfileStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly options: { maxAttempts?: number } = {},
  ) {}

  async get(orgId: string, appId: string, kind: ProfileKind, id: string): Promise<StoredProfile | undefined> {
    const result = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: profileKey(orgId, appId, kind, id), ConsistentRead: true }));
    return result.Item ? toStored(result.Item) : undefined;
  }

  /** Deletes a profile; false when there was none. */
  async delete(orgId: string, appId: string, kind: ProfileKind, id: string): Promise<boolean> {
    const result = await this.documents.send(new DeleteCommand({ TableName: this.tableName, Key: profileKey(orgId, appId, kind, id), ReturnValues: 'ALL_OLD' }));
    return result.Attributes !== undefined;
  }

  async merge(orgId: string, appId: string, kind: ProfileKind, id: string, patch: Record<string, unknown>, at: string): Promise<StoredProfile> {
    const maxAttempts = this.options.maxAttempts ?? 10;
    for (let attempt = 1; ; attempt++) {
      const current = await this.get(orgId, appId, kind, id);
      const next: StoredProfile = {
        document: deepMerge(current?.document ?? {}, patch),
        version: (current?.version ?? 0) + 1,
        created_at: current?.created_at ?? at,
        updated_at: current && current.updated_at > at ? current.updated_at : at,
      };
      try {
        await this.documents.send(new PutCommand({
          TableName: this.tableName,
          Item: { ...profileKey(orgId, appId, kind, id), ...next },
          ConditionExpression: current ? 'version = :v' : 'attribute_not_exists(pk)',
          ExpressionAttributeValues: current ? { ':v': current.version } : undefined,
        }));
        return next;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException) || attempt >= maxAttempts) throw error;
        await sleep(Math.random() * 10 * 2 ** Math.min(attempt, 6));
      }
    }
  }
}

function toStored(item: Record<string, unknown>): StoredProfile {
  return {
    document: (item.document ?? {}) as Record<string, unknown>,
    version: Number(item.version ?? 0),
    created_at: String(item.created_at ?? ''),
    updated_at: String(item.updated_at ?? ''),
  };
}
