import { PlanInput, PriceInput, type PriceTier } from '../../../schemas/billing/catalog';
import { Decimal } from '../../../values/decimal';
import { syncedFrom, type RecordMapping, type Skipped } from './provider-reader';

/**
 * Zuora's objects (Object Query API) as the service's records: product rate plans as catalog plans,
 * usage charges as catalog prices (amounts in the currency's main unit already), accounts as
 * companies by their account number (what usage is recorded against), and subscriptions, by their
 * number, with each rate plan and charge as items (the charge number as `subscription_item_id`).
 */

interface ZuoraRatePlan {
  id: string;
  name?: string;
  description?: string | null;
  productId?: string;
  status?: string;
}

interface ZuoraTier {
  currency: string;
  price: number | string;
  startingUnit?: number;
  endingUnit?: number | null;
  priceFormat?: 'PerUnit' | 'FlatFee' | string;
}

interface ZuoraCharge {
  id: string;
  name?: string;
  productRatePlanId: string;
  chargeType?: 'Usage' | 'Recurring' | 'OneTime' | string;
  chargeModel?: 'PerUnit' | 'Tiered' | 'Volume' | 'FlatFee' | string;
  uom?: string | null;
  productRatePlanChargeTiers?: ZuoraTier[];
}

interface ZuoraAccount {
  id: string;
  accountNumber: string;
  name?: string;
  status?: string;
}

interface ZuoraSubscription {
  id: string;
  subscriptionNumber?: string;
  name?: string;
  status?: string;
  createdDate?: string;
  account?: { accountNumber?: string };
  ratePlans?: { productRatePlanId?: string; ratePlanCharges?: { chargeNumber?: string; productRatePlanChargeId?: string }[] }[];
}

const STATUSES: Record<string, string> = {
  Active: 'active',
  Suspended: 'paused',
  Cancelled: 'cancelled',
  Expired: 'cancelled',
  Draft: 'pending',
  PendingActivation: 'pending',
  PendingAcceptance: 'pending',
};

export function planOfRatePlan(plan: ZuoraRatePlan): PlanInput {
  return PlanInput.parse({
    id: plan.id,
    name: (plan.name ?? '').slice(0, 200) || plan.id,
    provider: 'zuora',
    status: !plan.status || plan.status === 'Active' ? 'active' : 'inactive',
    ...(plan.productId ? { product_id: plan.productId } : {}),
    ...(plan.description ? { description: plan.description.slice(0, 2000) } : {}),
  });
}

/** A usage charge in its first currency (the catalog keeps one currency a price). */
export function priceOfCharge(charge: ZuoraCharge): PriceInput | Skipped {
  if (charge.chargeType && charge.chargeType !== 'Usage') return { skipped: `a ${charge.chargeType.toLowerCase()} charge (not usage)` };
  const tiers = charge.productRatePlanChargeTiers ?? [];
  const currency = tiers[0]?.currency.toLowerCase();
  if (!currency) return { skipped: 'a charge without prices' };
  const own = tiers.filter((tier) => tier.currency.toLowerCase() === currency);
  const common = {
    id: charge.id,
    name: (charge.name ?? '').slice(0, 200) || charge.id,
    provider: 'zuora',
    plan_id: charge.productRatePlanId,
    currency,
    ...(charge.uom ? { metadata: { zuora_uom: charge.uom } } : {}),
  };
  const amount = (tier: ZuoraTier) => Decimal.from(String(tier.price)).toString();
  let model: Record<string, unknown>;
  switch (charge.chargeModel) {
    case 'PerUnit':
      model = { pricing_model: 'per_unit', price_in_decimal: amount(own[0]!) };
      break;
    case 'Tiered':
    case 'Volume': {
      const priced: PriceTier[] = own.map((tier) => {
        const upTo = tier.endingUnit ?? 'inf';
        return tier.priceFormat === 'FlatFee'
          ? { up_to: upTo, unit_price_in_decimal: '0', flat_price_in_decimal: amount(tier) }
          : { up_to: upTo, unit_price_in_decimal: amount(tier) };
      });
      model = { pricing_model: charge.chargeModel === 'Tiered' ? 'graduated' : 'volume', tiers: priced };
      break;
    }
    default:
      return { skipped: `the ${charge.chargeModel ?? 'unnamed'} charge model is not one the catalog holds (per unit, tiered, volume)` };
  }
  const parsed = PriceInput.safeParse({ ...common, ...model });
  return parsed.success ? parsed.data : { skipped: parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ') };
}

export function companyOfZuoraAccount(account: ZuoraAccount, at: Date): Record<string, unknown> {
  return {
    company_id: account.accountNumber,
    metadata: { zuora_account_id: account.id, ...(account.name ? { name: account.name } : {}) },
    synced_from: syncedFrom('zuora', 'account', account.id, at),
  };
}

export function subscriptionOfZuora(subscription: ZuoraSubscription, at: Date): Record<string, unknown> | Skipped {
  const number = subscription.subscriptionNumber ?? subscription.name;
  const accountNumber = subscription.account?.accountNumber;
  if (!number) return { skipped: 'a subscription without its number' };
  if (!accountNumber) return { skipped: 'its account was not read with it (expand[]=account)' };
  return {
    subscription_id: number,
    company_id: accountNumber,
    status: STATUSES[subscription.status ?? 'Active'] ?? 'active',
    // Zuora bills each charge on its own period: the run counts usage by calendar month (no period is stated).
    items: (subscription.ratePlans ?? []).flatMap((plan) =>
      (plan.ratePlanCharges ?? []).map((charge) => ({
        ...(plan.productRatePlanId ? { plan_id: plan.productRatePlanId } : {}),
        ...(charge.productRatePlanChargeId ? { price_id: charge.productRatePlanChargeId } : {}),
        ...(charge.chargeNumber ? { subscription_item_id: charge.chargeNumber } : {}),
      })),
    ),
    metadata: { zuora_subscription_id: subscription.id },
    ...(subscription.createdDate ? { created_at: new Date(subscription.createdDate).toISOString() } : {}),
    synced_from: syncedFrom('zuora', 'subscription', subscription.id, at),
  };
}

export const zuoraRecords: RecordMapping = {
  provider: 'zuora',
  objectNames: { products: 'product_rate_plan', prices: 'product_rate_plan_charge', customers: 'account', subscriptions: 'subscription' },
  idOf: (object) => (object as { id: string }).id,
  plan: (object) => planOfRatePlan(object as ZuoraRatePlan),
  price: (object) => priceOfCharge(object as ZuoraCharge),
  company: (object, at) => companyOfZuoraAccount(object as ZuoraAccount, at),
  subscription: (object, at) => subscriptionOfZuora(object as ZuoraSubscription, at),
};
