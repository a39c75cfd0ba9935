import type { ApiSchema } from '../../../lib/api-types';
import type { CatalogPrice } from '../../../lib/catalog';
import { dataOf } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';

export type { CatalogPlan, CatalogPrice } from '../../../lib/catalog';
export type PriceTier = NonNullable<CatalogPrice['tiers']>[number];

export { useCatalogPlans as usePlans } from '../../../lib/catalog';

export function useCreatePlan() {
  return useApiMutation(['billing'], async (api, input: ApiSchema<'PlanInput'>) => dataOf(await api.POST('/~/billing/catalog/plans', { body: input })));
}

/** Adds a price to a plan; the API checks what each pricing model needs and names what it refuses. */
export function useCreatePrice() {
  return useApiMutation(['billing'], async (api, input: ApiSchema<'PriceInput'>) => dataOf(await api.POST('/~/billing/catalog/prices', { body: input })));
}
