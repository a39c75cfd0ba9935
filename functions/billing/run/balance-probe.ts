import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { companyIndexPartition } from '../balances/balance-keys';
import { type ReportTenant } from '../reports/report-store';

/** Which subscriptions have a balance (one query per company per run, cached): only those are drawn from. */
export class BalanceProbe {
  private readonly companies = new Map<string, Promise<Set<string>>>();
  /** The companies whose probe has answered. */
  private readonly settled = new Map<string, Set<string>>();

  constructor(private readonly documents: DynamoDBDocumentClient, private readonly billingTable: string, private readonly tenant: ReportTenant) {}

  /** False only when the company was probed and the subscription has no balance (no wait, no query). */
  mayHave(companyId: string, subscriptionId: string): boolean {
    const known = this.settled.get(companyId);
    return known === undefined || known.has(subscriptionId);
  }

  async has(companyId: string, subscriptionId: string): Promise<boolean> {
    let subscriptions = this.companies.get(companyId);
    if (!subscriptions) {
      subscriptions = this.load(companyId);
      this.companies.set(companyId, subscriptions);
    }
    return (await subscriptions).has(subscriptionId);
  }

  private async load(companyId: string): Promise<Set<string>> {
    const found = new Set<string>();
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.documents.send(new QueryCommand({
        TableName: this.billingTable,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': companyIndexPartition(this.tenant, companyId) },
        ExclusiveStartKey: startKey,
      }));
      for (const item of page.Items ?? []) found.add(String(item['subscription_id']));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    this.settled.set(companyId, found);
    return found;
  }
}
