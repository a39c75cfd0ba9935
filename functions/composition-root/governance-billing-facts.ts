import { SubscriptionDirectory } from '../billing/run/subscription-directory';
import type { BillingFacts } from '../governance/plan-selection';
import { catalogPlanQuota } from '../resources/catalog-plan-quota';
import type { SearchableIndex } from '../search/port';
import type { ServiceStores } from './service-stores';
import { spendCapStandings } from '../customer-portal/spend-caps/spend-cap-standing';
import { customerUsageDeps } from './customer-usage-services';

/**
 * What governance reads from billing (a layer above it): the app's subscriptions from the index, a
 * subscription's prepaid balance from the ledger, a catalog plan's quota, and customers' spend caps
 * with their bills so far.
 */
export function governanceBillingFacts(stores: ServiceStores, index: SearchableIndex): BillingFacts {
  return {
    async subscriptions(scope, now) {
      return [...(await SubscriptionDirectory.load(index, scope, now)).subscriptions.values()];
    },
    async availableBalance(scope, subscriptionId) {
      const balance = await stores.balances.balance({ orgId: scope.org_id, appId: scope.app_id }, subscriptionId);
      return balance?.figures.available.toString();
    },
    planQuota: (scope, provider, planId) => catalogPlanQuota(stores.resources, { orgId: scope.org_id, appId: scope.app_id }, provider, planId),
    spendCaps: (scope, now) => spendCapStandings(customerUsageDeps(stores, index), { orgId: scope.org_id, appId: scope.app_id }, now),
  };
}
