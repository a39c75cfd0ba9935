import { createHash, randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { RuleAssignments } from '../../schemas/governance';
import { batchWrite } from '../shared/aws/batch-write';
import { appRulesPartition } from '../resources/keys';
import { queryItems } from '../shared/aws/query-pages';
import { RULE_CONFIG_SORT_KEY } from '../resources/keys';

/**
 * The cohort membership of an app's rules and sampled cohorts (GET /v1/config's user_rules /
 * company_rules and the cohort part of user_sample_rate / company_sample_rate), as the refresher
 * computed it, in the resources table:
 *   ORG#<org>#APP#<app> / CONFIG#RULES                    header: content hash, generation, and the
 *                                                         gzip JSON itself when it fits
 *   ORG#<org>#APP#<app> / CONFIG#RULES#<generation>#<n>   gzip chunks when it does not
 * Why chunks: a cohort can hold far more members than one 400 KB item; a new generation's chunks are
 * written before the header points at them, so a reader never sees half of a snapshot.
 */
/** Compressed bytes kept in one item: well under DynamoDB's 400 KB item limit with keys and names. */
export const RULE_CONFIG_CHUNK_BYTES = 350_000;

export interface RuleConfigSnapshot {
  /** Hex digest of the membership's canonical JSON: equal content, equal hash, on every instance. */
  readonly hash: string;
  /**
   * The digest of what the SDKs must do: the content without the values that move while a rule holds
   * (a blocked company's usage, spend or balance), so the config's ETag, which makes every SDK
   * fetch the config again, changes only when who is hit by what changes.
   */
  readonly tag: string;
  readonly assignments: RuleAssignments;
}

/** Rule values that move on every refresh while a company stays blocked (rule-store.ts billingVariables). */
export const MOVING_RULE_VALUES: ReadonlySet<string> = new Set(['quota_used', 'spend_cap_spent', 'balance']);

/** The tag of a membership (RuleConfigSnapshot.tag). */
export function assignmentsTag(assignments: RuleAssignments): string {
  const steady = (byId: RuleAssignments['user_rules']) =>
    Object.fromEntries(
      Object.entries(byId).map(([id, hits]) => [
        id,
        hits.map((hit) => ({ ...hit, values: Object.fromEntries(Object.entries(hit.values).filter(([name]) => !MOVING_RULE_VALUES.has(name))) })),
      ]),
    );
  return contentHash(canonicalJson({ ...assignments, user_rules: steady(assignments.user_rules), company_rules: steady(assignments.company_rules) }));
}

export interface RuleConfigReader {
  read(orgId: string, appId: string): Promise<RuleConfigSnapshot>;
}

export interface RuleConfigStoreOptions {
  /** How long a read snapshot is reused by this instance (the collector's config cache). */
  readonly cacheTtlMs?: number;
  readonly now?: () => number;
}

/** The JSON with object keys sorted at every level, so equal memberships hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

export function contentHash(json: string): string {
  return createHash('sha256').update(json).digest('hex').slice(0, 32);
}

export const EMPTY_ASSIGNMENTS: RuleAssignments = { user_rules: {}, company_rules: {}, user_sample_rate: {}, company_sample_rate: {} };
export const EMPTY_SNAPSHOT: RuleConfigSnapshot = {
  hash: contentHash(canonicalJson(EMPTY_ASSIGNMENTS)),
  tag: assignmentsTag(EMPTY_ASSIGNMENTS),
  assignments: EMPTY_ASSIGNMENTS,
};

interface Header {
  hash: string;
  /** Stored since the tag exists; computed from the content for a header written before. */
  tag?: string;
  generation: string;
  chunks: number;
  data?: Uint8Array;
}

export class RuleConfigStore implements RuleConfigReader {
  private readonly cache = new Map<string, { snapshot: RuleConfigSnapshot; expiresAt: number }>();
  private readonly cacheTtlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
    options: RuleConfigStoreOptions = {},
  ) {
    this.cacheTtlMs = options.cacheTtlMs ?? 5_000;
    this.now = options.now ?? Date.now;
  }

  async read(orgId: string, appId: string): Promise<RuleConfigSnapshot> {
    const key = `${orgId}/${appId}`;
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > this.now()) return cached.snapshot;
    const snapshot = await this.readStored(orgId, appId);
    if (this.cache.size > 1000) this.cache.clear();
    this.cache.set(key, { snapshot, expiresAt: this.now() + this.cacheTtlMs });
    return snapshot;
  }

  /** The stored hash only (the refresher compares before writing). */
  async storedHash(orgId: string, appId: string): Promise<string | undefined> {
    return (await this.header(orgId, appId))?.hash;
  }

  /**
   * Stores a membership unless the stored one has the same hash. Returns the snapshot now stored.
   * Concurrent writers: the header is replaced only over the generation this writer read; the loser
   * removes its own chunks (the winner's content is as fresh).
   */
  async write(orgId: string, appId: string, assignments: RuleAssignments): Promise<{ snapshot: RuleConfigSnapshot; changed: boolean }> {
    const json = canonicalJson(assignments);
    const snapshot: RuleConfigSnapshot = { hash: contentHash(json), tag: assignmentsTag(assignments), assignments };
    const previous = await this.header(orgId, appId);
    if (previous?.hash === snapshot.hash) return { snapshot, changed: false };

    const pk = appRulesPartition(orgId, appId);
    const compressed = gzipSync(json);
    const generation = randomBytes(8).toString('hex');
    const chunks: Buffer[] = [];
    if (compressed.length > RULE_CONFIG_CHUNK_BYTES) {
      for (let offset = 0; offset < compressed.length; offset += RULE_CONFIG_CHUNK_BYTES)
        chunks.push(compressed.subarray(offset, offset + RULE_CONFIG_CHUNK_BYTES));
      await batchWrite(
        this.documents,
        this.tableName,
        chunks.map((data, n) => ({ PutRequest: { Item: { pk, sk: chunkKey(generation, n), data } } })),
      );
    }
    try {
      await this.documents.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            pk,
            sk: RULE_CONFIG_SORT_KEY,
            org_id: orgId,
            app_id: appId,
            hash: snapshot.hash,
            tag: snapshot.tag,
            generation,
            chunks: chunks.length,
            ...(chunks.length === 0 ? { data: compressed } : {}),
            updated_at: new Date(this.now()).toISOString(),
          },
          ConditionExpression: previous ? 'generation = :previous' : 'attribute_not_exists(pk)',
          ...(previous ? { ExpressionAttributeValues: { ':previous': previous.generation } } : {}),
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      await this.deleteChunks(pk, generation, chunks.length);
      return { snapshot: await this.readStored(orgId, appId), changed: false };
    }
    if (previous && previous.chunks > 0) await this.deleteChunks(pk, previous.generation, previous.chunks);
    this.cache.delete(`${orgId}/${appId}`);
    return { snapshot, changed: true };
  }

  private async readStored(orgId: string, appId: string): Promise<RuleConfigSnapshot> {
    // A writer may replace the generation between reading the header and its chunks: read again then.
    for (let attempt = 0; attempt < 3; attempt++) {
      const header = await this.header(orgId, appId);
      if (!header) return EMPTY_SNAPSHOT;
      const compressed = header.chunks === 0 ? header.data : await this.chunks(orgId, appId, header);
      if (!compressed) continue;
      const assignments = RuleAssignments.parse(JSON.parse(gunzipSync(compressed).toString('utf8')));
      return { hash: header.hash, tag: header.tag ?? assignmentsTag(assignments), assignments };
    }
    throw new Error(`rule config of ${orgId}/${appId} kept changing while being read`);
  }

  private async header(orgId: string, appId: string): Promise<Header | undefined> {
    const result = await this.documents.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: appRulesPartition(orgId, appId), sk: RULE_CONFIG_SORT_KEY }, ConsistentRead: true }),
    );
    const item = result.Item;
    if (!item) return undefined;
    return {
      hash: String(item['hash']),
      ...(typeof item['tag'] === 'string' ? { tag: item['tag'] } : {}),
      generation: String(item['generation']),
      chunks: Number(item['chunks'] ?? 0),
      data: item['data'] as Uint8Array | undefined,
    };
  }

  /** The generation's chunks joined, or undefined when some are gone (a newer generation replaced it). */
  private async chunks(orgId: string, appId: string, header: Header): Promise<Buffer | undefined> {
    const parts: Uint8Array[] = [];
    for await (const item of queryItems(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': appRulesPartition(orgId, appId), ':prefix': `${RULE_CONFIG_SORT_KEY}#${header.generation}#` },
      ConsistentRead: true,
    })) {
      parts[Number(String(item['sk']).split('#').pop())] = item['data'] as Uint8Array;
    }
    if (parts.length !== header.chunks || parts.some((part) => part === undefined)) return undefined;
    return Buffer.concat(parts);
  }

  private async deleteChunks(pk: string, generation: string, count: number): Promise<void> {
    await batchWrite(
      this.documents,
      this.tableName,
      Array.from({ length: count }, (_, n) => ({ DeleteRequest: { Key: { pk, sk: chunkKey(generation, n) } } })),
    );
  }
}

/** Zero-padded so chunks sort in order. */
const chunkKey = (generation: string, n: number) => `${RULE_CONFIG_SORT_KEY}#${generation}#${String(n).padStart(5, '0')}`;
