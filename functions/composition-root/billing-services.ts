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
