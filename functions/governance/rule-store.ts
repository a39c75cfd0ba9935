import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * Governance rules of an app, in the resources table under ORG#<org>#APP#<app> / RULE#<id>.
 * The management API writes them; the collector serves them to SDKs (GET /v1/rules).
 */
export const appRulesPartition = (orgId: string, appId: string) => `ORG#${orgId}#APP#${appId}`;
export const RULE_SORT_PREFIX = 'RULE#';

export type GovernanceRule = Record<string, unknown> & { _id: string };

export class GovernanceRuleStore {
  constructor(private readonly documents: DynamoDBDocumentClient, private readonly tableName: string) {}

  async listForApp(orgId: string, appId: string): Promise<GovernanceRule[]> {
    const rules: GovernanceRule[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.documents.send(new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :rule)',
        ExpressionAttributeValues: { ':pk': appRulesPartition(orgId, appId), ':rule': RULE_SORT_PREFIX },
        ExclusiveStartKey: startKey,
      }));
      for (const item of page.Items ?? []) {
        const { pk: _pk, sk: _sk, ...rule } = item;
        rules.push(rule as GovernanceRule);
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return rules;
  }
}
