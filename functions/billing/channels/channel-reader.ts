import { BatchGetCommand, type BatchGetCommandOutput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WebhookParams } from '../../../schemas/billing/provider-params';
import { StoredChannel } from '../../../schemas/billing/channel';
import { appRulesPartition } from '../../governance/keys';
import { isPlausibleId } from '../../management/resource-store';
import { webhookTransport, type ClientOptions } from '../providers/client-options';
import type { ProviderClient } from '../providers/provider-port';
import { createWebhookClient } from '../providers/webhook-client';
import { channelFetch, type DeliveryChannel } from './channel-delivery';
import { signingSecrets } from './channel-secrets';

export const CHANNEL_PREFIX = 'CHANNEL';
/** BatchGetItem's per-call key limit. */
const BATCH_GET_KEYS = 100;

export interface ChannelReaderDeps {
  readonly documents: DynamoDBDocumentClient;
  readonly resourcesTable: string;
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
export async function readDeliveryChannels(deps: ChannelReaderDeps, orgId: string, appId: string, ids: readonly string[], now: Date): Promise<Map<string, DeliveryChannel>> {
  const found = new Map<string, DeliveryChannel>();
  const unique = [...new Set(ids)].filter(isPlausibleId);
  for (let i = 0; i < unique.length; i += BATCH_GET_KEYS) {
    let keys: Record<string, unknown>[] | undefined = unique.slice(i, i + BATCH_GET_KEYS).map((id) => channelKey(orgId, appId, id));
    while (keys && keys.length > 0) {
      const result: BatchGetCommandOutput = await deps.documents.send(new BatchGetCommand({ RequestItems: { [deps.resourcesTable]: { Keys: keys, ConsistentRead: true } } }));
      for (const item of result.Responses?.[deps.resourcesTable] ?? []) {
        const parsed = StoredChannel.safeParse(item);
        if (parsed.success) found.set(parsed.data._id, deliveryChannel(parsed.data, now));
      }
      keys = result.UnprocessedKeys?.[deps.resourcesTable]?.Keys;
    }
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
  return createWebhookClient({ id: channel.id, name: channel.name, url: channel.url, secret }, { ...options, fetch: channelFetch(channel, webhookTransport(options)) });
}
