import { spendCapStore } from '../customer-portal/spend-caps/spend-cap-store';
import type { SpendCapDeps } from '../customer-portal/spend-caps/spend-cap-standing';
import type { SearchableIndex } from '../search/port';
import type { ServiceStores } from './service-stores';

/**
 * What a customer's usage and spend cap read: meters and prices (resources), its events and
 * subscriptions (search), balances (the ledger), what the billing run has reported (run state), and
 * the customers' spend caps.
 */
export function customerUsageDeps(stores: ServiceStores, index: SearchableIndex): SpendCapDeps {
  return {
    index,
    resources: stores.resources,
    caps: spendCapStore(stores.resources),
    async balance(tenant, subscriptionId) {
      return (await stores.balances.balance(tenant, subscriptionId))?.figures.available.toString();
    },
    reportedTotals: (tenant) => stores.runState.totalsReader(tenant),
  };
}
