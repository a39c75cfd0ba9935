import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AppRegistry, type RegisteredApp } from '../resources/app-registry';
import { GOVERNED_APPS_PARTITION } from '../resources/keys';

export type GovernedApp = RegisteredApp;

/** The registry of apps the scheduled refresh visits (those with rules or sampled cohorts). */
export class GovernedApps extends AppRegistry {
  constructor(documents: DynamoDBDocumentClient, tableName: string) {
    super(documents, tableName, GOVERNED_APPS_PARTITION);
  }
}
