import * as z from 'zod';
import type { ProviderName } from '../../../schemas/billing/provider-params';
import type { ClientOptions } from '../providers/client-options';
import { createProviderClient, ProviderConnection } from '../providers/provider-connections';
import type { ProviderClient } from '../providers/provider-port';

/**
 * The provider connections the billing run delivers through, from one JSON document (a Secrets
 * Manager secret in AWS, `<data dir>/billing-providers.json` locally):
 *   {"connections": [{"provider": "stripe", "api_key": "sk_…"}, …], "apps": {"<org>/<app>": [ … ]}}
 * `connections` serve every app; `apps` overrides them per app (org/app ids joined by `/`).
 */
export const ProviderConnectionsDocument = z.strictObject({
  connections: z.array(ProviderConnection).default([]),
  apps: z.record(z.string(), z.array(ProviderConnection)).default({}),
});
export type ProviderConnectionsDocument = z.infer<typeof ProviderConnectionsDocument>;

export type ProviderClientLookup = (tenant: { orgId: string; appId: string }, provider: Exclude<ProviderName, 'webhook'>) => ProviderClient<never> | undefined;

export type ProviderConnectionLookup = (tenant: { orgId: string; appId: string }, provider: ProviderConnection['provider']) => ProviderConnection | undefined;

/** Parses the document (throws naming the problem) and returns each app's connection to a provider (the sync in reads with it). */
export function providerConnections(document: unknown): ProviderConnectionLookup {
  const parsed = ProviderConnectionsDocument.parse(document);
  return (tenant, provider) => (parsed.apps[`${tenant.orgId}/${tenant.appId}`] ?? parsed.connections).find((c) => c.provider === provider);
}

/** Parses the document (throws naming the problem) and returns the run's client lookup; clients are made once and reused. */
export function providerClients(document: unknown, options?: ClientOptions): ProviderClientLookup {
  const parsed = ProviderConnectionsDocument.parse(document);
  const made = new Map<string, ProviderClient<never>>();
  return (tenant, provider) => {
    const appKey = `${tenant.orgId}/${tenant.appId}`;
    const connection = (parsed.apps[appKey] ?? parsed.connections).find((c) => c.provider === provider);
    if (!connection) return undefined;
    const cacheKey = `${parsed.apps[appKey] ? appKey : '*'}|${provider}`;
    let client = made.get(cacheKey);
    if (!client) {
      client = createProviderClient(connection, options) as ProviderClient<never>;
      made.set(cacheKey, client);
    }
    return client;
  };
}
