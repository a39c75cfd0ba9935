import type { WebhookParams } from '../../../schemas/billing/provider-params';
import { StoredChannel } from '../../../schemas/billing/channel';
import { appRulesPartition } from '../../resources/keys';
import { isPlausibleId, type ResourceStore } from '../../resources/resource-store';
import { webhookTransport, type ClientOptions } from '../providers/client-options';
import type { ProviderClient } from '../providers/provider-port';
import { createWebhookClient } from '../providers/webhook-client';
import { channelFetch, type DeliveryChannel } from './channel-delivery';
import { signingSecrets } from './channel-secrets';

export const CHANNEL_PREFIX = 'CHANNEL';
export interface ChannelReaderDeps {
  readonly resources: ResourceStore;
}

export function channelKey(orgId: string, appId: string, id: string): { pk: string; sk: string } {
  return { pk: appRulesPartition(orgId, appId), sk: `${CHANNEL_PREFIX}#${id}` };
}

/** The delivery view of a stored channel at `now` (secrets that still sign). */
export function deliveryChannel(stored: StoredChannel, now: Date): DeliveryChannel {
  return { id: stored._id, name: stored.name, url: stored.url, status: stored.status, headers: stored.headers ?? {}, secrets: signingSecrets(stored, now) };
}

/**
 * Channels of one app by id, with their signing secrets, for the billing run and the test delivery.
 * Ids that name no channel (never created, deleted) are absent from the map; the caller decides
 * what an absent or inactive channel means for its report.
 */
export async function readDeliveryChannels(
  deps: ChannelReaderDeps,
  orgId: string,
  appId: string,
  ids: readonly string[],
  now: Date,
): Promise<Map<string, DeliveryChannel>> {
  const found = new Map<string, DeliveryChannel>();
  const unique = [...new Set(ids)].filter(isPlausibleId);
  for (const item of await deps.resources.getItems(unique.map((id) => channelKey(orgId, appId, id)))) {
    const parsed = StoredChannel.safeParse(item);
    if (parsed.success) found.set(parsed.data._id, deliveryChannel(parsed.data, now));
  }
  return found;
}

/**
 * The billing run's webhook client for one channel: G's signed client, plus the channel's headers
 * and, during a rotation, the previous secret's signature (see channelFetch).
 */
export function channelWebhookClient(channel: DeliveryChannel, options?: ClientOptions): ProviderClient<WebhookParams> {
  const [secret] = channel.secrets;
  if (secret === undefined) throw new Error(`channel ${channel.id} has no signing secret`);
  return createWebhookClient(
    { id: channel.id, name: channel.name, url: channel.url, secret },
    { ...options, fetch: channelFetch(channel, webhookTransport(options)) },
  );
}
