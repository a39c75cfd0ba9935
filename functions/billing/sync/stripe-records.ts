import type Stripe from 'stripe';
import { PlanInput, PriceInput, type PriceTier } from '../../../schemas/billing/catalog';
import type { SyncedFrom } from '../../../schemas/billing/provider-sync';
import { Decimal } from '../../../values/decimal';
import { syncedFrom, type RecordMapping, type Skipped } from './provider-reader';

/**
 * Stripe's objects as the service's records: products as catalog plans, prices as catalog prices
 * (amounts in the currency's main unit, as the catalog keeps them), customers as companies and
 * subscriptions as subscriptions. Every record names where it came from (`synced_from`).
 */

export type { Skipped };

/** Currencies Stripe counts in whole units, and in thousandths (stripe.com/docs/currencies). */
const ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);
const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

/** An amount in Stripe's smallest unit of `currency` (decimal text) in the currency's main unit, exactly. */
export function mainUnitAmount(minorUnits: string, currency: string): string {
  const digits = ZERO_DECIMAL.has(currency) ? 0 : THREE_DECIMAL.has(currency) ? 3 : 2;
  const value = Decimal.from(minorUnits);
  // Stripe keeps at most 12 decimal places: dividing by 10^digits at 12 + digits places is exact.
  return digits === 0 ? value.toString() : value.dividedBy(10 ** digits, 12 + digits, 'nearest').toString();
}

const stripeOrigin = (object: string, id: string, at: Date): SyncedFrom => syncedFrom('stripe', object, id, at);

/** Stripe's metadata values are strings already; the catalog keeps string maps. */
const metadataOf = (metadata: Stripe.Metadata | null | undefined): Record<string, string> | undefined =>
  metadata && Object.keys(metadata).length > 0 ? { ...metadata } : undefined;

export function planOfProduct(product: Stripe.Product): PlanInput {
  return PlanInput.parse({
    id: product.id,
    // The catalog keeps 200 characters of a name; a product without one is named by its id.
    name: product.name.slice(0, 200) || product.id,
    provider: 'stripe',
    status: product.active ? 'active' : 'inactive',
    product_id: product.id,
    ...(product.description ? { description: product.description.slice(0, 2000) } : {}),
    ...(metadataOf(product.metadata) ? { metadata: metadataOf(product.metadata) } : {}),
    ...(product.unit_label ? { unit: product.unit_label.slice(0, 100) } : {}),
  });
}

const PERIOD_UNITS: Record<Stripe.Price.Recurring.Interval, 'd' | 'w' | 'M' | 'y'> = { day: 'd', week: 'w', month: 'M', year: 'y' };
const AGGREGATORS: Record<string, 'sum' | 'last' | 'max'> = { sum: 'sum', last_during_period: 'last', last_ever: 'last', max: 'max' };

const productIdOf = (product: string | Stripe.Product | Stripe.DeletedProduct): string => (typeof product === 'string' ? product : product.id);

export function priceOfStripe(price: Stripe.Price): PriceInput | Skipped {
  const currency = price.currency.toLowerCase();
  const amountOf = (decimal: unknown, whole: number | null | undefined) =>
    decimal !== null && decimal !== undefined
      ? mainUnitAmount(String(decimal), currency)
      : whole !== null && whole !== undefined
        ? mainUnitAmount(String(whole), currency)
        : undefined;
  const recurring = price.recurring;
  const aggregate = (recurring as { aggregate_usage?: string | null } | null)?.aggregate_usage;
  const common = {
    id: price.id,
    name: (price.nickname ?? `${price.id} (${currency.toUpperCase()})`).slice(0, 200),
    provider: 'stripe',
    plan_id: productIdOf(price.product),
    status: price.active ? 'active' : 'inactive',
    currency,
    ...(price.tax_behavior ? { tax_behavior: price.tax_behavior } : {}),
    ...(recurring ? { period_units: PERIOD_UNITS[recurring.interval], period: recurring.interval_count } : {}),
    ...(aggregate && AGGREGATORS[aggregate] ? { usage_aggregator: AGGREGATORS[aggregate] } : {}),
    ...(metadataOf(price.metadata) ? { metadata: metadataOf(price.metadata) } : {}),
  };
  let model: Record<string, unknown>;
  if (price.billing_scheme === 'tiered') {
    if (!price.tiers || price.tiers.length === 0) return { skipped: 'a tiered price listed without its tiers (list prices with expand[]=data.tiers)' };
    const tiers: PriceTier[] = price.tiers.map((tier) => {
      const unit = amountOf(tier.unit_amount_decimal, tier.unit_amount);
      const flat = amountOf(tier.flat_amount_decimal, tier.flat_amount);
      return {
        up_to: tier.up_to ?? 'inf',
        ...(unit !== undefined ? { unit_price_in_decimal: unit } : {}),
        ...(flat !== undefined ? { flat_price_in_decimal: flat } : {}),
      };
    });
    model = { pricing_model: price.tiers_mode === 'volume' ? 'volume' : 'graduated', tiers };
  } else {
    const unit = amountOf(price.unit_amount_decimal, price.unit_amount);
    if (unit === undefined) return { skipped: 'a price without an amount (customer chooses what to pay)' };
    model = price.transform_quantity
      ? {
          pricing_model: 'package',
          price_in_decimal: unit,
          transform_quantity: { divide_by: price.transform_quantity.divide_by, round: price.transform_quantity.round },
        }
      : { pricing_model: 'per_unit', price_in_decimal: unit };
  }
  const parsed = PriceInput.safeParse({ ...common, ...model });
  return parsed.success ? parsed.data : { skipped: parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ') };
}

/** The company a customer is: the team's own id when the customer carries it (`metadata.company_id`), else the customer id. */
export function companyIdOfCustomer(customer: Stripe.Customer): string {
  return customer.metadata?.['company_id'] || customer.id;
}

export function companyOfCustomer(customer: Stripe.Customer, at: Date): Record<string, unknown> {
  return {
    company_id: companyIdOfCustomer(customer),
    metadata: {
      ...customer.metadata,
      stripe_customer_id: customer.id,
      ...(customer.name ? { name: customer.name } : {}),
      ...(customer.email ? { email: customer.email } : {}),
    },
    synced_from: stripeOrigin('customer', customer.id, at),
  };
}

const STATUSES: Record<Stripe.Subscription.Status, string> = {
  active: 'active',
  past_due: 'active',
  unpaid: 'active',
  trialing: 'trialing',
  paused: 'paused',
  canceled: 'cancelled',
  incomplete: 'pending',
  incomplete_expired: 'cancelled',
};

const isoOf = (seconds: number | null | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : undefined);

/** A subscription whose customer is expanded (the company id may live in its metadata). */
export function subscriptionOfStripe(subscription: Stripe.Subscription, at: Date): Record<string, unknown> | Skipped {
  const customer = subscription.customer;
  if (typeof customer === 'string' || customer.deleted)
    return { skipped: 'its customer was not read with it (list with expand[]=data.customer), or is deleted' };
  const items = subscription.items.data;
  // Stripe keeps the period on each item (API 2025-03-31 on); they agree unless items bill on different cycles.
  const legacy = subscription as unknown as { current_period_start?: number; current_period_end?: number };
  const periodStart = legacy.current_period_start ?? Math.max(...items.map((item) => item.current_period_start));
  const periodEnd = legacy.current_period_end ?? Math.min(...items.map((item) => item.current_period_end));
  return {
    subscription_id: subscription.id,
    company_id: companyIdOfCustomer(customer),
    status: STATUSES[subscription.status] ?? 'active',
    ...(Number.isFinite(periodStart) ? { current_period_start: isoOf(periodStart) } : {}),
    ...(Number.isFinite(periodEnd) ? { current_period_end: isoOf(periodEnd) } : {}),
    items: items.map((item) => ({
      subscription_item_id: item.id,
      price_id: item.price.id,
      plan_id: productIdOf(item.price.product),
      created_at: isoOf(item.created),
    })),
    metadata: { ...subscription.metadata, stripe_customer_id: customer.id },
    created_at: isoOf(subscription.created),
    synced_from: stripeOrigin('subscription', subscription.id, at),
  };
}

/** Stripe's objects as the sync maps them (provider-reader.ts). */
export const stripeRecords: RecordMapping = {
  provider: 'stripe',
  objectNames: { products: 'product', prices: 'price', customers: 'customer', subscriptions: 'subscription' },
  idOf: (object) => (object as { id: string }).id,
  plan: (object) => planOfProduct(object as Stripe.Product),
  price: (object) => priceOfStripe(object as Stripe.Price),
  company: (object, at) => companyOfCustomer(object as Stripe.Customer, at),
  subscription: (object, at) => subscriptionOfStripe(object as Stripe.Subscription, at),
};
