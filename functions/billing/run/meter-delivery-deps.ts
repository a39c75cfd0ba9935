import type { WebhookParams } from '../../../schemas/billing/provider-params';
import { BalanceLedger } from '../balances/balance-ledger';
import { channelWebhookClient, readDeliveryChannels } from '../channels/channel-reader';
import type { DeliveryChannel } from '../channels/channel-delivery';
import type { ProviderClient } from '../providers/provider-port';
import { type ReportTenant } from '../reports/report-store';
import { BalanceProbe, MAX_DELIVERY_RUNS, type DeliveryDeps } from './deliver-reports';
import { type RunMeter } from './run-meter';
import { SubscriptionDirectory } from './subscription-directory';
import { DEFAULT_WEBHOOK_BATCH_SIZE } from './webhook-batch';
import { BillingRunDeps } from './billing-run-types';

/** What delivering a meter's reports needs: its provider client, its active webhook channels, the balance ledger, the delivery settings. */
export async function deliveryDepsFor(
  deps: BillingRunDeps,
  tenant: ReportTenant,
  meter: RunMeter,
  directory: SubscriptionDirectory,
  balances: BalanceProbe,
  clock: () => Date,
): Promise<DeliveryDeps> {
  const channelClients = new Map<string, { channel: DeliveryChannel; client: ProviderClient<WebhookParams> }>();
  if (meter.provider === 'webhook') {
    const ids = (meter.params['channel_ids'] as string[] | undefined) ?? [];
    const read = deps.channels ?? ((t, list, at) => readDeliveryChannels({ documents: deps.documents, resourcesTable: deps.resourcesTable }, t.orgId, t.appId, list, at));
    for (const channel of (await read(tenant, ids, clock())).values()) {
      if (channel.status === 'active' && channel.secrets.length > 0) channelClients.set(channel.id, { channel, client: channelWebhookClient(channel, deps.webhookOptions) });
    }
  }
  return {
    tenant, meter, directory,
    providerClient: (provider) => deps.providerClient?.(tenant, provider),
    channelClients,
    ledger: new BalanceLedger(deps.documents, deps.billingTable),
    balances,
    concurrency: deps.deliveryConcurrency ?? 16,
    webhookBatchSize: deps.webhookBatchSize ?? DEFAULT_WEBHOOK_BATCH_SIZE,
    ...(deps.webhookBatchBytes !== undefined ? { webhookBatchBytes: deps.webhookBatchBytes } : {}),
    webhookOptions: deps.webhookOptions,
    maxDeliveryRuns: deps.maxDeliveryRuns ?? MAX_DELIVERY_RUNS,
    now: clock,
  };
}
