import { useQuery } from '@tanstack/react-query';
import { dataOf } from './api-client';
import { useApi } from './api-context';
import type { ApiSchema } from './api-types';

export type CatalogPrice = ApiSchema<'CatalogPrice'>;
export type CatalogPlan = ApiSchema<'CatalogPlan'>;

/**
 * The catalog's plans with their prices (`includes=prices`), for the billing pages and for the
 * pickers of other features (a subscription's items, a rule's plans): people pick, not type ids.
 */
export function useCatalogPlans() {
  const api = useApi();
  return useQuery({
    queryKey: ['billing', 'catalog'],
    queryFn: async () => dataOf(await api.GET('/~/billing/catalog/plans', { params: { query: { includes: 'prices' } } })),
  });
}

/** The catalog's plan names by id, for pages that name plans (a rule's plans, who it hits): people read names. */
export function usePlanNames(): ReadonlyMap<string, string> {
  const plans = useCatalogPlans();
  return new Map((plans.data ?? []).map((plan) => [plan.id, plan.name]));
}
