import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GOVERNED_APPS_PARTITION } from '../resources/keys';
import { queryAll } from '../shared/aws/query-pages';

export interface GovernedApp {
  readonly org_id: string;
  readonly app_id: string;
}

/**
 * The registry of apps the scheduled refresh visits (those with rules or sampled cohorts): one
 * partition of the resources table, GOVERNED_APPS / <org>#<app>, so the schedule reads one partition
 * instead of scanning the table.
 */
export class GovernedApps {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async remember(orgId: string, appId: string): Promise<void> {
    await this.documents.send(
      new PutCommand({ TableName: this.tableName, Item: { pk: GOVERNED_APPS_PARTITION, sk: `${orgId}#${appId}`, org_id: orgId, app_id: appId } }),
    );
  }

  async forget(orgId: string, appId: string): Promise<void> {
    await this.documents.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: GOVERNED_APPS_PARTITION, sk: `${orgId}#${appId}` } }));
  }

  async list(): Promise<GovernedApp[]> {
    const items = await queryAll(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': GOVERNED_APPS_PARTITION },
    });
    return items.map((item) => ({ org_id: String(item['org_id']), app_id: String(item['app_id']) }));
  }
}
