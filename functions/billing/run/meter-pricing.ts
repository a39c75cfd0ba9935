import type { PriceTerms } from '../../../schemas/billing/catalog';
import { appRulesPartition } from '../../resources/keys';
import type { ResourceStore } from '../../resources/resource-store';
import { PRICE_PREFIX } from '../catalog/catalog-operations';
import type { ReportTenant } from '../reports/report-store';
import { matchingItem, type KnownSubscription } from './subscription-directory';

/**
 * The catalog prices a meter's amounts are computed with: only webhook / custom plans have them here
 * (`webhook_params.custom_plan.plan_id` → that catalog plan's active prices). A subscription whose
 * item names one of the plan's prices (price_id) gets that price; otherwise the plan's oldest
 * active price. Provider-native plans (Stripe, Chargebee …) price usage themselves: no amount.
 */

export type CatalogPrice = PriceTerms & { readonly id: string };

export interface MeterPricing {
  priceFor(subscription: KnownSubscription | undefined): CatalogPrice | undefined;
}

const MAX_PRICES = 1000;

/** One price of the catalog by id, whatever its status (a draft can be tried); undefined when there is none. */
export async function catalogPrice(store: ResourceStore, tenant: ReportTenant, priceId: string): Promise<CatalogPrice | undefined> {
  const stored = await store.find({ partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: PRICE_PREFIX }, priceId);
  return stored && { ...(stored as unknown as PriceTerms), id: priceId };
}

export async function loadMeterPricing(store: ResourceStore, tenant: ReportTenant, planId: string | undefined): Promise<MeterPricing | undefined> {
  if (planId === undefined) return undefined;
  const page = await store.list(
    { partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: PRICE_PREFIX },
    { take: MAX_PRICES, where: { attribute: 'plan_id', value: planId } },
  );
  const prices = page.items
    .filter((item) => (item.document['status'] ?? 'active') === 'active')
    .map((item) => ({ ...(item.document as unknown as PriceTerms), id: item.id }))
    // Ids sort by creation time: the oldest active price is the plan's default.
    .sort((a, b) => a.id.localeCompare(b.id));
  if (prices.length === 0) return undefined;
  const byId = new Map(prices.map((price) => [price.id, price]));
  return {
    priceFor(subscription) {
      const item = subscription ? matchingItem(subscription, new Set(byId.keys())) : undefined;
      return (item?.price_id ? byId.get(item.price_id) : undefined) ?? prices[0];
    },
  };
}
