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
import type { ClientOptions } from '../providers/client-options';
import type { ProviderClient, ProviderOutcome, ProviderRequestRecord, ProviderSubscription, UsageReportRequest } from '../providers/provider-port';
import type { ReportTenant } from '../reports/report-store';
import type { RunMeter } from './run-meter';
import type { SubscriptionDirectory } from './subscription-directory';
import { sendWebhookBatch } from './webhook-batch';

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
  /** Reports per webhook POST (1: one POST per report through the channel's ProviderClient). */
  readonly webhookBatchSize: number;
  readonly webhookOptions: ClientOptions | undefined;
  readonly maxDeliveryRuns: number;
  readonly now: () => Date;
}

export const isOpen = (report: BillingReport) => report.status === 'pending' || report.status === 'retrying';

type Verdict = { success: boolean; final: boolean };

/** One open report on its way: its requests per destination and what each destination answered. */
interface Delivery {
  report: BillingReport;
  requestFor(destination: string): UsageReportRequest<never>;
  verdicts: Verdict[];
  providerRequests: ProviderRequestRecord[];
  channelRequests: ChannelRequests[] | undefined;
}

/**
 * Draws the open reports' amounts from balances (once per report version); call before delivering,
 * one window after the other, so balances move in window order.
 */
export async function drawBalances(deps: DeliveryDeps, reports: readonly BillingReport[]): Promise<BillingReport[]> {
  return mapWithConcurrency(reports, deps.concurrency, async (report) => (isOpen(report) ? drawBalance(deps, report, report.versions[report.versions.length - 1]?.amount_exact) : report));
}

/** Delivers the open reports (balances already drawn); returns the group's reports with outcomes recorded. */
export async function deliverReports(deps: DeliveryDeps, reports: readonly BillingReport[]): Promise<{ reports: BillingReport[]; delivered: number; failed: number; retrying: number }> {
  const open = reports.filter(isOpen);
  const deliveries = open.map((report) => prepare(deps, report));
  if (deps.meter.provider === 'webhook') await deliverToChannels(deps, deliveries);
  else {
    await mapWithConcurrency(deliveries, deps.concurrency, async (d) => {
      const request = d.requestFor(deps.meter.provider);
      if (alreadyDone(d.report.provider_requests, request.idempotencyKey)) return d.verdicts.push({ success: true, final: true });
      const client = deps.providerClient(deps.meter.provider as Exclude<ProviderName, 'webhook'>);
      const outcome = client ? await client.report(request) : notConfigured(request.idempotencyKey, deps.now(), `no ${deps.meter.provider} connection is configured`);
      d.providerRequests = [...d.providerRequests, ...outcome.requests].slice(-MAX_RECORDS);
      return d.verdicts.push(classify(outcome));
    });
  }
  const finished = new Map(deliveries.map((d) => [d.report._id, finish(deps, d)]));
  let delivered = 0;
  let failed = 0;
  let retrying = 0;
  for (const report of finished.values()) {
    if (report.status === 'success') delivered += 1;
    else if (report.status === 'failed') failed += 1;
    else retrying += 1;
  }
  return { reports: reports.map((report) => finished.get(report._id) ?? report), delivered, failed, retrying };
}

const alreadyDone = (records: readonly ProviderRequestRecord[], key: string) => records.some((r) => r.job_id === key && r.success);

function prepare(deps: DeliveryDeps, report: BillingReport): Delivery {
  const { meter, tenant } = deps;
  const version = report.versions[report.versions.length - 1]!;
  const subscriptionId = report.subscription_id!;
  const known = deps.directory.subscriptions.get(subscriptionId);
  const itemPrice = known?.items.find((item) => item.price_id && meter.billedIds.has(item.price_id))?.price_id ?? known?.items.find((item) => item.price_id)?.price_id ?? undefined;
  const customer = known?.metadata['stripe_customer_id'] ?? known?.metadata['customer_id'];
  const subscription: ProviderSubscription = {
    subscriptionId, companyId: report.company_id ?? known?.companyId ?? '',
    ...(typeof customer === 'string' ? { customerId: customer } : {}),
    ...(itemPrice ? { itemPriceId: itemPrice } : {}),
  };
  const window = { start: new Date(report.usage_start_time), end: new Date(report.usage_end_time) };
  return {
    report,
    verdicts: [],
    providerRequests: [...report.provider_requests],
    channelRequests: report.channel_requests?.map((c) => ({ ...c, provider_requests: [...c.provider_requests] })),
    requestFor(destination) {
      const identity: ReportIdentity = { orgId: tenant.orgId, appId: tenant.appId, meterId: meter.id, subscriptionId, windowStart: window.start, windowEnd: window.end, reportVersion: report.report_version, destination };
      const carried = unacknowledgedSince(report, (reportVersion) => idempotencyKey({ ...identity, reportVersion }));
      const amount = carried.amounts.reduce<Decimal | undefined>((sum, a) => (a === undefined ? sum : (sum ?? Decimal.ZERO).plus(Decimal.from(a))), version.amount_exact === undefined ? undefined : Decimal.from(version.amount_exact));
      return {
        identity,
        idempotencyKey: idempotencyKey(identity),
        meter: { id: meter.id, name: meter.name },
        subscription,
        window,
        quantity: BigInt(report.meter_usage),
        previousQuantity: BigInt(carried.acknowledgedQuantity ?? report.meter_usage - version.delta),
        reportTotalUsage: BigInt(report.report_total_usage),
        ...(amount !== undefined && report.currency ? { amount: { value: amount, currency: report.currency } } : {}),
        params: meter.params as never,
      };
    },
  };
}

/**
 * What a destination never acknowledged before the current version: earlier versions it refused
 * (`failed` with a provider answer and no success) are carried by the current one, so its previous
 * quantity is the last version the destination acknowledged and its amount includes the refused
 * versions' amounts. A version whose outcome is unknown (a timeout or connection error, status 0,
 * other than not_configured) is taken as acknowledged: resending it under a new key could double-bill.
 * acknowledgedQuantity is undefined when nothing is carried (the previous version was acknowledged).
 */
export function unacknowledgedSince(report: BillingReport, keyOf: (version: number) => string): { acknowledgedQuantity: number | undefined; amounts: (string | undefined)[] } {
  const amounts: (string | undefined)[] = [];
  const earlier = report.versions.filter((v) => v.report_version < report.report_version);
  for (let i = earlier.length - 1; i >= 0; i -= 1) {
    const entry = earlier[i]!;
    if (!refused(report.provider_requests, keyOf(entry.report_version))) {
      return { acknowledgedQuantity: amounts.length === 0 ? undefined : entry.meter_usage, amounts };
    }
    amounts.push(entry.amount_exact);
  }
  return { acknowledgedQuantity: amounts.length === 0 ? undefined : 0, amounts };
}

/** The destination answered this key and never accepted it (or no destination was configured). */
function refused(records: readonly ProviderRequestRecord[], key: string): boolean {
  const own = records.filter((r) => r.job_id === key);
  return own.length > 0 && own.every((r) => !r.success && (r.status_code !== 0 || r.error_code === 'not_configured'));
}

/** Destination of a channel in idempotency keys (as the providers' docs name it). */
export const channelDestination = (channelId: string) => `webhook:${channelId}`;

async function deliverToChannels(deps: DeliveryDeps, deliveries: Delivery[]): Promise<void> {
  const channelIds = (deps.meter.params['channel_ids'] as string[] | undefined) ?? [];
  await Promise.all(channelIds.map(async (channelId) => {
    const target = deps.channelClients.get(channelId);
    const todo: { d: Delivery; entry: ChannelRequests; request: UsageReportRequest<never> }[] = [];
    for (const d of deliveries) {
      d.channelRequests ??= [];
      let entry = d.channelRequests.find((c) => c.channel_id === channelId);
      if (!entry) {
        entry = { channel_id: channelId, ...(target?.channel.name ? { channel_name: target.channel.name } : {}), provider_requests: [] };
        d.channelRequests.push(entry);
      }
      const request = d.requestFor(channelDestination(channelId));
      if (alreadyDone(entry.provider_requests, request.idempotencyKey)) d.verdicts.push({ success: true, final: true });
      else todo.push({ d, entry, request });
    }
    const record = (item: (typeof todo)[number], outcome: ProviderOutcome) => {
      // A batch's records are each report's own: job_id is the report version's key on this channel.
      const records = outcome.requests.map((r) => ({ ...r, job_id: item.request.idempotencyKey }));
      item.entry.provider_requests = [...item.entry.provider_requests, ...records].slice(-MAX_RECORDS);
      item.d.providerRequests = [...item.d.providerRequests, ...records].slice(-MAX_RECORDS);
      item.d.verdicts.push(classify(outcome));
    };
    if (!target) {
      for (const item of todo) record(item, notConfigured(item.request.idempotencyKey, deps.now(), `webhook channel ${channelId} does not exist or is inactive`));
      return;
    }
    if (deps.webhookBatchSize <= 1) {
      await mapWithConcurrency(todo, deps.concurrency, async (item) => record(item, await target.client.report(item.request as UsageReportRequest<WebhookParams>)));
      return;
    }
    const batches: (typeof todo)[] = [];
    for (let i = 0; i < todo.length; i += deps.webhookBatchSize) batches.push(todo.slice(i, i + deps.webhookBatchSize));
    await mapWithConcurrency(batches, 4, async (batch) => {
      const outcome = await sendWebhookBatch(target.channel, batch.map((item) => item.request as UsageReportRequest<WebhookParams>), deps.webhookOptions);
      for (const item of batch) record(item, outcome);
    });
  }));
}

function finish(deps: DeliveryDeps, d: Delivery): BillingReport {
  const { report, verdicts } = d;
  const runs = report.delivery_runs + 1;
  const allSucceeded = verdicts.length > 0 && verdicts.every((v) => v.success);
  const refused = verdicts.some((v) => !v.success && v.final);
  const status: BillingReport['status'] = allSucceeded ? 'success' : refused || runs >= deps.maxDeliveryRuns ? 'failed' : 'retrying';
  const now = deps.now().toISOString();
  return {
    ...report,
    status,
    success: allSucceeded,
    delivery_runs: runs,
    provider_requests: d.providerRequests,
    ...(d.channelRequests ? { channel_requests: d.channelRequests } : {}),
    ...(allSucceeded ? { last_success_time: now } : {}),
    updated_at: now,
  };
}

/** A failed outcome is final when the provider refused it (its last request got a 4xx other than 408/429). */
function classify(outcome: ProviderOutcome): Verdict {
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
