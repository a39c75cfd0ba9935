import * as z from 'zod';
import type { ChargebeeParams, RecurlyParams, StripeParams, ZuoraParams } from '../../../schemas/billing/provider-params';
import { createChargebeeClient } from './chargebee-client';
import type { ClientOptions } from './client-options';
import type { ProviderClient } from './provider-port';
import { createRecurlyClient } from './recurly-client';
import { createStripeClient } from './stripe-client';
import { createZuoraClient } from './zuora-client';

/**
 * An account's connection to a billing provider, as kept in its secret (Secrets Manager in AWS,
 * local config locally), and the client made from it. Webhook channels are not here: each channel
 * carries its own URL and secret and gets `createWebhookClient(channel)`.
 */

const Secret = z.string().min(1).max(500);

export const ProviderConnection = z.discriminatedUnion('provider', [
  z
    .object({
      provider: z.literal('stripe'),
      api_key: Secret,
      base_url: z.url().optional(),
      api_version: z.string().min(1).optional(),
      /** The signing secret of the Stripe webhook endpoint that keeps synced records current (`whsec_…`). */
      webhook_secret: Secret.optional(),
    })
    .strict(),
  z
    .object({
      provider: z.literal('chargebee'),
      api_key: Secret,
      base_url: z.url(),
      /** The password of the site's webhook (basic authentication) that keeps synced records current. */
      webhook_secret: Secret.optional(),
    })
    .strict(),
  z
    .object({
      provider: z.literal('recurly'),
      api_key: Secret,
      base_url: z.url().optional(),
      /** The secret of the Recurly webhook endpoint that keeps synced accounts and subscriptions current. */
      webhook_secret: Secret.optional(),
    })
    .strict(),
  z
    .object({
      provider: z.literal('zuora'),
      client_id: Secret,
      client_secret: Secret,
      base_url: z.url(),
      /** The password of the tenant's callout notifications (basic authentication) that keep synced records current. */
      webhook_secret: Secret.optional(),
    })
    .strict(),
]);
export type ProviderConnection = z.infer<typeof ProviderConnection>;

interface ParamsByProvider {
  stripe: StripeParams;
  chargebee: ChargebeeParams;
  recurly: RecurlyParams;
  zuora: ZuoraParams;
}

export function createProviderClient<C extends ProviderConnection>(connection: C, options?: ClientOptions): ProviderClient<ParamsByProvider[C['provider']]> {
  return clientFor(connection, options) as ProviderClient<ParamsByProvider[C['provider']]>;
}

function clientFor(connection: ProviderConnection, options: ClientOptions | undefined): ProviderClient<never> {
  switch (connection.provider) {
    case 'stripe':
      return createStripeClient(
        {
          apiKey: connection.api_key,
          ...(connection.base_url ? { baseUrl: connection.base_url } : {}),
          ...(connection.api_version ? { apiVersion: connection.api_version } : {}),
        },
        options,
      );
    case 'chargebee':
      return createChargebeeClient({ apiKey: connection.api_key, baseUrl: connection.base_url }, options);
    case 'recurly':
      return createRecurlyClient({ apiKey: connection.api_key, ...(connection.base_url ? { baseUrl: connection.base_url } : {}) }, options);
    case 'zuora':
      return createZuoraClient({ clientId: connection.client_id, clientSecret: connection.client_secret, baseUrl: connection.base_url }, options);
  }
}
