import type { CohortSources } from '../cohorts/cohort-members';
import type { SearchableIndex } from '../search/port';
import { governanceBillingFacts } from './governance-billing-facts';
import { queryTimeIndex } from './query-time-index';
import type { ServiceStores } from './service-stores';

/**
 * What computing a cohort reads, for every job that does: the index with virtual event types
 * expanded (a behavioural condition may name one), the app's subscriptions (billing-period
 * windows) and its calendar settings (calendar windows).
 */
export function cohortSources(stores: ServiceStores, index: SearchableIndex): CohortSources {
  return {
    index: queryTimeIndex(stores, index),
    subscriptions: governanceBillingFacts(stores, index),
    async calendar(scope) {
      const app = await stores.apps.getApp(scope.org_id, scope.app_id);
      return app ? { timeZone: app.time_zone, weekStartsOn: app.week_starts_on } : undefined;
    },
  };
}
