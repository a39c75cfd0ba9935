import { collect } from '../ingest/collector/collect';
import type { ProviderConnectionLookup } from '../billing/run/provider-registry';
import type { ProviderConnection } from '../billing/providers/provider-connections';
import type { ProfileWriter } from '../billing/sync/record-writer';
import { stripeReader } from '../billing/sync/stripe-pages';
import { chargebeeReader } from '../billing/sync/chargebee-pages';
import { recurlyReader } from '../billing/sync/recurly-pages';
import { zuoraReader } from '../billing/sync/zuora-pages';
import { zuoraUsageTotals } from '../billing/reconcile/zuora-usage-totals';
import { createZuoraClient } from '../billing/providers/zuora-client';
import type { ProviderReader } from '../billing/sync/provider-reader';
import type { SyncRunDeps } from '../billing/sync/sync-run';
import type { SyncOperationDeps } from '../billing/sync/sync-operations';
import type { ReconcileDeps } from '../billing/reconcile/reconciliation';
import { stripeUsageTotals } from '../billing/reconcile/stripe-usage-totals';
import { chargebeeUsageTotals } from '../billing/reconcile/chargebee-usage-totals';
import { recurlyUsageTotals } from '../billing/reconcile/recurly-usage-totals';
import { createRecurlyClient } from '../billing/providers/recurly-client';
import { createChargebeeClient } from '../billing/providers/chargebee-client';
import { createStripeClient } from '../billing/providers/stripe-client';
import { observedGraceMs } from '../billing/completeness/lateness';
import type { CompletenessDeps } from '../billing/completeness/meter-completeness';
import type { StripeAccountConfig } from '../billing/providers/stripe-sdk';
import type { ProviderName } from '../../schemas/billing/provider-params';
import type { BillingRunDeps } from '../billing/run/billing-run';
import type { ClientOptions } from '../billing/providers/client-options';
import type { ProviderClient } from '../billing/providers/provider-port';
import type { ReportTenant } from '../billing/reports/report-store';
import type { SearchableIndex } from '../search/port';
import { queryTimeIndex } from './query-time-index';
import type { ServiceStores } from './service-stores';

/** What the billing run reads and writes, wired from the stores. */

export function billingRunDeps(
  stores: ServiceStores,
  options: {
    index: SearchableIndex;
    providerClient?: (tenant: ReportTenant, provider: Exclude<ProviderName, 'webhook'>) => ProviderClient<never> | undefined;
    webhookOptions?: ClientOptions;
  },
): BillingRunDeps {
  return {
    reports: stores.reports,
    runState: stores.runState,
    lateWindows: stores.lateWindows,
    balances: stores.balances,
    balanceProbe: (tenant) => stores.balanceProbe(tenant),
    resources: stores.resources,
    // A run queries each meter's windows by the thousand: the app's virtual types are read once a minute, not per query.
    index: queryTimeIndex(stores, options.index, { reuseTypesForMs: 60_000 }),
    ...(options.providerClient ? { providerClient: options.providerClient } : {}),
    ...(options.webhookOptions ? { webhookOptions: options.webhookOptions } : {}),
    observedGraceMs: (tenant, meterId) => observedGraceMs(stores.resources, tenant, meterId),
  };
}

/** What measuring and reading a meter's completeness reads: its events' arrival times, its cursor and totals. */
export function completenessDeps(stores: ServiceStores, index: SearchableIndex): CompletenessDeps {
  return { resources: stores.resources, runState: stores.runState, index: queryTimeIndex(stores, index), now: stores.now };
}

/**
 * What the sync in from billing providers reads and writes: the app's connection (from the billing
 * providers document), the catalog (resources), and the collector's path for companies and
 * subscriptions (validated, to the ingest stream).
 */
export function providerSyncDeps(stores: ServiceStores, connectionOf: ProviderConnectionLookup): SyncRunDeps {
  return {
    resources: stores.resources,
    readerOf(tenant, provider) {
      const connection = connectionOf(tenant, provider);
      return connection && readerOfConnection(connection);
    },
    writeProfiles: profileWriter(stores),
    now: stores.now,
  };
}

/** The address a synced record is collected from: none, it was read from the provider by the service itself. */
const SYNC_SOURCE_IP = '0.0.0.0';

/** Where a Stripe connection reaches its account. */
const stripeAccount = (connection: Extract<ProviderConnection, { provider: 'stripe' }>): StripeAccountConfig => ({
  apiKey: connection.api_key,
  ...(connection.base_url ? { baseUrl: connection.base_url } : {}),
  ...(connection.api_version ? { apiVersion: connection.api_version } : {}),
});

/** The sync's reader of a connected account. */
function readerOfConnection(connection: ProviderConnection): ProviderReader {
  if (connection.provider === 'stripe') return stripeReader(stripeAccount(connection));
  if (connection.provider === 'chargebee') return chargebeeReader({ apiKey: connection.api_key, baseUrl: connection.base_url });
  if (connection.provider === 'recurly') return recurlyReader({ apiKey: connection.api_key, ...(connection.base_url ? { baseUrl: connection.base_url } : {}) });
  return zuoraReader(zuoraAccount(connection));
}

const zuoraAccount = (connection: Extract<ProviderConnection, { provider: 'zuora' }>) => ({
  clientId: connection.client_id,
  clientSecret: connection.client_secret,
  baseUrl: connection.base_url,
});

/** Companies and subscriptions written as the collector writes them (validated, to the ingest stream). */
const profileWriter =
  (stores: ServiceStores): ProfileWriter =>
  async (tenant, kind, records) => {
    const app = await stores.apps.getApp(tenant.orgId, tenant.appId);
    if (!app) throw new Error(`the app ${tenant.appId} no longer exists`);
    await collect(stores.publisher, { app, kind, batch: true, body: records, receivedAt: stores.now(), sourceIp: SYNC_SOURCE_IP });
  };

/**
 * What providers' webhooks need: the sync's writes, each app's endpoint (its connection's signing
 * secret and a reader of its account), and whether the app exists. The connections are read when a
 * webhook first needs them (a Lambda reads its secret then, not at every cold start).
 */
export function providerWebhookDeps(stores: ServiceStores, connections: () => Promise<ProviderConnectionLookup>): NonNullable<SyncOperationDeps['webhooks']> {
  return {
    resources: stores.resources,
    writeProfiles: profileWriter(stores),
    now: stores.now,
    async endpointOf(tenant, provider) {
      const connection = (await connections())(tenant, provider);
      if (!connection?.webhook_secret) return undefined;
      return { secret: connection.webhook_secret, reader: readerOfConnection(connection) };
    },
    appExists: async (tenant) => (await stores.apps.getApp(tenant.orgId, tenant.appId)) !== undefined,
  };
}

/** What reconciling a meter with its provider reads: the run's totals, the subscriptions, and the app's account at the provider. */
export function reconcileDeps(stores: ServiceStores, index: SearchableIndex, connections: () => Promise<ProviderConnectionLookup>): ReconcileDeps {
  return {
    resources: stores.resources,
    runState: stores.runState,
    reports: stores.reports,
    index: queryTimeIndex(stores, index),
    async accountOf(tenant, provider) {
      const connection = (await connections())(tenant, provider);
      if (connection?.provider === 'stripe') {
        const account = stripeAccount(connection);
        return { totals: stripeUsageTotals(account), corrections: createStripeClient(account) };
      }
      if (connection?.provider === 'chargebee') {
        const account = { apiKey: connection.api_key, baseUrl: connection.base_url };
        return { totals: chargebeeUsageTotals(account), corrections: createChargebeeClient(account), correctsBy: 'added-usage' as const };
      }
      if (connection?.provider === 'recurly') {
        const account = { apiKey: connection.api_key, ...(connection.base_url ? { baseUrl: connection.base_url } : {}) };
        return { totals: recurlyUsageTotals(account), corrections: createRecurlyClient(account) };
      }
      if (connection?.provider === 'zuora') {
        const account = zuoraAccount(connection);
        return { totals: zuoraUsageTotals(account), corrections: createZuoraClient(account) };
      }
      return undefined;
    },
    now: stores.now,
  };
}
