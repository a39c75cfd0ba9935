import type { BillingReport, ChannelRequests } from '../../../schemas/billing/report';
import type { ProviderName, WebhookParams } from '../../../schemas/billing/provider-params';
import { Decimal } from '../../../values/decimal';
import { mapWithConcurrency } from '../../shared/concurrency';
import type { BalanceLedger } from '../balances/balance-ledger';
import type { DeliveryChannel } from '../channels/channel-delivery';
import { idempotencyKey, type ReportIdentity } from '../providers/idempotency-key';
import type { ClientOptions } from '../providers/client-options';
import type { ProviderClient, ProviderOutcome, ProviderRequestRecord, ProviderSubscription, UsageReportRequest } from '../providers/provider-port';
import { deliveredReport, type DeliveredReports, type ReportOutcome, type ReportTenant } from '../reports/report-store';
import type { RunMeter } from './run-meter';
import type { SubscriptionDirectory } from './subscription-directory';
import { DEFAULT_WEBHOOK_BATCH_BYTES, sendWebhookBatch, webhookBatches } from './webhook-batch';
import { primaryDestination } from './window-reports';
import { IsoTextCache } from '../iso-text-cache';
import type { BalanceProbe } from './balance-probe';
import { MAX_RECORDS, NOTHING_CARRIED, appendRecords, isRefusal, keyState, unacknowledgedSince, windowOf } from './delivery-records';
export { unacknowledgedSince, keyState } from './delivery-records';

/**
 * Delivery of a window's open reports (pending, retrying) to the meter's destinations, after the
 * window was committed. Every destination of a version gets the same idempotency key on every run,
 * so a resend after a crash or timeout is deduplicated by the provider. Balances are drawn once per
 * report version (the ledger dedupes by report id and version).
 */

/** Runs that may try a version before it is `failed` (each run's client already retries with backoff). */
export const MAX_DELIVERY_RUNS = 5;
/**
 * How long after a version was created an unknown outcome may still be resent under the same key.
 * Stripe (Idempotency-Key and meter event identifier) and Zuora (Idempotency-Key) dedupe for 24 h;
 * past that a resend could be billed twice, so the version is `failed` / `delivery_unconfirmed`
 * instead. (Chargebee's usage_date rule and Recurly's merchant_tag lookup dedupe without a limit;
 * webhook receivers keep event ids as long as they document — at least this long.)
 */
export const UNCONFIRMED_RESEND_MAX_AGE_MS = 23 * 3_600_000;
/** error_code of a report whose delivery outcome stayed unknown: an operator must check the provider. */
export const DELIVERY_UNCONFIRMED = 'delivery_unconfirmed';

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
  /** Body bytes per webhook POST (default DEFAULT_WEBHOOK_BATCH_BYTES). */
  readonly webhookBatchBytes?: number;
  readonly webhookOptions: ClientOptions | undefined;
  readonly maxDeliveryRuns: number;
  readonly now: () => Date;
}

export const isOpen = (report: BillingReport) => report.status === 'pending' || report.status === 'retrying';

/**
 * What one destination did with the current version in this run: `success`; `refused` (a final
 * answer: 4xx other than 408/429, or a target refused before sending); `open` (not confirmed yet).
 * `unconfirmed`: some attempt under this key may have reached the provider (timeout, connection
 * error) and none was answered since. `expired`: unconfirmed for longer than a resend is safe.
 */
interface Verdict {
  readonly destination: string;
  readonly state: 'success' | 'refused' | 'open';
  readonly unconfirmed: boolean;
  readonly expired?: boolean;
  /** The last failed request (its code and message explain a failed report). */
  readonly failure?: ProviderRequestRecord;
}

export interface DeliverOptions {
  /**
   * The reports were built by this run for `deps.meter`: their idempotency_key is the key of their
   * version at the meter's primary destination (window-reports.ts), used as it is instead of hashed
   * again. Not for reports read back from storage: the meter's channels may have changed since.
   */
  readonly keysBuiltThisRun?: boolean;
}

export interface DeliveryResult {
  /** What delivery did to each open report (ReportStore.prepareOutcomes records it as it is). */
  readonly outcomes: DeliveredReports;
  /** The reports after delivery, in the order given: copies made when first read. */
  readonly reports: BillingReport[];
  readonly delivered: number;
  readonly failed: number;
  readonly retrying: number;
}

/** Delivers the open reports (balances already drawn); returns what it did to each. */
export async function deliverReports(deps: DeliveryDeps, reports: readonly BillingReport[], options: DeliverOptions = {}): Promise<DeliveryResult> {
  const open = reports.filter(isOpen);
  const primary = options.keysBuiltThisRun ? primaryDestination(deps.meter) : undefined;
  const deliveries = open.map((report) => new Delivery(deps, report, primary));
  if (deps.meter.provider === 'webhook') await deliverToChannels(deps, deliveries);
  else {
    await mapWithConcurrency(deliveries, deps.concurrency, async (d) => {
      const destination = deps.meter.provider;
      const request = d.requestFor(destination);
      const before = beforeSending(deps, d, destination, d.providerRequests, request.idempotencyKey);
      if (before) return d.verdicts.push(before);
      const client = deps.providerClient(deps.meter.provider as Exclude<ProviderName, 'webhook'>);
      const outcome = client
        ? await client.report(request)
        : notConfigured(request.idempotencyKey, deps.now(), `no ${deps.meter.provider} connection is configured`);
      d.providerRequests = appendRecords(d.providerRequests, outcome.requests);
      return d.verdicts.push(classify(destination, outcome, d.providerRequests, request.idempotencyKey));
    });
  }
  const outcomes = new Map<BillingReport, ReportOutcome>();
  let delivered = 0;
  let failed = 0;
  let retrying = 0;
  for (const d of deliveries) {
    const { status, outcome } = finish(deps, d);
    outcomes.set(d.report, outcome);
    if (status === 'success') delivered += 1;
    else if (status === 'failed') failed += 1;
    else retrying += 1;
  }
  let after: BillingReport[] | undefined;
  return {
    outcomes: { reports, outcomes },
    get reports() {
      after ??= reports.map((report) => deliveredReport(report, outcomes.get(report)));
      return after;
    },
    delivered,
    failed,
    retrying,
  };
}

/**
 * A destination's verdict without sending: the key was already delivered (success), or its outcome
 * has been unknown for longer than the providers dedupe (a resend could double-bill).
 */
function beforeSending(deps: DeliveryDeps, d: Delivery, destination: string, records: readonly ProviderRequestRecord[], key: string): Verdict | undefined {
  if (records.length === 0) return undefined;
  const state = keyState(records, key);
  if (state === 'delivered') return { destination, state: 'success', unconfirmed: false };
  if (
    state === 'unconfirmed' &&
    deps.now().getTime() - Date.parse(d.report.versions[d.report.versions.length - 1]?.created_at ?? d.report.updated_at) > UNCONFIRMED_RESEND_MAX_AGE_MS
  ) {
    const failure = [...records].reverse().find((r) => r.job_id === key && !r.success);
    return { destination, state: 'open', unconfirmed: true, expired: true, ...(failure ? { failure } : {}) };
  }
  return undefined;
}

/** An object being filled in key by key before it is handed on as `T`. */
type Assembled<T> = { -readonly [K in keyof T]: T[K] };

/**
 * One open report on its way: its requests per destination and what each destination answered.
 * (A class, not an object of closures: a window's thousands of deliveries live until its last batch
 * is answered.)
 */
class Delivery {
  readonly verdicts: Verdict[] = [];
  /** Its request records so far (replaced, never changed in place: the report's own array until one is added). */
  providerRequests: readonly ProviderRequestRecord[];
  channelRequests: ChannelRequests[] | undefined;
  private readonly subscription: ProviderSubscription;
  private readonly window: { start: Date; end: Date };

  /** `primary`: the destination the report's own idempotency_key is known to be for (see DeliverOptions). */
  constructor(
    private readonly deps: DeliveryDeps,
    readonly report: BillingReport,
    private readonly primary: string | undefined,
  ) {
    const { meter } = deps;
    const subscriptionId = report.subscription_id!;
    const known = deps.directory.subscriptions.get(subscriptionId);
    const itemPrice =
      known?.items.find((item) => item.price_id && meter.billedIds.has(item.price_id))?.price_id ??
      known?.items.find((item) => item.price_id)?.price_id ??
      undefined;
    const customer = known?.metadata['stripe_customer_id'] ?? known?.metadata['customer_id'];
    // Optional keys assigned, not spread: a literal with spreads takes V8's slow path (once per report).
    const subscription: Assembled<ProviderSubscription> = { subscriptionId, companyId: report.company_id ?? known?.companyId ?? '' };
    if (typeof customer === 'string') subscription.customerId = customer;
    if (itemPrice) subscription.itemPriceId = itemPrice;
    this.subscription = subscription;
    this.window = windowOf(report);
    this.providerRequests = report.provider_requests;
    this.channelRequests = report.channel_requests?.map((c) => ({ ...c, provider_requests: [...c.provider_requests] }));
  }

  /** The idempotency key of one of the report's versions at a destination. */
  keyFor(destination: string, reportVersion: number): string {
    return idempotencyKey(this.identity(destination, reportVersion));
  }

  requestFor(destination: string): UsageReportRequest<never> {
    const {
      report,
      deps: { meter },
    } = this;
    const version = report.versions[report.versions.length - 1]!;
    const identity = this.identity(destination, report.report_version);
    const carried =
      report.report_version === 1 ? NOTHING_CARRIED : unacknowledgedSince(report, (reportVersion) => idempotencyKey({ ...identity, reportVersion }));
    const amount = carried.amounts.reduce<Decimal | undefined>(
      (sum, a) => (a === undefined ? sum : (sum ?? Decimal.ZERO).plus(Decimal.from(a))),
      version.amount_exact === undefined ? undefined : Decimal.from(version.amount_exact),
    );
    const request: Assembled<UsageReportRequest<never>> = {
      identity,
      idempotencyKey: destination === this.primary ? report.idempotency_key : idempotencyKey(identity),
      meter: { id: meter.id, name: meter.name },
      subscription: this.subscription,
      window: this.window,
      quantity: BigInt(report.meter_usage),
      previousQuantity: BigInt(carried.acknowledgedQuantity ?? report.meter_usage - version.delta),
      reportTotalUsage: BigInt(report.report_total_usage),
    } as Assembled<UsageReportRequest<never>>;
    if (amount !== undefined && report.currency) request.amount = { value: amount, currency: report.currency };
    request.params = meter.params as never;
    return request;
  }

  private identity(destination: string, reportVersion: number): ReportIdentity {
    const { tenant, meter } = this.deps;
    return {
      orgId: tenant.orgId,
      appId: tenant.appId,
      meterId: meter.id,
      subscriptionId: this.subscription.subscriptionId,
      windowStart: this.window.start,
      windowEnd: this.window.end,
      reportVersion,
      destination,
    };
  }
}

/** Destination of a channel in idempotency keys (as the providers' docs name it). */
export const channelDestination = (channelId: string) => `webhook:${channelId}`;

async function deliverToChannels(deps: DeliveryDeps, deliveries: Delivery[]): Promise<void> {
  const channelIds = (deps.meter.params['channel_ids'] as string[] | undefined) ?? [];
  await Promise.all(
    channelIds.map(async (channelId) => {
      const target = deps.channelClients.get(channelId);
      const toSend: { d: Delivery; entry: ChannelRequests; request: UsageReportRequest<never> }[] = [];
      for (const d of deliveries) {
        d.channelRequests ??= [];
        let entry = d.channelRequests.find((c) => c.channel_id === channelId);
        if (!entry) {
          entry = target?.channel.name
            ? { channel_id: channelId, channel_name: target.channel.name, provider_requests: [] }
            : { channel_id: channelId, provider_requests: [] };
          d.channelRequests.push(entry);
        }
        const request = d.requestFor(channelDestination(channelId));
        const before = beforeSending(deps, d, channelDestination(channelId), entry.provider_requests, request.idempotencyKey);
        if (before) d.verdicts.push(before);
        else toSend.push({ d, entry, request });
      }
      const record = (item: (typeof toSend)[number], outcome: ProviderOutcome) => {
        // A batch's records are each report's own: job_id is the report version's key on this channel.
        const records = outcome.requests.map((r) => ({ ...r, job_id: item.request.idempotencyKey }));
        // A first delivery (nothing recorded yet, the usual case): the channel and the report share the array.
        const first = records.length <= MAX_RECORDS;
        item.entry.provider_requests = first && item.entry.provider_requests.length === 0 ? records : appendRecords(item.entry.provider_requests, records);
        item.d.providerRequests = first && item.d.providerRequests.length === 0 ? records : appendRecords(item.d.providerRequests, records);
        item.d.verdicts.push(classify(channelDestination(channelId), outcome, item.entry.provider_requests, item.request.idempotencyKey));
      };
      if (!target) {
        for (const item of toSend)
          record(item, notConfigured(item.request.idempotencyKey, deps.now(), `webhook channel ${channelId} does not exist or is inactive`));
        return;
      }
      if (deps.webhookBatchSize <= 1) {
        await mapWithConcurrency(toSend, deps.concurrency, async (item) =>
          record(item, await target.client.report(item.request as UsageReportRequest<WebhookParams>)),
        );
        return;
      }
      const limits = { maxEvents: deps.webhookBatchSize, maxBytes: deps.webhookBatchBytes ?? DEFAULT_WEBHOOK_BATCH_BYTES };
      const batches = webhookBatches(toSend, (item) => item.request as UsageReportRequest<WebhookParams>, deps.now(), limits);
      await mapWithConcurrency(batches, 4, async (batch) => {
        const outcome = await sendWebhookBatch(target.channel, batch, deps.webhookOptions);
        for (const item of batch.items) record(item, outcome);
      });
    }),
  );
}

/**
 * The report after this run's attempt (statuses: schemas/billing/report.ts). Success needs every
 * destination; a refusal fails the report; an unknown outcome stays `retrying` (resent with the same
 * key) until MAX_DELIVERY_RUNS runs or UNCONFIRMED_RESEND_MAX_AGE_MS, then `failed` with
 * `delivery_unconfirmed`. A delivered correction on top of an earlier unconfirmed version keeps the
 * report failed/delivery_unconfirmed: the window's billing is still not known to be whole.
 */
function finish(deps: DeliveryDeps, d: Delivery): { status: BillingReport['status']; outcome: ReportOutcome } {
  const { report, verdicts } = d;
  const runs = report.delivery_runs + 1;
  const allSucceeded = verdicts.length > 0 && verdicts.every((v) => v.state === 'success');
  const refusal = verdicts.find((v) => v.state === 'refused');
  const unconfirmed = verdicts.filter((v) => v.unconfirmed);
  const exhausted = runs >= deps.maxDeliveryRuns || verdicts.some((v) => v.expired);
  let error: { code: string; message: string } | undefined;
  if (allSucceeded) {
    const earlier = earlierUnconfirmed(d);
    if (earlier.length > 0) {
      const versions = [...new Set(earlier.map((e) => e.version))].join(', ');
      const destinations = [...new Set(earlier.map((e) => e.destination))].join(', ');
      error = {
        code: DELIVERY_UNCONFIRMED,
        message: `version ${versions} of this window was never confirmed by ${destinations} (timeouts or connection errors); version ${report.report_version} was delivered on top of it. Check the provider for the unconfirmed version.`,
      };
    }
  } else if (refusal) {
    error = { code: refusal.failure?.error_code ?? 'refused', message: refusal.failure?.error_message ?? `${refusal.destination} refused the report` };
  } else if (exhausted && unconfirmed.length > 0) {
    const last = unconfirmed[0]!.failure;
    error = {
      code: DELIVERY_UNCONFIRMED,
      message: `${`no answer from ${unconfirmed.map((v) => v.destination).join(', ')} for version ${report.report_version} after ${runs} runs${unconfirmed.some((v) => v.expired) ? " (past the providers' deduplication window, so it is not resent)" : ''}; last error: ${last?.error_code ?? 'unknown'} ${last?.error_message ?? ''}`.trim()}. The provider may or may not have it: check it there.`,
    };
  } else if (exhausted) {
    const last = verdicts.find((v) => v.state !== 'success' && v.failure)?.failure;
    error = { code: last?.error_code ?? 'retries_exhausted', message: last?.error_message ?? `not delivered after ${runs} runs` };
  }
  const status: BillingReport['status'] = error ? 'failed' : allSucceeded ? 'success' : 'retrying';
  const now = finishedIso.of(deps.now());
  // The fields delivery sets, in order: set on the report, a key it has keeps its place and a new one
  // goes last (deliveredReport). The outcome overlay (report-codec.ts) stores `set` as it is.
  const set: Record<string, unknown> = { status, success: status === 'success', delivery_runs: runs, provider_requests: d.providerRequests };
  if (d.channelRequests) set['channel_requests'] = d.channelRequests;
  if (allSucceeded) set['last_success_time'] = now;
  if (error) {
    set['error_code'] = error.code;
    set['error_message'] = error.message;
  }
  set['updated_at'] = now;
  // A report that had an error has it removed first: not a plain "fields set" change. (Object rest
  // copies slowly; most reports carry no error to drop.)
  if ('error_code' in report || 'error_message' in report)
    return { status, outcome: { replacement: deliveredReport(withoutError(report) as BillingReport, { set }) } };
  return { status, outcome: { set } };
}

const finishedIso = new IsoTextCache();

function withoutError(report: BillingReport): Omit<BillingReport, 'error_code' | 'error_message'> {
  const { error_code: _code, error_message: _message, ...rest } = report;
  return rest;
}

/** Earlier versions of the report whose outcome at one of this run's destinations stayed unknown. */
function earlierUnconfirmed(d: Delivery): { version: number; destination: string }[] {
  const found: { version: number; destination: string }[] = [];
  for (const entry of d.report.versions) {
    if (entry.report_version >= d.report.report_version) continue;
    for (const { destination } of d.verdicts) {
      const records = destination.startsWith('webhook:')
        ? (d.channelRequests?.find((c) => channelDestination(c.channel_id) === destination)?.provider_requests ?? d.providerRequests)
        : d.providerRequests;
      if (keyState(records, d.keyFor(destination, entry.report_version)) === 'unconfirmed') found.push({ version: entry.report_version, destination });
    }
  }
  return found;
}

/** This run's outcome at one destination; `records` holds every request of the key so far (this run's included). */
function classify(destination: string, outcome: ProviderOutcome, records: readonly ProviderRequestRecord[], key: string): Verdict {
  if (outcome.success) return { destination, state: 'success', unconfirmed: false };
  const last = outcome.requests[outcome.requests.length - 1];
  if (last && isRefusal(last) && last.error_code !== 'not_configured') return { destination, state: 'refused', unconfirmed: false, failure: last };
  return { destination, state: 'open', unconfirmed: keyState(records, key) === 'unconfirmed', ...(last ? { failure: last } : {}) };
}

function notConfigured(jobId: string, now: Date, message: string): ProviderOutcome {
  return {
    success: false,
    duplicate: false,
    requests: [{ job_id: jobId, request_time: now.toISOString(), success: false, status_code: 0, error_code: 'not_configured', error_message: message }],
  };
}
