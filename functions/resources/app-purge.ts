import { DeleteCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { appRulesPartition, GOVERNED_APPS_PARTITION, RULE_CONFIG_SORT_KEY } from './keys';
import { batchDelete } from '../shared/aws/batch-write';
import type { TransactItems } from './resource-store';
import { queryItems } from '../shared/aws/query-pages';

/**
 * Removes what a deleted app leaves in the resources table: its partition `ORG#<org>#APP#<app>`
 * (rules, cohorts, boards, comments, templates, keys and key slots, meters, the billing catalog and
 * channels, the governance membership snapshot and its chunks, tombstones) and its entry in the
 * governance registry.
 *
 * Order, so no reader ever fails on a half-deleted app:
 *   1. The app item goes (with its tombstone, its collector id and a purge marker `PURGE#APPS` /
 *      `<org>#<app>`) in ONE transaction: from then on the app is 410, the collector refuses its id,
 *      and no new resource can be written into the partition (ResourceStore checks the app exists).
 *   2. The membership header (`CONFIG#RULES`), so GET /v1/config answers an empty membership instead
 *      of a header whose chunks are gone; then the governance registry entry.
 *   3. The items that refer to others before those they refer to (rules before cohorts, meters
 *      before channels and prices, templates, dashboards and comments before workspaces), then the
 *      rest of the partition, in pages of 100 keys deleted 25 per BatchWriteItem.
 *   4. The marker, once the partition is empty.
 * A purge is bounded (`maxItems`): the DELETE request purges up to 1,000 items itself; a larger app,
 * or a purge interrupted by a crash, is finished by the scheduled governance refresh, which resumes
 * every marker (each run again bounded). A purge is idempotent.
 */
export const PURGE_PARTITION = 'PURGE#APPS';
/** Items the app's DELETE request removes before answering; the schedule does the rest. */
export const INLINE_PURGE_ITEMS = 1000;
/** Items a scheduled run removes over all pending apps. */
export const SCHEDULED_PURGE_ITEMS = 20_000;
const PAGE = 100;
/** Kinds holding references to other kinds go first (see 3. above). */
const REFERRING_FIRST = ['RULE#', 'METER#', 'EMAIL_TEMPLATE#', 'DASHBOARD#', 'COMMENT#'];

export const purgeMarkerKey = (orgId: string, appId: string) => ({ pk: PURGE_PARTITION, sk: `${orgId}#${appId}` });

export interface PurgeResult {
  readonly org_id: string;
  readonly app_id: string;
  readonly deleted: number;
  /** True when the partition is empty and the marker is gone. */
  readonly done: boolean;
}

export class AppPurger {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Items of the app deletion's transaction: the purge marker (so the purge is finished even after a crash). */
  markerItems(orgId: string, appId: string, at: Date): TransactItems {
    return [{ Put: { TableName: this.tableName, Item: { ...purgeMarkerKey(orgId, appId), org_id: orgId, app_id: appId, deleted_at: at.toISOString() } } }];
  }

  /** Deletes up to `maxItems` of the app's items in the order above; removes the marker when done. */
  async purge(orgId: string, appId: string, maxItems: number): Promise<PurgeResult> {
    const pk = appRulesPartition(orgId, appId);
    await this.documents.send(new DeleteCommand({ TableName: this.tableName, Key: { pk, sk: RULE_CONFIG_SORT_KEY } }));
    await this.documents.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: GOVERNED_APPS_PARTITION, sk: `${orgId}#${appId}` } }));
    let deleted = 0;
    for (const prefix of [...REFERRING_FIRST, '']) {
      for (;;) {
        if (deleted >= maxItems) return { org_id: orgId, app_id: appId, deleted, done: false };
        const keys = await this.keys(pk, prefix, Math.min(PAGE, maxItems - deleted));
        if (keys.length === 0) break;
        await batchDelete(this.documents, this.tableName, keys);
        deleted += keys.length;
      }
    }
    await this.documents.send(new DeleteCommand({ TableName: this.tableName, Key: purgeMarkerKey(orgId, appId) }));
    return { org_id: orgId, app_id: appId, deleted, done: true };
  }

  /** Continues every pending purge, oldest marker first, within `maxItems` in all. */
  async resumePending(maxItems: number = SCHEDULED_PURGE_ITEMS): Promise<PurgeResult[]> {
    const results: PurgeResult[] = [];
    let budget = maxItems;
    for await (const item of queryItems(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': PURGE_PARTITION },
      ConsistentRead: true,
    })) {
      if (budget <= 0) break;
      const result = await this.purge(String(item['org_id']), String(item['app_id']), budget);
      budget -= result.deleted;
      results.push(result);
    }
    return results;
  }

  private async keys(pk: string, prefix: string, limit: number): Promise<{ pk: string; sk: string }[]> {
    const page = await this.documents.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: prefix ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk',
        ExpressionAttributeValues: prefix ? { ':pk': pk, ':prefix': prefix } : { ':pk': pk },
        ProjectionExpression: 'pk, sk',
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return (page.Items ?? []).map((item) => ({ pk: String(item['pk']), sk: String(item['sk']) }));
  }
}
