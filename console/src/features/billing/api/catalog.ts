import type { ApiSchema } from '../../../lib/api-types';
import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';
import { useApi } from '../../../lib/api-context';

export interface PriceTier {
  readonly up_to: number | 'inf';
  readonly unit_price_in_decimal?: string;
  readonly flat_price_in_decimal?: string;
}

export interface CatalogPrice {
  readonly id: string;
  readonly name: string;
  readonly plan_id: string;
  readonly currency: string;
  readonly pricing_model: 'per_unit' | 'package' | 'volume' | 'graduated';
  readonly price_in_decimal?: string;
  readonly transform_quantity?: { divide_by: number; round: 'up' | 'down' };
  readonly tiers?: readonly PriceTier[];
  readonly status?: string;
}

export interface CatalogPlan {
  readonly id: string;
  readonly name: string;
  readonly unit?: string;
  readonly status?: string;
  readonly prices?: readonly CatalogPrice[];
}

/** The catalog's plans with their prices (`includes=prices`). */
export function usePlans() {
  const api = useApi();
  return useQuery({
    queryKey: ['billing', 'catalog'],
    queryFn: async () => dataOf(await api.GET('/~/billing/catalog/plans', { params: { query: { includes: 'prices' } } })) as unknown as CatalogPlan[],
  });
}

export function useCreatePlan() {
  return useApiMutation(
    ['billing'],
    async (api, input: { name: string; unit?: string }) => dataOf(await api.POST('/~/billing/catalog/plans', { body: input })) as unknown as CatalogPlan,
  );
}

/** Adds a price to a plan; the API checks what each pricing model needs and names what it refuses. */
export function useCreatePrice() {
  return useApiMutation(
    ['billing'],
    async (api, input: ApiSchema<'PriceInput'>) => dataOf(await api.POST('/~/billing/catalog/prices', { body: input })) as unknown as CatalogPrice,
  );
}
