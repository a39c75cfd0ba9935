import type { WebhookParams } from '../../../schemas/billing/provider-params';
import { channelWebhookClient, readDeliveryChannels } from '../channels/channel-reader';
import type { DeliveryChannel } from '../channels/channel-delivery';
import type { ProviderClient } from '../providers/provider-port';
import { MAX_DELIVERY_RUNS, type DeliveryDeps } from './deliver-reports';
import { DEFAULT_WEBHOOK_BATCH_SIZE } from './webhook-batch';
import type { MeterRunContext } from './meter-run-types';

/** What delivering a meter's reports needs: its provider client, its active webhook channels, the balance ledger, the delivery settings. */
export async function deliveryDepsFor(context: MeterRunContext): Promise<DeliveryDeps> {
  const { deps, settings, tenant, meter, directory, balances, clock } = context;
  const channelClients = new Map<string, { channel: DeliveryChannel; client: ProviderClient<WebhookParams> }>();
  if (meter.provider === 'webhook') {
    const ids = (meter.params['channel_ids'] as string[] | undefined) ?? [];
    const read = deps.channels ?? ((t, list, at) => readDeliveryChannels({ resources: deps.resources }, t.orgId, t.appId, list, at));
    for (const channel of (await read(tenant, ids, clock())).values()) {
      if (channel.status === 'active' && channel.secrets.length > 0)
        channelClients.set(channel.id, { channel, client: channelWebhookClient(channel, deps.webhookOptions) });
    }
  }
  return {
    tenant,
    meter,
    directory,
    providerClient: (provider) => deps.providerClient?.(tenant, provider),
    channelClients,
    ledger: deps.balances,
    balances,
    concurrency: settings.deliveryConcurrency ?? 16,
    webhookBatchSize: settings.webhookBatchSize ?? DEFAULT_WEBHOOK_BATCH_SIZE,
    ...(settings.webhookBatchBytes !== undefined ? { webhookBatchBytes: settings.webhookBatchBytes } : {}),
    webhookOptions: deps.webhookOptions,
    maxDeliveryRuns: settings.maxDeliveryRuns ?? MAX_DELIVERY_RUNS,
    now: clock,
  };
}
