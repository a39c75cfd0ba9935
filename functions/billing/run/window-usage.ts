import type { Decimal } from '../../../values/decimal';
import type { RunMeter } from './run-meter';
import type { SubscriptionDirectory } from './subscription-directory';

/** What a window's usage queries return (usage-query.ts), before attribution (window-reports.ts). */
export interface WindowUsage {
  /** subscription_id → raw usage of events naming it. */
  readonly bySubscription: Map<string, Decimal>;
  /** company_id → raw usage of events naming no subscription. */
  readonly byCompany: Map<string, Decimal>;
  /**
   * Distinct meters only: subscription_id → the distinct count over the union of its events and its
   * company's events without subscription_id, for the subscriptions that receive both (see distinctOverlaps).
   */
  readonly distinctUnions?: Map<string, Decimal>;
}

/** A subscription and the company whose events without subscription_id are attributed to it. */
export interface UsageTarget {
  readonly subscriptionId: string;
  readonly companyId: string;
}

/**
 * Distinct meters: the subscriptions receiving usage both from events naming them and from their
 * company's events without subscription_id (the pairing attribute() makes). Their two distinct counts
 * do not add, so their union is counted by one more query (usage-query.ts distinctUnionUsage).
 */
export function distinctOverlaps(usage: WindowUsage, directory: SubscriptionDirectory, meter: RunMeter): UsageTarget[] {
  const overlaps: UsageTarget[] = [];
  for (const companyId of usage.byCompany.keys()) {
    const subscription = directory.forCompany(companyId, meter.billedIds);
    if (subscription && usage.bySubscription.has(subscription.subscriptionId)) overlaps.push({ subscriptionId: subscription.subscriptionId, companyId });
  }
  return overlaps;
}
