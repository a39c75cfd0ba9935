import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AppRegistry } from '../resources/app-registry';
import { RETAINING_APPS_PARTITION } from '../resources/keys';

/**
 * The registry of apps with a data retention, which the scheduled pass walks (one partition read,
 * not a scan of every org): an app is remembered when its `data_retention_days` is set and
 * forgotten when it is cleared or the app deleted.
 */
export class RetainingApps extends AppRegistry {
  constructor(documents: DynamoDBDocumentClient, tableName: string) {
    super(documents, tableName, RETAINING_APPS_PARTITION);
  }

  /** Keeps the registry in step with an app's setting after a create, update or delete. */
  async track(orgId: string, appId: string, days: number | null | undefined): Promise<void> {
    if (typeof days === 'number') await this.remember(orgId, appId);
    else await this.forget(orgId, appId);
  }
}
