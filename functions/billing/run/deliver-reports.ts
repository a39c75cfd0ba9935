import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BillingReport, ChannelRequests } from '../../../schemas/billing/report';
import type { ProviderName, WebhookParams } from '../../../schemas/billing/provider-params';
import { mapWithConcurrency } from '../../shared/concurrency';
import { companyIndexPartition } from '../balances/balance-keys';
import { creditBalanceJson } from '../balances/balance-json';
import type { BalanceLedger } from '../balances/balance-ledger';
import type { DeliveryChannel } from '../channels/channel-delivery';
import { Decimal } from '../money/decimal';
import { idempotencyKey, type ReportIdentity } from '../providers/idempotency-key';
import type { ProviderClient, ProviderOutcome, ProviderRequestRecord, ProviderSubscription } from '../providers/provider-port';
import type { ReportTenant } from '../reports/report-store';
import type { RunMeter } from './run-meter';
import type { SubscriptionDirectory } from './subscription-directory';

/**
 * Delivery of a window's open reports (pending, retrying) to the meter's destinations, after the
 * window was committed. Every destination of a version gets the same idempotency key on every run,
 * so a resend after a crash or timeout is deduplicated by the provider. Balances are drawn once per
 * report version (the ledger dedupes by report id and version).
 */

/** Runs that may try a version before it is `failed` (each run's client already retries with backoff). */
export const MAX_DELIVERY_RUNS = 5;
/** provider_requests kept per report (the newest). */
const MAX_RECORDS = 50;

export interface DeliveryDeps {
  readonly tenant: ReportTenant;
  readonly meter: RunMeter;
  readonly directory: SubscriptionDirectory;
  /** The client of a provider connection, or undefined when the account has none configured. */
  readonly providerClient: (provider: Exclude<ProviderName, 'webhook'>) => ProviderClient<never> | undefined;
  /** Webhook clients per channel id (channels that exist and are active). */
  readonly channelClients: ReadonlyMap<string, { channel: DeliveryChannel; client: ProviderClient<WebhookParams> }>;
  readonly ledger: BalanceLedger | undefined;
  readonly balances: BalanceProbe;
  readonly concurrency: number;
  readonly maxDeliveryRuns: number;
  readonly now: () => Date;
}

export const isOpen = (report: BillingReport) => report.status === 'pending' || report.status === 'retrying';

/** Delivers the open reports; returns the group's reports with outcomes recorded. */
export async function deliverReports(deps: DeliveryDeps, reports: readonly BillingReport[]): Promise<{ reports: BillingReport[]; delivered: number; failed: number; retrying: number }> {
  let delivered = 0;
  let failed = 0;
  let retrying = 0;
  const out = await mapWithConcurrency(reports, deps.concurrency, async (report) => {
    if (!isOpen(report)) return report;
    const next = await deliverOne(deps, report);
    if (next.status === 'success') delivered += 1;
    else if (next.status === 'failed') failed += 1;
    else retrying += 1;
    return next;
  });
  return { reports: out, delivered, failed, retrying };
}

async function deliverOne(deps: DeliveryDeps, report: BillingReport): Promise<BillingReport> {
  const { meter, tenant } = deps;
  const now = deps.now();
  const version = report.versions[report.versions.length - 1]!;
  const subscriptionId = report.subscription_id!;
  const known = deps.directory.subscriptions.get(subscriptionId);
  const withBalance = await drawBalance(deps, report, version.amount_exact);
  const identity = (destination: string): ReportIdentity => ({
    orgId: tenant.orgId, appId: tenant.appId, meterId: meter.id, subscriptionId,
    windowStart: new Date(report.usage_start_time), windowEnd: new Date(report.usage_end_time), reportVersion: report.report_version, destination,
  });
  const itemPrice = known?.items.find((item) => item.price_id && meter.billedIds.has(item.price_id))?.price_id ?? known?.items.find((item) => item.price_id)?.price_id ?? undefined;
  const customer = known?.metadata['stripe_customer_id'] ?? known?.metadata['customer_id'];
  const subscription: ProviderSubscription = {
    subscriptionId, companyId: report.company_id ?? known?.companyId ?? '',
    ...(typeof customer === 'string' ? { customerId: customer } : {}),
    ...(itemPrice ? { itemPriceId: itemPrice } : {}),
  };
  const request = (destination: string) => {
    const id = identity(destination);
    return {
      identity: id,
      idempotencyKey: idempotencyKey(id),
      meter: { id: meter.id, name: meter.name },
      subscription,
      window: { start: new Date(report.usage_start_time), end: new Date(report.usage_end_time) },
      quantity: BigInt(report.meter_usage),
      previousQuantity: BigInt(report.meter_usage - version.delta),
      reportTotalUsage: BigInt(report.report_total_usage),
      ...(version.amount_exact !== undefined && report.currency ? { amount: { value: Decimal.from(version.amount_exact), currency: report.currency } } : {}),
      params: meter.params as never,
    };
  };
  const alreadyDone = (records: readonly ProviderRequestRecord[], key: string) => records.some((r) => r.job_id === key && r.success);

  let outcomes: { success: boolean; final: boolean }[] = [];
  let providerRequests = [...report.provider_requests];
  let channelRequests: ChannelRequests[] | undefined = report.channel_requests ? report.channel_requests.map((c) => ({ ...c, provider_requests: [...c.provider_requests] })) : undefined;
  if (meter.provider === 'webhook') {
    const channelIds = (meter.params['channel_ids'] as string[] | undefined) ?? [];
    channelRequests ??= [];
    outcomes = await Promise.all(channelIds.map(async (channelId) => {
      let entry = channelRequests!.find((c) => c.channel_id === channelId);
      if (!entry) {
        entry = { channel_id: channelId, ...(deps.channelClients.get(channelId)?.channel.name ? { channel_name: deps.channelClients.get(channelId)!.channel.name } : {}), provider_requests: [] };
        channelRequests!.push(entry);
      }
      const r = request(channelId);
      if (alreadyDone(entry.provider_requests, r.idempotencyKey)) return { success: true, final: true };
      const target = deps.channelClients.get(channelId);
      const outcome = target ? await target.client.report(r) : notConfigured(r.idempotencyKey, now, `webhook channel ${channelId} does not exist or is inactive`);
      entry.provider_requests = [...entry.provider_requests, ...outcome.requests].slice(-MAX_RECORDS);
      providerRequests = [...providerRequests, ...outcome.requests].slice(-MAX_RECORDS);
      return classify(outcome);
    }));
  } else {
    const r = request(meter.provider);
    if (alreadyDone(report.provider_requests, r.idempotencyKey)) {
      outcomes = [{ success: true, final: true }];
    } else {
      const client = deps.providerClient(meter.provider);
      const outcome = client ? await client.report(r) : notConfigured(r.idempotencyKey, now, `no ${meter.provider} connection is configured`);
      providerRequests = [...providerRequests, ...outcome.requests].slice(-MAX_RECORDS);
      outcomes = [classify(outcome)];
    }
  }
  const runs = report.delivery_runs + 1;
  const allSucceeded = outcomes.length > 0 && outcomes.every((o) => o.success);
  const refused = outcomes.some((o) => !o.success && o.final);
  const status: BillingReport['status'] = allSucceeded ? 'success' : refused || runs >= deps.maxDeliveryRuns ? 'failed' : 'retrying';
  return {
    ...withBalance,
    status,
    success: allSucceeded,
    delivery_runs: runs,
    idempotency_key: idempotencyKey(identity(meter.provider === 'webhook' ? ((meter.params['channel_ids'] as string[] | undefined)?.[0] ?? 'webhook') : meter.provider)),
    provider_requests: providerRequests,
    ...(channelRequests ? { channel_requests: channelRequests } : {}),
    ...(allSucceeded ? { last_success_time: deps.now().toISOString() } : {}),
    updated_at: deps.now().toISOString(),
  };
}

/** A failed outcome is final when the provider refused it (its last request got a 4xx other than 408/429). */
function classify(outcome: ProviderOutcome): { success: boolean; final: boolean } {
  if (outcome.success) return { success: true, final: true };
  const last = outcome.requests[outcome.requests.length - 1];
  const status = last?.status_code ?? 0;
  return { success: false, final: status >= 400 && status < 500 && status !== 408 && status !== 429 };
}

function notConfigured(jobId: string, now: Date, message: string): ProviderOutcome {
  return { success: false, duplicate: false, requests: [{ job_id: jobId, request_time: now.toISOString(), success: false, status_code: 0, error_code: 'not_configured', error_message: message }] };
}

async function drawBalance(deps: DeliveryDeps, report: BillingReport, amountExact: string | undefined): Promise<BillingReport> {
  if (!deps.ledger || amountExact === undefined || report.subscription_id === null || report.company_id === null) return report;
  if (!(await deps.balances.has(report.company_id, report.subscription_id))) return report;
  const result = await deps.ledger.drawUsage(deps.tenant, {
    companyId: report.company_id, subscriptionId: report.subscription_id, reportKey: report._id, reportVersion: report.report_version, amount: Decimal.from(amountExact),
  });
  return {
    ...report,
    beginning_balance: creditBalanceJson(result.beginning),
    ending_balance: creditBalanceJson(result.ending),
    balance_changes: [...(report.balance_changes ?? []), ...result.balanceChanges.map((change) => ({ amount: change.amount.toNumber() }))],
  };
}

/** Which subscriptions have a balance (one query per company per run, cached): only those are drawn from. */
export class BalanceProbe {
  private readonly companies = new Map<string, Promise<Set<string>>>();

  constructor(private readonly documents: DynamoDBDocumentClient, private readonly billingTable: string, private readonly tenant: ReportTenant) {}

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
    return found;
  }
}
