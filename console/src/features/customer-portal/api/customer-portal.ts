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

export type CustomerStatement = components['schemas']['CustomerStatement'];
export type StatementVerification = components['schemas']['StatementVerification'];
export interface StatementRef {
  readonly subscriptionId: string;
  readonly periodStart: string;
}

/** A closed period's signed statement: the current version, or an earlier one as issued. */
export function useStatement(token: string, ref: StatementRef, version?: number) {
  const api = useApi();
  return useQuery({
    queryKey: ['customer', token, 'statement', ref.subscriptionId, ref.periodStart, version ?? 'current'],
    queryFn: async () =>
      dataOf(
        await api.GET('/public/customers/{token}/statement', {
          params: {
            path: { token },
            query: { subscription_id: ref.subscriptionId, period_start: ref.periodStart, ...(version === undefined ? {} : { version }) },
          },
        }),
      ),
    retry: false,
  });
}

/** Every page of a meter's event list, joined: the file whose SHA-256 the statement signs. */
export function useStatementEvents(token: string, ref: StatementRef) {
  const api = useApi();
  return async (billingMeterId: string): Promise<string> => {
    let lines = '';
    let after: string | undefined;
    do {
      const page = dataOf(
        await api.GET('/public/customers/{token}/statement/events', {
          params: {
            path: { token },
            query: {
              subscription_id: ref.subscriptionId,
              period_start: ref.periodStart,
              billing_meter_id: billingMeterId,
              ...(after === undefined ? {} : { after }),
            },
          },
        }),
      );
      lines += page.lines;
      after = page.next;
    } while (after !== undefined);
    return lines;
  };
}

/** Checks a statement with the service: its signature, whether it is still current, and the digests of downloaded lists. */
export type StatementToCheck = components['schemas']['StatementVerificationInput']['statement'];

export function useVerifyStatement() {
  const api = useApi();
  return useMutation({
    mutationFn: async (input: { statement: StatementToCheck; eventDigests: Record<string, string> }) =>
      dataOf(await api.POST('/public/statement-verifications', { body: { statement: input.statement, event_digests: input.eventDigests } })),
  });
}
