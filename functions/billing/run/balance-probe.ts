import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { companyIndexPartition } from '../balances/balance-keys';
import type { ReportTenant } from '../reports/report-store';
import { queryAll } from '../../shared/aws/query-pages';

/** Which subscriptions have a balance (one query per company per run, cached): only those are drawn from. */
export class BalanceProbe {
  private readonly companies = new Map<string, Promise<Set<string>>>();
  /** The companies whose probe has answered. */
  private readonly settled = new Map<string, Set<string>>();

  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly billingTable: string,
    private readonly tenant: ReportTenant,
  ) {}

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
    const items = await queryAll(this.documents, {
      TableName: this.billingTable,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': companyIndexPartition(this.tenant, companyId) },
    });
    const found = new Set(items.map((item) => String(item['subscription_id'])));
    this.settled.set(companyId, found);
    return found;
  }
}
