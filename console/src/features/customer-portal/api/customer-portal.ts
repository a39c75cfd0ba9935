import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import { ApiError } from '../../../lib/api-error';
import type { components } from '../../../lib/api-schema';

export type CustomerUsage = components['schemas']['CustomerUsage'];
export type SpendCapStanding = components['schemas']['SpendCapStanding'];
export type SpendCapInput = { budget: string; currency: string; warn_at_percent?: number; hard_cap: boolean };

/** A customer's usage and bill this period (the token is the only credential). */
export function useCustomerUsage(token: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['customer', token, 'usage'],
    queryFn: async () => dataOf(await api.GET('/public/customers/{token}/usage', { params: { path: { token } } })),
    retry: false,
  });
}

/** The customer's spend cap; null while it has set none. */
export function useSpendCap(token: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['customer', token, 'spend-cap'],
    queryFn: async (): Promise<SpendCapStanding | null> => {
      try {
        return dataOf(await api.GET('/public/customers/{token}/spend_cap', { params: { path: { token } } }));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    retry: false,
  });
}

/** Sets or removes the spend cap (`null` removes it). */
export function useSaveSpendCap(token: string) {
  const api = useApi();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: async (cap: SpendCapInput | null) => {
      if (cap === null) {
        dataOf(await api.DELETE('/public/customers/{token}/spend_cap', { params: { path: { token } } }));
        return null;
      }
      return dataOf(await api.PUT('/public/customers/{token}/spend_cap', { params: { path: { token } }, body: cap }));
    },
    onSuccess: (standing) => cache.setQueryData(['customer', token, 'spend-cap'], standing),
  });
}
