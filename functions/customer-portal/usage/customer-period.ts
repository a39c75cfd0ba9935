import type { KnownSubscription } from '../../billing/run/subscription-directory';
import { billingPeriod } from '../../billing/run/window-reports';

/** A billing period as the usage page shows it. */
export interface CustomerPeriod {
  readonly start: Date;
  /** Exclusive. */
  readonly end: Date;
  readonly closed: boolean;
}

/**
 * The period of a subscription the usage answer covers, as the billing run assigns windows to periods:
 * - no `asked` start: the period the window holding `now` is billed in (the subscription's current
 *   period while it lasts; once it has ended and no renewal has arrived, the UTC month);
 * - an `asked` start: the subscription's stated period when it starts then (open or ended), else the
 *   UTC calendar month starting then; undefined when it is neither.
 */
export function customerPeriod(subscription: KnownSubscription, now: Date, asked?: Date): CustomerPeriod | undefined {
  if (asked === undefined) {
    const period = billingPeriod(subscription, { start: now, end: now });
    return { ...period, closed: period.end.getTime() <= now.getTime() };
  }
  const stated = subscription.periodStart && subscription.periodEnd && subscription.periodStart.getTime() === asked.getTime();
  if (stated) return { start: subscription.periodStart!, end: subscription.periodEnd!, closed: subscription.periodEnd!.getTime() <= now.getTime() };
  if (!isMonthStart(asked)) return undefined;
  const end = new Date(Date.UTC(asked.getUTCFullYear(), asked.getUTCMonth() + 1, 1));
  return { start: asked, end, closed: end.getTime() <= now.getTime() };
}

const isMonthStart = (at: Date) => at.getTime() === Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
