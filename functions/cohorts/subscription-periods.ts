import { currentBillingPeriod, type BillingPeriod } from '../../values/billing-period';
import type { TenantScope } from '../search/port';

/** A subscription as cohorts and governance need it. */
export interface PlanSubscription {
  readonly subscriptionId: string;
  readonly companyId: string;
  readonly status: string;
  readonly periodStart: Date | null;
  readonly periodEnd: Date | null;
  readonly items: readonly { readonly plan_id?: string | null; readonly price_id?: string | null }[];
}

/** The app's subscriptions, from billing (a layer above this one). */
export interface SubscriptionFacts {
  subscriptions(scope: TenantScope, now: Date): Promise<readonly PlanSubscription[]>;
}

/** Statuses whose subscription is served (and billed); any other is inactive. */
export const ACTIVE_SUBSCRIPTION_STATUSES: ReadonlySet<string> = new Set(['active', 'trialing']);

/**
 * Each company's current billing period: that of its active subscription (rolled forward past a
 * renewal not yet seen, values/billing-period.ts); with several, the one that started last.
 */
export async function currentPeriodsByCompany(facts: SubscriptionFacts, scope: TenantScope, now: Date): Promise<Map<string, BillingPeriod>> {
  const periods = new Map<string, BillingPeriod>();
  for (const subscription of await facts.subscriptions(scope, now)) {
    if (!ACTIVE_SUBSCRIPTION_STATUSES.has(subscription.status)) continue;
    const period = currentBillingPeriod(subscription.periodStart, subscription.periodEnd, now);
    const held = periods.get(subscription.companyId);
    if (!held || period.start.getTime() > held.start.getTime()) periods.set(subscription.companyId, period);
  }
  return periods;
}

/**
 * The same facts, but each app's subscriptions read once for as long as this wrapper is used: a
 * refresh or a run makes one and every rule and cohort of an app shares one read (the `now` of
 * the first read stands for the run's).
 */
export function readOncePerRun<T extends SubscriptionFacts>(facts: T): T {
  const read = new Map<string, Promise<readonly PlanSubscription[]>>();
  const once: SubscriptionFacts = {
    subscriptions(scope, now) {
      const key = `${scope.org_id}\u0000${scope.app_id}`;
      const held = read.get(key) ?? facts.subscriptions(scope, now);
      read.set(key, held);
      return held;
    },
  };
  // The other facts (balances, catalog quotas) pass through to the wrapped object.
  return Object.assign(Object.create(facts) as T, once);
}
