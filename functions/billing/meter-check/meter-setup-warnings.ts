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
  const warnings: MeterWarning[] = [];
  if (ids.length > 0 && directory.billableFor(meter.billedIds).length === 0) {
    warnings.push({
      code: 'no_matching_subscription',
      message: `None of the app's ${billable} active or trialing subscriptions has an item whose plan_id, price_id or subscription_item_id is ${named} (or, sent without items, metadata.plan_id or metadata.price_id). ${consequence}`,
    });
  }
  const withoutItems = directory.billableFor(new Set()).filter((s) => s.items.length === 0);
  if (ids.length > 0 && withoutItems.length > 0) {
    const listed = withoutItems
      .slice(0, 5)
      .map((s) => s.subscriptionId)
      .join(', ');
    warnings.push({
      code: 'subscriptions_without_items',
      message: `${withoutItems.length} active or trialing subscriptions have no items and no metadata.plan_id (${listed}${withoutItems.length > 5 ? ', …' : ''}), so no meter bills them: add items on the company's page, or send metadata.plan_id with them (as an SDK's updateSubscription can).`,
    });
  }
  return warnings;
}
