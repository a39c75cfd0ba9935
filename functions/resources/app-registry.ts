import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '../shared/aws/query-pages';
import type { TransactItems } from './resource-store';

export interface RegisteredApp {
  readonly org_id: string;
  readonly app_id: string;
  /** Changes on every remember: a job forgets the entry it listed only if nobody remembered it since. */
  readonly token?: string;
}

/**
 * A registry of the apps a scheduled job visits (apps with governance rules, apps with alerts): one
 * partition of the resources table, `<partition>` / `<org>#<app>`, so the schedule reads one
 * partition instead of scanning the table.
 */
export class AppRegistry {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly partition: string,
  ) {}

  async remember(orgId: string, appId: string): Promise<void> {
    await this.documents.send(new PutCommand({ TableName: this.tableName, Item: this.newEntry(orgId, appId) }));
  }

  /** The remember as an item of the transaction that writes what the app is remembered for. */
  rememberItem(orgId: string, appId: string): TransactItems[number] {
    return { Put: { TableName: this.tableName, Item: this.newEntry(orgId, appId) } };
  }

  async forget(orgId: string, appId: string): Promise<void> {
    await this.documents.send(new DeleteCommand({ TableName: this.tableName, Key: this.key(orgId, appId) }));
  }

  /**
   * Forgets an app a job listed and found nothing to do for, unless it was remembered again since
   * the listing: a resource created meanwhile keeps its app visited.
   */
  async forgetListed(app: RegisteredApp): Promise<void> {
    if (app.token === undefined) return this.forget(app.org_id, app.app_id);
    try {
      await this.documents.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: this.key(app.org_id, app.app_id),
          ConditionExpression: '#token = :token',
          ExpressionAttributeNames: { '#token': 'token' },
          ExpressionAttributeValues: { ':token': app.token },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  /** The app's entry (consistent read), undefined when it is not registered. */
  async entry(orgId: string, appId: string): Promise<RegisteredApp | undefined> {
    const { Item: item } = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: this.key(orgId, appId), ConsistentRead: true }));
    return item ? registered(item) : undefined;
  }

  async list(): Promise<RegisteredApp[]> {
    const items = await queryAll(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': this.partition },
    });
    return items.map(registered);
  }

  private key(orgId: string, appId: string) {
    return { pk: this.partition, sk: `${orgId}#${appId}` };
  }

  private newEntry(orgId: string, appId: string) {
    return { ...this.key(orgId, appId), org_id: orgId, app_id: appId, token: randomUUID() };
  }
}

const registered = (item: Record<string, unknown>): RegisteredApp => ({
  org_id: String(item['org_id']),
  app_id: String(item['app_id']),
  ...(typeof item['token'] === 'string' ? { token: item['token'] } : {}),
});
