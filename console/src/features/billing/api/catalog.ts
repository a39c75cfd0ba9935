import type { ApiSchema } from '../../../lib/api-types';
import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';
import { useApi } from '../../../lib/api-context';

export type CatalogPrice = ApiSchema<'CatalogPrice'>;
export type CatalogPlan = ApiSchema<'CatalogPlan'>;
export type PriceTier = NonNullable<CatalogPrice['tiers']>[number];

/** The catalog's plans with their prices (`includes=prices`). */
export function usePlans() {
  const api = useApi();
  return useQuery({
    queryKey: ['billing', 'catalog'],
    queryFn: async () => dataOf(await api.GET('/~/billing/catalog/plans', { params: { query: { includes: 'prices' } } })),
  });
}

export function useCreatePlan() {
  return useApiMutation(['billing'], async (api, input: { name: string; unit?: string }) =>
    dataOf(await api.POST('/~/billing/catalog/plans', { body: input })),
  );
}

/** Adds a price to a plan; the API checks what each pricing model needs and names what it refuses. */
export function useCreatePrice() {
  return useApiMutation(['billing'], async (api, input: ApiSchema<'PriceInput'>) => dataOf(await api.POST('/~/billing/catalog/prices', { body: input })));
}
