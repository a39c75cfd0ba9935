import type { DeliveryChannel } from '../../../functions/billing/channels/channel-delivery';
import type { BillingRunDeps, BillingRunHooks, BillingRunInput, BillingRunSettings } from '../../../functions/billing/run/billing-run';
import { currentBillingPeriod } from '../../../values/billing-period';
import { apiCall, uuid, type TestRuntime } from './runtime';

/** Shared set-up of the billing run's integration tests. */

export const HOUR = 3_600_000;

/**
 * Two consecutive hourly windows that closed and settled hours ago by the real clock, and a time
 * inside one. Both lie in one UTC calendar month, the period the run counts usage in where none is
 * stated (an hour earlier where the second would open a month), so a period of the first window's
 * month holds both at any hour a test runs.
 */
export function settledWindows(): { w1: Date; w2: Date; at: (window: Date, minutes: number) => Date } {
  const latest = Math.floor(Date.now() / HOUR) * HOUR - 4 * HOUR;
  const w1 = new Date(monthOf(latest + HOUR).start.getTime() === latest + HOUR ? latest - HOUR : latest);
  return { w1, w2: new Date(w1.getTime() + HOUR), at: (window, minutes) => new Date(window.getTime() + minutes * 60_000) };
}

/** The UTC calendar month holding `time`, as the run takes it where no period is stated. */
const monthOf = (time: number) => currentBillingPeriod(null, null, new Date(time));

/**
 * A clock in `time`'s UTC calendar month, for a service whose "current period" must hold a scenario
 * (a provider that states no period): the real clock, or, once that month has ended (a test run in
 * a month's first hours), one running from the month's last hour.
 */
export function clockInTheMonthOf(time: Date): () => Date {
  const end = monthOf(time.getTime()).end.getTime();
  const shift = Date.now() < end ? 0 : Date.now() - (end - HOUR);
  return () => new Date(Date.now() - shift);
}

/** API calls with fresh sequential transaction ids, so each one is stored exactly once. */
export function numberedCalls(): (overrides: Record<string, unknown>, time: Date) => Record<string, unknown> {
  let txn = 0;
  return (overrides, time) => {
    txn += 1;
    return apiCall({ transaction_id: uuid(txn), ...overrides }, time);
  };
}

/** A run's dependencies, settings and hooks, as runBilling takes them (without `now`). */
export type RunSetup = Pick<BillingRunInput, 'deps' | 'settings' | 'hooks'>;

/**
 * A run on a test runtime: its stores and index, this app only, the channels the lookup knows, quick
 * webhook retries, and receivers on localhost allowed; `extra` adds or replaces dependencies, settings and hooks.
 */
export function billingDeps(
  rt: TestRuntime,
  channels: (ids: readonly string[]) => Map<string, DeliveryChannel>,
  extra: { deps?: Partial<BillingRunDeps>; settings?: BillingRunSettings; hooks?: BillingRunHooks } = {},
): RunSetup {
  return {
    deps: {
      ...rt.billingDeps,
      tenants: async () => [{ orgId: rt.credentials.org_id, appId: rt.credentials.app_id }],
      channels: async (_tenant, ids) => channels(ids),
      webhookOptions: { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 1_000 }, allowPrivateTargets: true },
      ...extra.deps,
    },
    ...(extra.settings ? { settings: extra.settings } : {}),
    ...(extra.hooks ? { hooks: extra.hooks } : {}),
  };
}

/** A tier of a catalog price, as the catalog API takes it. */
export interface PriceTier {
  readonly up_to: number | 'inf';
  readonly unit_price_in_decimal: string;
  readonly flat_price_in_decimal?: string;
}

/** A catalog plan with one tiered USD price (graduated or volume); answers the plan's id. */
export async function tieredPlan(rt: TestRuntime, name: string, pricingModel: 'tiered_graduated' | 'tiered_volume', tiers: PriceTier[]): Promise<string> {
  const plan = await rt.management('POST', '/~/billing/catalog/plans', {}, { name });
  if (plan.status !== 201) throw new Error(`creating plan ${name} answered ${plan.status}`);
  const planId = String(plan.body.id);
  const price = await rt.management(
    'POST',
    '/~/billing/catalog/prices',
    {},
    { name: pricingModel, plan_id: planId, pricing_model: pricingModel, currency: 'USD', tiers },
  );
  if (price.status !== 201) throw new Error(`creating the price of plan ${name} answered ${price.status}: ${JSON.stringify(price.body)}`);
  return planId;
}

/** Graduated: 10 units at 0.10, then 0.05 each plus 1.00 once the second tier is reached. */
export const GRADUATED_TIERS: PriceTier[] = [
  { up_to: 10, unit_price_in_decimal: '0.1' },
  { up_to: 'inf', unit_price_in_decimal: '0.05', flat_price_in_decimal: '1' },
];
