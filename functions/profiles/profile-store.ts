import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sleep } from '../shared/concurrency';
import { deepMerge } from './deep-merge';
import type { ProfileDocumentOverflow } from './profile-overflow';

export type ProfileKind = 'user' | 'company' | 'subscription';
/** What the table keeps: the indexed profiles, and anonymous visitors (kept here only, not indexed). */
export type StoredProfileKind = ProfileKind | 'visitor';

export interface StoredProfile {
  readonly document: Record<string, unknown>;
  readonly version: number;
  readonly created_at: string;
  readonly updated_at: string;
}

/**
 * Documents up to this many bytes of JSON are kept in the profile's item; larger ones in the
 * overflow store, with the item pointing at them. DynamoDB's item limit is 400 KB; the rest of the
 * item (keys, version, dates) is under 2 KB.
 */
export const MAX_INLINE_DOCUMENT_BYTES = 350_000;

/**
 * Users, companies, subscriptions and anonymous visitors, created or merged in the profiles table:
 *   pk <org>#<app>, sk <kind>#<id>, version, created_at, updated_at, and the merged document as JSON
 *   text: `document_json`, or `document_key` naming it in the overflow store when it is too large.
 *
 * The document is JSON text, not a DynamoDB map, because it is the customer's: keys such as
 * `constructor` or `__proto__` are data to it, while the marshaller reads them as object machinery
 * (refusing the first, dropping the second), and maps nest at most 32 deep.
 *
 * Each write is conditional on the version read, and retried on conflict, so concurrent updates of
 * one profile (two consumers, two shards) never lose each other's fields.
 */
export const profileKey = (orgId: string, appId: string, kind: StoredProfileKind, id: string) => ({ pk: `${orgId}#${appId}`, sk: `${kind}#${id}` });

export class ProfileStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly overflow: ProfileDocumentOverflow,
    private readonly options: { maxAttempts?: number } = {},
  ) {}

  async get(orgId: string, appId: string, kind: StoredProfileKind, id: string): Promise<StoredProfile | undefined> {
    const item = await this.read(orgId, appId, kind, id);
    return item && { document: await this.documentOf(item), version: item.version, created_at: item.created_at, updated_at: item.updated_at };
  }

  /** Deletes a profile (and its overflow document); false when there was none. */
  async delete(orgId: string, appId: string, kind: StoredProfileKind, id: string): Promise<boolean> {
    const result = await this.documents.send(
      new DeleteCommand({ TableName: this.tableName, Key: profileKey(orgId, appId, kind, id), ReturnValues: 'ALL_OLD' }),
    );
    const key = result.Attributes?.['document_key'];
    if (typeof key === 'string') await this.overflow.delete(key);
    return result.Attributes !== undefined;
  }

  async merge(orgId: string, appId: string, kind: StoredProfileKind, id: string, patch: Record<string, unknown>, at: string): Promise<StoredProfile> {
    const maxAttempts = this.options.maxAttempts ?? 10;
    for (let attempt = 1; ; attempt++) {
      const current = await this.read(orgId, appId, kind, id);
      const next: StoredProfile = {
        document: deepMerge(current ? await this.documentOf(current) : {}, patch),
        version: (current?.version ?? 0) + 1,
        created_at: current?.created_at ?? at,
        updated_at: current && current.updated_at > at ? current.updated_at : at,
      };
      const json = JSON.stringify(next.document);
      // An overflow document is written under its version's own key before the item points at it.
      const documentKey = Buffer.byteLength(json, 'utf8') > MAX_INLINE_DOCUMENT_BYTES ? overflowKey(orgId, appId, kind, id, next.version) : undefined;
      if (documentKey) await this.overflow.put(documentKey, json);
      try {
        await this.documents.send(
          new PutCommand({
            TableName: this.tableName,
            Item: {
              ...profileKey(orgId, appId, kind, id),
              version: next.version,
              created_at: next.created_at,
              updated_at: next.updated_at,
              ...(documentKey ? { document_key: documentKey } : { document_json: json }),
            },
            ConditionExpression: current ? 'version = :v' : 'attribute_not_exists(pk)',
            ExpressionAttributeValues: current ? { ':v': current.version } : undefined,
          }),
        );
        if (current?.document_key !== undefined && current.document_key !== documentKey) await this.overflow.delete(current.document_key).catch(() => {});
        return next;
      } catch (error) {
        // The item never pointed at this version's document: remove it (a retry writes its own).
        if (documentKey) await this.overflow.delete(documentKey).catch(() => {});
        if (!(error instanceof ConditionalCheckFailedException) || attempt >= maxAttempts) throw error;
        await sleep(Math.random() * 10 * 2 ** Math.min(attempt, 6));
      }
    }
  }

  private async read(orgId: string, appId: string, kind: StoredProfileKind, id: string): Promise<ProfileItem | undefined> {
    const result = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: profileKey(orgId, appId, kind, id), ConsistentRead: true }));
    const item = result.Item;
    if (!item) return undefined;
    return {
      version: Number(item['version'] ?? 0),
      created_at: String(item['created_at'] ?? ''),
      updated_at: String(item['updated_at'] ?? ''),
      ...(typeof item['document_json'] === 'string' ? { document_json: item['document_json'] } : {}),
      ...(typeof item['document_key'] === 'string' ? { document_key: item['document_key'] } : {}),
    };
  }

  private async documentOf(item: ProfileItem): Promise<Record<string, unknown>> {
    const json = item.document_key !== undefined ? await this.overflow.get(item.document_key) : item.document_json;
    return json === undefined ? {} : (JSON.parse(json) as Record<string, unknown>);
  }
}

interface ProfileItem {
  version: number;
  created_at: string;
  updated_at: string;
  document_json?: string;
  document_key?: string;
}

/** Overflow keys hash the profile's id (any text up to 256 bytes) into a fixed-length, S3-safe name. */
function overflowKey(orgId: string, appId: string, kind: StoredProfileKind, id: string, version: number): string {
  const hashed = createHash('sha256').update(id).digest('hex');
  return `profiles/${orgId}/${appId}/${kind}/${hashed}/v${version}.json`;
}
