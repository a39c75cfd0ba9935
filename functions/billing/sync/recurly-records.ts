import { PlanInput, PriceInput, type PriceTier } from '../../../schemas/billing/catalog';
import { Decimal } from '../../../values/decimal';
import { syncedFrom, type RecordMapping, type Skipped } from './provider-reader';

/**
 * Recurly's objects (API v3) as the service's records: plans as catalog plans, usage add-ons as
 * catalog prices (amounts are in the currency's main unit already), accounts as companies (the
 * account code is the team's own id) and subscriptions with their plan and add-ons as items.
 */

interface RecurlyCurrencyAmount {
  currency: string;
  unit_amount?: number | null;
  unit_amount_decimal?: string | null;
}

interface RecurlyPlan {
  id: string;
  code: string;
  name?: string;
  description?: string | null;
  state?: 'active' | 'inactive';
}

interface RecurlyAddOn {
  id: string;
  code: string;
  name?: string;
  plan_id: string;
  state?: 'active' | 'inactive';
  add_on_type?: 'fixed' | 'usage';
  usage_type?: 'price' | 'percentage' | null;
  tier_type?: 'flat' | 'tiered' | 'volume' | 'stairstep';
  currencies?: RecurlyCurrencyAmount[];
  tiers?: { ending_quantity: number; currencies: RecurlyCurrencyAmount[] }[];
}

interface RecurlyAccount {
  id: string;
  code: string;
  company?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  state?: 'active' | 'inactive';
}

interface RecurlySubscription {
  id: string;
  state: 'active' | 'canceled' | 'expired' | 'failed' | 'future' | 'paused' | string;
  account?: { id: string; code: string };
  plan?: { id: string; code: string };
  current_period_started_at?: string | null;
  current_period_ends_at?: string | null;
  created_at?: string | null;
  add_ons?: { add_on?: { id: string; code: string } }[];
}

/** Recurly's "no upper bound" for the last tier. */
const UNBOUNDED = 999_999_999;
const STATUSES: Record<string, string> = {
  active: 'active',
  future: 'pending',
  paused: 'paused',
  canceled: 'cancelled',
  expired: 'cancelled',
  failed: 'cancelled',
};

const amountOf = (amount: RecurlyCurrencyAmount | undefined): string | undefined =>
  amount?.unit_amount_decimal
    ? Decimal.from(amount.unit_amount_decimal).toString()
    : typeof amount?.unit_amount === 'number'
      ? Decimal.from(String(amount.unit_amount)).toString()
      : undefined;

export function planOfRecurly(plan: RecurlyPlan): PlanInput {
  return PlanInput.parse({
    id: plan.id,
    name: (plan.name ?? '').slice(0, 200) || plan.code,
    provider: 'recurly',
    status: plan.state === 'inactive' ? 'inactive' : 'active',
    product_id: plan.code,
    ...(plan.description ? { description: plan.description.slice(0, 2000) } : {}),
    metadata: { recurly_plan_code: plan.code },
  });
}

/** A usage add-on in its first currency (the catalog keeps one currency a price). */
export function priceOfAddOn(addOn: RecurlyAddOn): PriceInput | Skipped {
  if (addOn.add_on_type === 'fixed') return { skipped: 'a fixed add-on (a quantity the subscription sets, not usage)' };
  if (addOn.usage_type === 'percentage') return { skipped: 'a percentage usage add-on (priced on amounts, not quantities)' };
  const currency = (addOn.currencies?.[0]?.currency ?? addOn.tiers?.[0]?.currencies[0]?.currency ?? '').toLowerCase();
  if (!currency) return { skipped: 'an add-on without a currency' };
  const common = {
    id: addOn.id,
    name: (addOn.name ?? '').slice(0, 200) || addOn.code,
    provider: 'recurly',
    plan_id: addOn.plan_id,
    status: addOn.state === 'inactive' ? 'inactive' : 'active',
    currency,
    metadata: { recurly_add_on_code: addOn.code },
  };
  let model: Record<string, unknown>;
  if (!addOn.tier_type || addOn.tier_type === 'flat') {
    const unit = amountOf(addOn.currencies?.find((c) => c.currency.toLowerCase() === currency));
    if (unit === undefined) return { skipped: 'an add-on without a unit amount' };
    model = { pricing_model: 'per_unit', price_in_decimal: unit };
  } else {
    if (!addOn.tiers || addOn.tiers.length === 0) return { skipped: `a ${addOn.tier_type} add-on without its tiers` };
    const tiers: PriceTier[] = addOn.tiers.map((tier) => {
      const amount = amountOf(tier.currencies.find((c) => c.currency.toLowerCase() === currency)) ?? '0';
      const upTo = tier.ending_quantity >= UNBOUNDED ? 'inf' : tier.ending_quantity;
      return addOn.tier_type === 'stairstep'
        ? { up_to: upTo, unit_price_in_decimal: '0', flat_price_in_decimal: amount }
        : { up_to: upTo, unit_price_in_decimal: amount };
    });
    model = { pricing_model: addOn.tier_type === 'tiered' ? 'graduated' : 'volume', tiers };
  }
  const parsed = PriceInput.safeParse({ ...common, ...model });
  return parsed.success ? parsed.data : { skipped: parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ') };
}

export function companyOfAccount(account: RecurlyAccount, at: Date): Record<string, unknown> {
  const name = account.company || [account.first_name, account.last_name].filter(Boolean).join(' ');
  return {
    company_id: account.code,
    metadata: { recurly_account_id: account.id, ...(name ? { name } : {}), ...(account.email ? { email: account.email } : {}) },
    synced_from: syncedFrom('recurly', 'account', account.id, at),
  };
}

export function subscriptionOfRecurly(subscription: RecurlySubscription, at: Date): Record<string, unknown> | Skipped {
  if (!subscription.account) return { skipped: 'the subscription names no account' };
  const planId = subscription.plan?.id;
  return {
    subscription_id: subscription.id,
    company_id: subscription.account.code,
    status: STATUSES[subscription.state] ?? 'active',
    ...(subscription.current_period_started_at ? { current_period_start: subscription.current_period_started_at } : {}),
    ...(subscription.current_period_ends_at ? { current_period_end: subscription.current_period_ends_at } : {}),
    // The plan, then each add-on as the price it is (the run attributes usage by add-on id or plan id).
    items: [
      ...(planId ? [{ plan_id: planId }] : []),
      ...(subscription.add_ons ?? []).flatMap((entry) => (entry.add_on ? [{ price_id: entry.add_on.id, ...(planId ? { plan_id: planId } : {}) }] : [])),
    ],
    metadata: { recurly_account_id: subscription.account.id },
    ...(subscription.created_at ? { created_at: subscription.created_at } : {}),
    synced_from: syncedFrom('recurly', 'subscription', subscription.id, at),
  };
}

export const recurlyRecords: RecordMapping = {
  provider: 'recurly',
  objectNames: { products: 'plan', prices: 'add_on', customers: 'account', subscriptions: 'subscription' },
  idOf: (object) => (object as { id: string }).id,
  plan: (object) => planOfRecurly(object as RecurlyPlan),
  price: (object) => priceOfAddOn(object as RecurlyAddOn),
  company: (object, at) => companyOfAccount(object as RecurlyAccount, at),
  subscription: (object, at) => subscriptionOfRecurly(object as RecurlySubscription, at),
};
