import { batchGet } from '../shared/aws/batch-get';
import { RESOURCE_ID_SHAPE } from '../../schemas/resources/resource-id';
import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, ScanCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchDelete, batchWrite } from '../shared/aws/batch-write';
import { appKey, orgKey } from '../organisations/app-store';
import { appOfPartition } from './keys';
import { GoneError, NotFoundError, ServiceUnavailableError } from '../shared/errors';
import { assertStorable } from './storable';
import { queryAll, queryItems } from '../shared/aws/query-pages';

/**
 * Managed resources in the resources table. One item per resource: `pk` = its partition
 * (`ORG#<org>#APP#<app>` for per-app kinds, `ORG#<org>` for apps), `sk` = `<PREFIX>#<id>`, the other
 * attributes = the stored document.
 *
 * A deleted resource's item is removed and a tombstone `GONE#<PREFIX>#<id>` is written in the same
 * transaction (kept 30 days through `expires_at`). Tombstones live under another sort-key prefix so
 * lists, and readers that know nothing of deletion (the collector's rule store), never see them.
 */

/** Tombstones are kept this long, then DynamoDB's TTL removes them (an id is then 404 again). */
export const TOMBSTONE_TTL_SECONDS = 30 * 24 * 3600;
export const DEFAULT_TAKE = 50;
export const MAX_TAKE = 1000;
/** Optimistic-concurrency attempts of an update before answering 503 (retryable). */
const UPDATE_ATTEMPTS = 8;
/** Jittered pause before a retry, so racing writers spread out instead of colliding again. */
const backoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
/**
 * Ids outside this shape cannot exist: answered 404 without touching the table (keeps keys well under
 * DynamoDB's limits). Also the documented shape of `before_id`.
 */
export const ID_SHAPE = RESOURCE_ID_SHAPE;
/** BatchGetItem's per-call key limit. */

export type StoredDocument = Record<string, unknown>;
export type TransactItems = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>;

/** Where a kind's items live: the partition and the sort-key prefix (without the trailing `#`). */
export interface ResourceLocation {
  readonly partition: string;
  readonly prefix: string;
}

export interface NewResource {
  readonly at: ResourceLocation;
  readonly id: string;
  readonly document: StoredDocument;
}

export interface ListOptions {
  take?: number;
  /** Only items strictly older than this id (ids sort by creation time). */
  beforeId?: string;
  /** Only items whose attribute equals the value. */
  where?: { attribute: string; value: string | number | boolean };
}

export interface ListedResource {
  id: string;
  document: StoredDocument;
}

export interface ListPage {
  items: ListedResource[];
  /** The `before_id` of the next page, when there may be one. */
  nextBeforeId?: string;
}

/**
 * A new resource id: 12 hex digits of the creation time in ms, then 8 random hex digits. Ids sort by
 * creation time, so "newest first" and `before_id` paging are stable.
 */
export function newResourceId(nowMs: number = Date.now()): string {
  return Math.max(0, Math.floor(nowMs)).toString(16).padStart(12, '0').slice(-12) + randomBytes(4).toString('hex');
}

export function isPlausibleId(id: string): boolean {
  return ID_SHAPE.test(id);
}

/** The registry of the per-app partitions holding a kind: `KIND_PARTITIONS#<prefix>` / the partition's key. */
const registryPartition = (prefix: string) => `KIND_PARTITIONS#${prefix}`;
/** The registry's marker: the kind's items from before the registry were found by a scan and registered. */
const REGISTRY_BACKFILLED = '#backfilled';

/** Sort-key prefix of apps in their org's partition (APP#<id>), as apps.ts stores them. */
const APP_SORT_PREFIX = 'APP';
/** The key of a resource's item. */
export const resourceKey = (at: ResourceLocation, id: string) => ({ pk: at.partition, sk: `${at.prefix}#${id}` });
const liveKey = resourceKey;
const tombstoneKey = (at: ResourceLocation, id: string) => ({ pk: at.partition, sk: `GONE#${at.prefix}#${id}` });

function stripKeys(item: Record<string, unknown>): StoredDocument {
  const { pk: _pk, sk: _sk, ...document } = item;
  return document;
}

export class ResourceStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A transaction item that puts `item` in this store's table unless its key is taken (for `extra` of create/delete). */
  putIfAbsentItem(item: Record<string, unknown>): TransactItems[number] {
    return { Put: { TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } };
  }

  /** A transaction item that deletes the item at `key` in this store's table. */
  deleteItem(key: Record<string, unknown>): TransactItems[number] {
    return { Delete: { TableName: this.tableName, Key: key } };
  }

  /** The raw items at these keys (consistent reads; absent keys are left out), in no particular order. */
  async getItems(keys: readonly Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
    return batchGet(this.documents, this.tableName, keys);
  }

  /** Every item of one partition whose sort key starts with `skPrefix`, as stored (small partitions: queues, not resource lists). */
  async queryPartition(partition: string, skPrefix: string): Promise<Record<string, unknown>[]> {
    return queryAll(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': partition, ':prefix': skPrefix },
    });
  }

  /**
   * The per-app partitions that have held an item of a kind (sort keys `<prefix>#…`), for the jobs that visit every
   * app (the billing run finding metered apps): one query of the kind's registry, which every create writes to, so
   * its cost follows the apps that use the kind, not the table. A partition whose items were all deleted stays listed
   * (the job finds nothing there). Items written before the registry existed are found by one scan per kind, the
   * first time it is asked for (a marker records that it ran).
   */
  async partitionsHolding(prefix: string): Promise<string[]> {
    const registered = await queryAll(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': registryPartition(prefix) },
      ConsistentRead: true,
    });
    const partitions = new Set(registered.map((item) => String(item['sk'])));
    if (partitions.delete(REGISTRY_BACKFILLED)) return [...partitions];
    const scanned = await this.scanPartitionsHolding(prefix);
    const missing = scanned.filter((partition) => !partitions.has(partition));
    await batchWrite(
      this.documents,
      this.tableName,
      [...missing, REGISTRY_BACKFILLED].map((sk) => ({ PutRequest: { Item: { pk: registryPartition(prefix), sk } } })),
    );
    return [...partitions, ...missing];
  }

  /** The partitions holding an item of a kind, by a scan of the whole table (keys only). */
  private async scanPartitionsHolding(prefix: string): Promise<string[]> {
    const partitions = new Set<string>();
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.documents.send(
        new ScanCommand({
          TableName: this.tableName,
          FilterExpression: 'begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':prefix': `${prefix}#` },
          ProjectionExpression: 'pk',
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) partitions.add(String(item['pk']));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return [...partitions];
  }

  /** Deletes the items at these keys (batched; used to undo a partly written multi-transaction create). */
  async deleteKeys(keys: readonly Record<string, unknown>[]): Promise<void> {
    await batchDelete(this.documents, this.tableName, keys);
  }

  /**
   * Writes a new resource; false when the id is already taken. Extra transaction items (e.g. an app's
   * collector application id) are written with it or not at all.
   */
  async create(at: ResourceLocation, id: string, document: StoredDocument, extra: TransactItems = []): Promise<boolean> {
    const failed = await this.createAll([{ at, id, document }], extra);
    if (failed.length === 0) return true;
    if (failed[0] === 0) return false;
    throw new Error(`a condition of the items written with ${at.prefix}#${id} failed (items ${failed.join(', ')})`);
  }

  /**
   * Writes new resources and extra items in one transaction (at most 100 items with the app checks
   * below), all or nothing. Returns the indexes (resources first, then extras) whose conditions
   * failed — a taken id, or an extra's own condition — empty when everything was written.
   *
   * A resource of a per-app partition is written only while its app exists (one ConditionCheck per
   * app): an app's deletion purges its partition, and a token of the deleted app must not refill it.
   * That is a GoneError (or NotFoundError once the app's tombstone expired).
   */
  async createAll(entries: readonly NewResource[], extra: TransactItems = []): Promise<number[]> {
    for (const entry of entries) assertStorable(entry.document);
    const puts = entries.map((entry) => ({
      TableName: this.tableName,
      Item: { ...entry.document, ...liveKey(entry.at, entry.id) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }));
    const owners = [...new Map(entries.map((entry) => [entry.at.partition, appOfPartition(entry.at.partition)] as const)).values()].filter(
      (owner) => owner !== undefined,
    );
    const checks = owners.map((owner) => ({
      ConditionCheck: { TableName: this.tableName, Key: appKey(owner.orgId, owner.appId), ConditionExpression: 'attribute_exists(pk)' },
    }));
    // Per-app kinds are registered (see partitionsHolding); after the checks, so failure indexes stay as they are.
    const registrations = [
      ...new Map(
        entries
          .filter((entry) => appOfPartition(entry.at.partition) !== undefined)
          .map((entry) => [`${entry.at.prefix}|${entry.at.partition}`, { pk: registryPartition(entry.at.prefix), sk: entry.at.partition }] as const),
      ).values(),
    ].map((Item) => ({ Put: { TableName: this.tableName, Item } }));
    try {
      if (puts.length === 1 && extra.length === 0 && checks.length === 0) await this.documents.send(new PutCommand(puts[0]!));
      else await this.documents.send(new TransactWriteCommand({ TransactItems: [...puts.map((Put) => ({ Put })), ...extra, ...checks, ...registrations] }));
      return [];
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return [0];
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failedAt = (index: number) => reasons[index]?.Code === 'ConditionalCheckFailed';
      const missingApp = owners.find((_, i) => failedAt(puts.length + extra.length + i));
      if (missingApp) return this.throwMissing({ partition: orgKey(missingApp.orgId).pk, prefix: APP_SORT_PREFIX }, missingApp.appId, 'app');
      const failed = Array.from({ length: puts.length + extra.length }, (_, i) => i).filter(failedAt);
      if (failed.length === 0) throw error;
      return failed;
    }
  }

  /** The live document, or undefined when there is none (never written, or deleted): for callers to whom absence is an answer. */
  async find(at: ResourceLocation, id: string): Promise<StoredDocument | undefined> {
    return isPlausibleId(id) ? await this.read(liveKey(at, id)) : undefined;
  }

  /** The stored document; NotFoundError if it never existed, GoneError if it was deleted. */
  async get(at: ResourceLocation, id: string, noun: string): Promise<StoredDocument> {
    const found = isPlausibleId(id) ? await this.read(liveKey(at, id)) : undefined;
    if (found) return found;
    return this.throwMissing(at, id, noun);
  }

  /** Newest first, without tombstones. */
  async list(at: ResourceLocation, options: ListOptions = {}): Promise<ListPage> {
    const take = options.take ?? DEFAULT_TAKE;
    const upper = options.beforeId === undefined ? undefined : `${at.prefix}#${options.beforeId}`;
    const items: ListedResource[] = [];
    const values: Record<string, unknown> = { ':pk': at.partition, ':lo': `${at.prefix}#` };
    if (upper !== undefined) values[':hi'] = upper;
    if (options.where) values[':w'] = options.where.value;
    let more = false;
    for await (const item of queryItems(this.documents, {
      TableName: this.tableName,
      // BETWEEN is inclusive: the before_id item itself is dropped below. Both bounds share the
      // `<PREFIX>#` prefix, so nothing of another kind falls between them.
      KeyConditionExpression: upper === undefined ? 'pk = :pk AND begins_with(sk, :lo)' : 'pk = :pk AND sk BETWEEN :lo AND :hi',
      FilterExpression: options.where ? '#w = :w' : undefined,
      ExpressionAttributeNames: options.where ? { '#w': options.where.attribute } : undefined,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      // +1: room for the excluded before_id item, and a look-ahead that tells whether a next page exists.
      Limit: take + 1 + (upper === undefined ? 0 : 1),
      ConsistentRead: true,
    })) {
      if (item.sk === upper) continue;
      if (items.length === take) {
        more = true;
        break;
      }
      items.push({ id: String(item.sk).slice(at.prefix.length + 1), document: stripKeys(item) });
    }
    const last = items[items.length - 1];
    const nextBeforeId = more && last ? last.id : undefined;
    return nextBeforeId === undefined ? { items } : { items, nextBeforeId };
  }

  /**
   * Read, change, write back if nobody wrote in between (condition on `modified_at`, which every write
   * moves strictly forward); on a race the change is recomputed from the fresh copy, up to 8 times with jittered pauses,
   * then 503 (retryable). `change` may throw (e.g. ValidationError): nothing is written then. A
   * change that returns `current` itself (nothing to do) writes nothing either.
   */
  async update(
    at: ResourceLocation,
    id: string,
    noun: string,
    change: (current: StoredDocument, modifiedAt: string) => StoredDocument | Promise<StoredDocument>,
  ): Promise<StoredDocument> {
    for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt += 1) {
      const current = await this.get(at, id, noun);
      const modifiedAt = this.nextModifiedAt(current.modified_at);
      const next = await change(current, modifiedAt);
      if (next === current) return current;
      assertStorable(next);
      try {
        await this.documents.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { ...next, modified_at: modifiedAt, ...liveKey(at, id) },
            ConditionExpression:
              current.modified_at === undefined ? 'attribute_exists(pk) AND attribute_not_exists(modified_at)' : 'attribute_exists(pk) AND modified_at = :m',
            ExpressionAttributeValues: current.modified_at === undefined ? undefined : { ':m': current.modified_at },
          }),
        );
        return stripKeys({ ...next, modified_at: modifiedAt });
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        await backoff(attempt);
      }
    }
    throw new ServiceUnavailableError(`The ${noun} ${id} is being changed concurrently; retry`);
  }

  /**
   * Removes the resource and leaves a tombstone (410 for 30 days). Returns the deleted document.
   * Extra transaction items (e.g. freeing a collector application id) commit or fail with it.
   */
  async delete(at: ResourceLocation, id: string, noun: string, extra: (current: StoredDocument) => TransactItems = () => []): Promise<StoredDocument> {
    for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt += 1) {
      const current = await this.get(at, id, noun);
      const deletedAt = this.now();
      try {
        await this.documents.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Delete: {
                  TableName: this.tableName,
                  Key: liveKey(at, id),
                  ConditionExpression: current.modified_at === undefined ? 'attribute_exists(pk)' : 'modified_at = :m',
                  ExpressionAttributeValues: current.modified_at === undefined ? undefined : { ':m': current.modified_at },
                },
              },
              {
                Put: {
                  TableName: this.tableName,
                  Item: {
                    ...tombstoneKey(at, id),
                    deleted_at: deletedAt.toISOString(),
                    expires_at: Math.floor(deletedAt.getTime() / 1000) + TOMBSTONE_TTL_SECONDS,
                  },
                },
              },
              ...extra(current),
            ],
          }),
        );
        return current;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        await backoff(attempt);
      }
    }
    throw new ServiceUnavailableError(`The ${noun} ${id} is being changed concurrently; retry`);
  }

  /** `modified_at` for the next write: now, but always later than the previous value so it works as a version. */
  nextModifiedAt(previous: unknown): string {
    const now = this.now().getTime();
    const before = typeof previous === 'string' ? Date.parse(previous) : Number.NaN;
    return new Date(Number.isNaN(before) ? now : Math.max(now, before + 1)).toISOString();
  }

  private async read(key: { pk: string; sk: string }): Promise<StoredDocument | undefined> {
    const result = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    return result.Item ? stripKeys(result.Item) : undefined;
  }

  private async throwMissing(at: ResourceLocation, id: string, noun: string): Promise<never> {
    const tombstone = isPlausibleId(id) ? await this.read(tombstoneKey(at, id)) : undefined;
    if (tombstone && (typeof tombstone.expires_at !== 'number' || tombstone.expires_at * 1000 > this.now().getTime())) {
      throw new GoneError(`The ${noun} ${id} was deleted at ${String(tombstone.deleted_at)}`);
    }
    throw new NotFoundError(`No ${noun} with id ${id}`);
  }
}
