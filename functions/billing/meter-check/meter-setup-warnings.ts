import type { MeterWarning } from '../../../schemas/billing/meter-preview';
import type { RunMeter } from '../run/run-meter';
import type { SubscriptionDirectory } from '../run/subscription-directory';

/**
 * Why a meter would bill nothing, or less than its usage, said before it does: shown by the meter
 * preview (console meter page) and listed in the billing run's summary and log. Computed from the
 * meter and the app's subscriptions only, so the run adds no query for it.
 */
export function meterSetupWarnings(meter: Pick<RunMeter, 'billedIds' | 'perSubscription'>, directory: SubscriptionDirectory): MeterWarning[] {
  const billable = directory.billableFor(new Set()).length;
  const ids = [...meter.billedIds];
  const consequence = meter.perSubscription
    ? 'Its query names {{subscription_id}}/{{company_id}}, so it is evaluated per matching subscription: nothing is queried or billed.'
    : 'Company usage goes to unattributed reports (kept, never sent) instead of a subscription.';
  const named = ids.map((id) => `"${id}"`).join(', ');
  if (billable === 0) {
    const carrying = ids.length > 0 ? `, with an item whose plan_id, price_id or subscription_item_id is ${named}` : '';
    return [
      {
        code: 'no_billable_subscription',
        message: `The app has no active or trialing subscription (send them to POST /v1/subscriptions${carrying}). ${consequence}`,
      },
    ];
  }
  if (ids.length > 0 && directory.billableFor(meter.billedIds).length === 0) {
    return [
      {
        code: 'no_matching_subscription',
        message: `None of the app's ${billable} active or trialing subscriptions has an item whose plan_id, price_id or subscription_item_id is ${named}. ${consequence}`,
      },
    ];
  }
  return [];
}
