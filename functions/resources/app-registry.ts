import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '../shared/aws/query-pages';

export interface RegisteredApp {
  readonly org_id: string;
  readonly app_id: string;
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
    await this.documents.send(
      new PutCommand({ TableName: this.tableName, Item: { pk: this.partition, sk: `${orgId}#${appId}`, org_id: orgId, app_id: appId } }),
    );
  }

  async forget(orgId: string, appId: string): Promise<void> {
    await this.documents.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: this.partition, sk: `${orgId}#${appId}` } }));
  }

  async list(): Promise<RegisteredApp[]> {
    const items = await queryAll(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': this.partition },
    });
    return items.map((item) => ({ org_id: String(item['org_id']), app_id: String(item['app_id']) }));
  }
}
