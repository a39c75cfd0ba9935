import type { PlanChangePreview, PlanChangePreviewRequest } from '../../../schemas/billing/plan-change';
import { Decimal } from '../../../values/decimal';
import { priceAmount } from '../../billing/pricing/price-amount';
import { catalogPrice } from '../../billing/run/meter-pricing';
import { SubscriptionDirectory } from '../../billing/run/subscription-directory';
import { NotFoundError } from '../../shared/errors';
import { invalidInput } from '../../shared/invalid-input';
import { customerUsage, type CustomerUsageDeps } from './customer-usage';

/**
 * A price change previewed for one subscription, now: each meter's usage this period, as the
 * customer page estimates it (so far, and at the rate so far to the period's end), priced three ways:
 * kept on its current price; and changed now, the usage so far at the current price (tiers counted
 * from the period's start, as the run reported it) plus the rest at the new price (tiers counted from
 * the change). Usage is not prorated by time: each unit is billed at the price in force when it was used.
 */

export async function previewPlanChange(
  deps: CustomerUsageDeps,
  tenant: { orgId: string; appId: string },
  request: PlanChangePreviewRequest,
  now: Date,
): Promise<PlanChangePreview> {
  const scope = { org_id: tenant.orgId, app_id: tenant.appId };
  const [directory, next] = await Promise.all([
    SubscriptionDirectory.load(deps.index, scope, now, { term: { subscription_id: request.subscription_id } }),
    catalogPrice(deps.resources, tenant, request.price_id),
  ]);
  const subscription = directory.subscriptions.get(request.subscription_id);
  if (!subscription) throw new NotFoundError(`No subscription ${request.subscription_id}`);
  if (!next) throw invalidInput('preview', [{ field: 'price_id', reason: 'is no price of the catalog' }]);
  const usage = await customerUsage(deps, { tenant, companyId: subscription.companyId, subscriptionId: subscription.subscriptionId, now });
  const period = usage.subscriptions.find((s) => s.subscription_id === subscription.subscriptionId)?.period;
  if (!period)
    throw invalidInput('preview', [{ field: 'subscription_id', reason: 'names a subscription with no billing period now (not active or trialing)' }]);
  // Each price once, however many meters bill at it.
  const priceIds = [...new Set(usage.meters.flatMap((line) => (line.price_id ? [line.price_id] : [])))];
  const current = new Map(await Promise.all(priceIds.map(async (id) => [id, await catalogPrice(deps.resources, tenant, id)] as const)));

  const meters: PlanChangePreview['meters'] = [];
  const leftOut: PlanChangePreview['left_out'] = [];
  for (const line of usage.meters) {
    const price = line.price_id ? current.get(line.price_id) : undefined;
    if (!price) {
      leftOut.push({ billing_meter_id: line.billing_meter_id, reason: 'its plan is priced by the provider, not by the catalog' });
      continue;
    }
    if (price.currency !== next.currency) {
      leftOut.push({
        billing_meter_id: line.billing_meter_id,
        reason: `it is billed in ${price.currency.toUpperCase()}, the new price in ${next.currency.toUpperCase()}`,
      });
      continue;
    }
    const sofar = BigInt(line.usage);
    const rest = BigInt(Math.max(0, line.estimated_usage - line.usage));
    const keep = priceAmount(price, BigInt(line.estimated_usage)).amount;
    const before = priceAmount(price, sofar).amount;
    const after = priceAmount(next, rest).amount;
    const change = before.plus(after);
    meters.push({
      billing_meter_id: line.billing_meter_id,
      name: line.name,
      usage: line.usage,
      estimated_usage: line.estimated_usage,
      keep_amount: keep.toString(),
      before_change_amount: before.toString(),
      after_change_amount: after.toString(),
      change_amount: change.toString(),
      difference: change.minus(keep).toString(),
    });
  }
  const sum = (pick: (meter: PlanChangePreview['meters'][number]) => string) => Decimal.sum(meters.map((meter) => Decimal.from(pick(meter)))).toString();
  return {
    subscription_id: subscription.subscriptionId,
    company_id: subscription.companyId,
    price_id: request.price_id,
    currency: next.currency,
    changed_at: now.toISOString(),
    period: { start: period.start, end: period.end },
    meters,
    totals: { keep_amount: sum((m) => m.keep_amount), change_amount: sum((m) => m.change_amount), difference: sum((m) => m.difference) },
    left_out: leftOut,
  };
}
