import { collect } from '../ingest/collector/collect';
import type { ProviderConnectionLookup } from '../billing/run/provider-registry';
import { stripePageReader } from '../billing/sync/stripe-pages';
import type { SyncRunDeps } from '../billing/sync/sync-run';
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
  };
}

/**
 * What the sync in from billing providers reads and writes: the app's connection (from the billing
 * providers document), the catalog (resources), and the collector's path for companies and
 * subscriptions (validated, to the ingest stream).
 */
export function providerSyncDeps(stores: ServiceStores, connectionOf: ProviderConnectionLookup): SyncRunDeps {
  return {
    resources: stores.resources,
    pagesOf(tenant) {
      const connection = connectionOf(tenant, 'stripe');
      if (connection?.provider !== 'stripe') return undefined;
      return stripePageReader({
        apiKey: connection.api_key,
        ...(connection.base_url ? { baseUrl: connection.base_url } : {}),
        ...(connection.api_version ? { apiVersion: connection.api_version } : {}),
      });
    },
    async writeProfiles(tenant, kind, records) {
      const app = await stores.apps.getApp(tenant.orgId, tenant.appId);
      if (!app) throw new Error(`the app ${tenant.appId} no longer exists`);
      await collect(stores.publisher, { app, kind, batch: true, body: records, receivedAt: stores.now(), sourceIp: SYNC_SOURCE_IP });
    },
    now: stores.now,
  };
}

/** The address a synced record is collected from: none, it was read from the provider by the service itself. */
const SYNC_SOURCE_IP = '0.0.0.0';
