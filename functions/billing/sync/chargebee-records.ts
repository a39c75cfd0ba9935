import { PlanInput, PriceInput, type PriceTier } from '../../../schemas/billing/catalog';
import { minorUnitExponent } from '../../../values/currency';
import { Decimal } from '../../../values/decimal';
import { syncedFrom, type RecordMapping, type Skipped } from './provider-reader';

/**
 * Chargebee's objects (Product Catalog 2.0) as the service's records: items as catalog plans, item
 * prices as catalog prices (amounts in the currency's main unit), customers as companies, and
 * subscriptions with their items (each item price) as subscriptions.
 */

interface ChargebeeItem {
  id: string;
  name?: string;
  description?: string;
  status?: 'active' | 'archived' | 'deleted';
  unit?: string;
  metadata?: Record<string, unknown>;
}

interface ChargebeeTier {
  starting_unit: number;
  ending_unit?: number | null;
  price?: number;
  price_in_decimal?: string;
}

interface ChargebeeItemPrice {
  id: string;
  name?: string;
  item_id?: string;
  status?: 'active' | 'archived' | 'deleted';
  pricing_model: 'flat_fee' | 'per_unit' | 'tiered' | 'volume' | 'stairstep' | 'package' | string;
  price?: number;
  price_in_decimal?: string;
  currency_code: string;
  period?: number;
  period_unit?: 'day' | 'week' | 'month' | 'year';
  tiers?: ChargebeeTier[];
  metadata?: Record<string, unknown>;
}

interface ChargebeeCustomer {
  id: string;
  first_name?: string;
  last_name?: string;
  company?: string;
  email?: string;
  meta_data?: Record<string, unknown>;
  deleted?: boolean;
}

interface ChargebeeSubscription {
  id: string;
  customer_id: string;
  status: 'future' | 'in_trial' | 'active' | 'non_renewing' | 'paused' | 'cancelled' | string;
  current_term_start?: number;
  current_term_end?: number;
  created_at?: number;
  subscription_items?: { item_price_id: string; item_type?: string; quantity?: number }[];
  meta_data?: Record<string, unknown>;
  customer?: ChargebeeCustomer;
}

const PERIOD_UNITS = { day: 'd', week: 'w', month: 'M', year: 'y' } as const;
const STATUSES: Record<string, string> = {
  future: 'pending',
  in_trial: 'trialing',
  active: 'active',
  non_renewing: 'active',
  paused: 'paused',
  cancelled: 'cancelled',
};

const isoOf = (seconds: number | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : undefined);
const stringMap = (value: Record<string, unknown> | undefined): Record<string, string> | undefined => {
  const entries = Object.entries(value ?? {}).filter(([key]) => key !== '');
  return entries.length > 0 ? Object.fromEntries(entries.map(([key, v]) => [key, typeof v === 'string' ? v : JSON.stringify(v)])) : undefined;
};

/** An amount as Chargebee gives it: `*_in_decimal` in the main unit (multi-decimal sites), else whole minor units. */
export function chargebeeAmount(minorUnits: number | undefined, inDecimal: string | undefined, currency: string): string | undefined {
  if (inDecimal !== undefined && inDecimal !== '') return Decimal.from(inDecimal).toString();
  if (minorUnits === undefined) return undefined;
  const digits = minorUnitExponent(currency);
  return digits === 0
    ? String(minorUnits)
    : Decimal.from(String(minorUnits))
        .dividedBy(10 ** digits, digits, 'nearest')
        .toString();
}

export function planOfItem(item: ChargebeeItem): PlanInput {
  return PlanInput.parse({
    id: item.id,
    name: (item.name ?? '').slice(0, 200) || item.id,
    provider: 'chargebee',
    status: item.status === 'active' || item.status === undefined ? 'active' : 'inactive',
    product_id: item.id,
    ...(item.description ? { description: item.description.slice(0, 2000) } : {}),
    ...(stringMap(item.metadata) ? { metadata: stringMap(item.metadata) } : {}),
    ...(item.unit ? { unit: item.unit.slice(0, 100) } : {}),
  });
}

export function priceOfItemPrice(price: ChargebeeItemPrice): PriceInput | Skipped {
  const currency = price.currency_code.toLowerCase();
  if (!price.item_id) return { skipped: 'an item price without its item' };
  const common = {
    id: price.id,
    name: (price.name ?? '').slice(0, 200) || `${price.id} (${currency.toUpperCase()})`,
    provider: 'chargebee',
    plan_id: price.item_id,
    status: price.status === 'active' || price.status === undefined ? 'active' : 'inactive',
    currency,
    ...(price.period_unit && PERIOD_UNITS[price.period_unit] ? { period_units: PERIOD_UNITS[price.period_unit], period: price.period ?? 1 } : {}),
    ...(stringMap(price.metadata) ? { metadata: stringMap(price.metadata) } : {}),
  };
  let model: Record<string, unknown>;
  switch (price.pricing_model) {
    case 'flat_fee':
    case 'per_unit': {
      const unit = chargebeeAmount(price.price, price.price_in_decimal, currency);
      if (unit === undefined) return { skipped: 'a price without an amount' };
      model = { pricing_model: 'per_unit', price_in_decimal: unit };
      break;
    }
    case 'tiered':
    case 'volume':
    case 'stairstep': {
      if (!price.tiers || price.tiers.length === 0) return { skipped: `a ${price.pricing_model} price without its tiers` };
      // Stairstep: one flat price for the whole quantity in its step, which is a volume tier with a flat price and no unit price.
      const tiers: PriceTier[] = price.tiers.map((tier) => {
        const amount = chargebeeAmount(tier.price, tier.price_in_decimal, currency) ?? '0';
        const upTo = tier.ending_unit ?? 'inf';
        return price.pricing_model === 'stairstep'
          ? { up_to: upTo, unit_price_in_decimal: '0', flat_price_in_decimal: amount }
          : { up_to: upTo, unit_price_in_decimal: amount };
      });
      model = { pricing_model: price.pricing_model === 'tiered' ? 'graduated' : 'volume', tiers };
      break;
    }
    default:
      return { skipped: `the ${price.pricing_model} pricing model is not one the catalog holds (per unit, flat fee, tiered, volume, stairstep)` };
  }
  const parsed = PriceInput.safeParse({ ...common, ...model });
  return parsed.success ? parsed.data : { skipped: parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ') };
}

/** The company a customer is: the team's own id when its meta_data carries it (`company_id`), else the customer id. */
export function companyIdOfChargebeeCustomer(customer: ChargebeeCustomer): string {
  const own = customer.meta_data?.['company_id'];
  return typeof own === 'string' && own !== '' ? own : customer.id;
}

export function companyOfChargebeeCustomer(customer: ChargebeeCustomer, at: Date): Record<string, unknown> | Skipped {
  if (customer.deleted) return { skipped: 'the customer is deleted' };
  const name = customer.company || [customer.first_name, customer.last_name].filter(Boolean).join(' ');
  return {
    company_id: companyIdOfChargebeeCustomer(customer),
    metadata: {
      ...stringMap(customer.meta_data),
      chargebee_customer_id: customer.id,
      ...(name ? { name } : {}),
      ...(customer.email ? { email: customer.email } : {}),
    },
    synced_from: syncedFrom('chargebee', 'customer', customer.id, at),
  };
}

/** A subscription listed with its customer (Chargebee lists them side by side). */
export function subscriptionOfChargebee(subscription: ChargebeeSubscription, at: Date): Record<string, unknown> | Skipped {
  const customer = subscription.customer;
  if (!customer) return { skipped: 'its customer was not listed with it' };
  return {
    subscription_id: subscription.id,
    company_id: companyIdOfChargebeeCustomer(customer),
    status: STATUSES[subscription.status] ?? 'active',
    ...(subscription.current_term_start ? { current_period_start: isoOf(subscription.current_term_start) } : {}),
    ...(subscription.current_term_end ? { current_period_end: isoOf(subscription.current_term_end) } : {}),
    // Chargebee's subscription items name their item price only (its item is the price's plan in the catalog).
    items: (subscription.subscription_items ?? []).map((item) => ({
      price_id: item.item_price_id,
      ...(subscription.created_at ? { created_at: isoOf(subscription.created_at) } : {}),
    })),
    metadata: { ...stringMap(subscription.meta_data), chargebee_customer_id: customer.id },
    ...(subscription.created_at ? { created_at: isoOf(subscription.created_at) } : {}),
    synced_from: syncedFrom('chargebee', 'subscription', subscription.id, at),
  };
}

export const chargebeeRecords: RecordMapping = {
  provider: 'chargebee',
  objectNames: { products: 'item', prices: 'item_price', customers: 'customer', subscriptions: 'subscription' },
  idOf: (object) => (object as { id: string }).id,
  plan: (object) => planOfItem(object as ChargebeeItem),
  price: (object) => priceOfItemPrice(object as ChargebeeItemPrice),
  company: (object, at) => companyOfChargebeeCustomer(object as ChargebeeCustomer, at),
  subscription: (object, at) => subscriptionOfChargebee(object as ChargebeeSubscription, at),
};
