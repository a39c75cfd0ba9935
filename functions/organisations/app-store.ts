import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { App, AppSettings } from '../../schemas/app';
import { queryAll } from '../shared/aws/query-pages';

/**
 * Orgs, apps and collector application ids in the resources table:
 *   ORG#<org> / ORG                      the organisation
 *   ORG#<org> / APP#<app>                the app and its settings
 *   COLLECTOR_KEY#<id> / COLLECTOR_KEY   the collector application id → (org, app)
 */
export const orgKey = (orgId: string) => ({ pk: `ORG#${orgId}`, sk: 'ORG' });
export const appKey = (orgId: string, appId: string) => ({ pk: `ORG#${orgId}`, sk: `APP#${appId}` });
export const collectorKeyKey = (applicationId: string) => ({ pk: `COLLECTOR_KEY#${applicationId}`, sk: 'COLLECTOR_KEY' });

/** Collector application ids are long random strings: moesif-nodejs refuses ids under 50 characters. */
export function newCollectorApplicationId(): string {
  return randomBytes(48).toString('base64url');
}

export function newId(): string {
  return randomBytes(12).toString('hex');
}

interface CacheEntry {
  app: App | undefined;
  expiresAt: number;
}

export interface AppStoreOptions {
  /**
   * How long a resolved collector id (with its app) stays cached in this Lambda instance: 5 s by
   * default, one read an app every 5 s per instance, so a changed setting or governance ETag reaches
   * every ingest answer within seconds (at 60 s an SDK learnt of a quota's block a minute late).
   */
  cacheTtlMs?: number;
  /** Unknown ids are cached briefly too, so a misconfigured SDK cannot hammer the table. */
  negativeCacheTtlMs?: number;
  now?: () => number;
}

/** What the collector needs to authenticate: resolve an application id to its app. */
export interface AppDirectory {
  findByCollectorApplicationId(applicationId: string): Promise<App | undefined>;
}

export class AppStore implements AppDirectory {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly routePatterns = new Map<string, { patterns: Promise<readonly string[]>; expiresAt: number }>();
  private readonly cacheTtlMs: number;
  private readonly negativeCacheTtlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
    options: AppStoreOptions = {},
  ) {
    this.cacheTtlMs = options.cacheTtlMs ?? 5_000;
    this.negativeCacheTtlMs = options.negativeCacheTtlMs ?? 5_000;
    this.now = options.now ?? Date.now;
  }

  async findByCollectorApplicationId(applicationId: string): Promise<App | undefined> {
    const cached = this.cache.get(applicationId);
    if (cached && cached.expiresAt > this.now()) return cached.app;
    const ref = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: collectorKeyKey(applicationId) }));
    const app = ref.Item ? await this.getApp(String(ref.Item.org_id), String(ref.Item.app_id)) : undefined;
    this.cache.set(applicationId, { app, expiresAt: this.now() + (app ? this.cacheTtlMs : this.negativeCacheTtlMs) });
    return app;
  }

  /** Drops a cached app, so a deleted or changed app takes effect in this instance now. */
  forget(applicationId: string, scope?: { orgId: string; appId: string }): void {
    this.cache.delete(applicationId);
    if (scope) this.routePatterns.delete(`${scope.orgId}#${scope.appId}`);
  }

  /**
   * The app's route templates, as the consumer indexes API calls with them: cached like collector
   * ids, so a change reaches other instances within the TTL (a gone app has none).
   */
  routeTemplatesOf(orgId: string, appId: string): Promise<readonly string[]> {
    const key = `${orgId}#${appId}`;
    const cached = this.routePatterns.get(key);
    if (cached && cached.expiresAt > this.now()) return cached.patterns;
    const patterns = this.getApp(orgId, appId).then((app) => app?.settings.route_templates ?? []);
    this.routePatterns.set(key, { patterns, expiresAt: this.now() + this.cacheTtlMs });
    // A failed read is not kept: the next batch tries again.
    patterns.catch(() => this.routePatterns.delete(key));
    return patterns;
  }

  async getApp(orgId: string, appId: string): Promise<App | undefined> {
    const result = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: appKey(orgId, appId), ConsistentRead: true }));
    return result.Item ? App.parse(result.Item) : undefined;
  }

  /** The org's apps, oldest first (the token URL's default app is the first). */
  async listApps(orgId: string): Promise<App[]> {
    const items = await queryAll(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :app)',
      ExpressionAttributeValues: { ':pk': `ORG#${orgId}`, ':app': 'APP#' },
      ConsistentRead: true,
    });
    const apps = items.map((item) => App.parse(item));
    return apps.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.app_id.localeCompare(b.app_id));
  }

  /** Creates an organisation and its first app atomically (used by bootstrap). */
  async createOrgWithApp(input: {
    orgId: string;
    orgName: string;
    appId: string;
    appName: string;
    collectorApplicationId?: string;
    settings?: Partial<AppSettings>;
    timeZone?: string;
  }): Promise<App> {
    const now = new Date(this.now()).toISOString();
    const app = App.parse({
      org_id: input.orgId,
      app_id: input.appId,
      name: input.appName,
      collector_application_id: input.collectorApplicationId ?? newCollectorApplicationId(),
      time_zone: input.timeZone ?? 'UTC',
      week_starts_on: 0,
      settings: AppSettings.parse(input.settings ?? {}),
      created_at: now,
      modified_at: now,
    });
    await this.documents.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.tableName,
              Item: { ...orgKey(input.orgId), org_id: input.orgId, name: input.orgName, created_at: now },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          { Put: { TableName: this.tableName, Item: { ...appKey(input.orgId, input.appId), ...app }, ConditionExpression: 'attribute_not_exists(pk)' } },
          {
            Put: {
              TableName: this.tableName,
              Item: { ...collectorKeyKey(app.collector_application_id), org_id: app.org_id, app_id: app.app_id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
    return app;
  }

  /** Replaces an app's settings (sampling, backfill); the cached copy in other instances expires within the TTL. */
  async updateSettings(orgId: string, appId: string, settings: Partial<AppSettings>): Promise<App> {
    const current = await this.getApp(orgId, appId);
    if (!current) throw new Error(`app ${orgId}/${appId} does not exist`);
    const updated = App.parse({ ...current, settings: { ...current.settings, ...settings }, modified_at: new Date(this.now()).toISOString() });
    await this.documents.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.tableName,
              Item: { ...appKey(orgId, appId), ...updated },
              ConditionExpression: 'modified_at = :m',
              ExpressionAttributeValues: { ':m': current.modified_at },
            },
          },
        ],
      }),
    );
    this.cache.delete(updated.collector_application_id);
    return updated;
  }

  /**
   * Copies the rule snapshot's hash onto the app (the collector's config ETag): only that attribute,
   * since app writers condition on modified_at, which this must not disturb. False when the app is gone.
   */
  async setRulesConfigHash(orgId: string, appId: string, hash: string): Promise<boolean> {
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: appKey(orgId, appId),
          UpdateExpression: 'SET rules_config_hash = :hash',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':hash': hash },
        }),
      );
      return true;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      return false;
    }
  }
}
