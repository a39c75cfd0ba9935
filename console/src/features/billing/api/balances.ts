import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';
import type { components } from '../../../lib/api-schema';
import { useApi } from '../../../lib/api-context';
import { keysetPage, LIST_PAGE_SIZE, useKeysetPages } from '../../../lib/keyset-pages';

export type SubscriptionBalance = components['schemas']['SubscriptionBalance'];
/** One line of a subscription's ledger: a transaction, its activation or expiry, or a usage draw. */
export type LedgerEntry = components['schemas']['BalanceEntry'];
export type BillingMetrics = components['schemas']['BillingMetrics'];

/** The credit balances of a company's subscriptions. */
export function useCompanyBalances(companyId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['billing', 'balances', companyId],
    queryFn: async () => dataOf(await api.GET('/~/billing/reports/balances', { params: { query: { company_id: companyId } } })),
  });
}

/** A subscription's ledger, newest first, a page at a time. */
export function useLedger(subscriptionId: string) {
  const api = useApi();
  return useKeysetPages<LedgerEntry>(['billing', 'ledger', subscriptionId], async (beforeId) =>
    keysetPage(
      await api.GET('/~/billing/reports/balance_transactions', {
        params: { query: { subscription_id: subscriptionId, take: LIST_PAGE_SIZE, ...(beforeId ? { before_id: beforeId } : {}) } },
      }),
    ),
  );
}

/** Usage and amounts of the billing reports over time (GET /~/billing/reports/metrics). */
export function useBillingMetrics(options: { from: string; interval: string; meterId?: string }) {
  const api = useApi();
  return useQuery({
    queryKey: ['billing', 'metrics', options],
    queryFn: async () =>
      dataOf(
        await api.GET('/~/billing/reports/metrics', {
          params: {
            query: {
              from: options.from,
              to: 'now',
              interval: options.interval,
              aggregator: 'sum',
              ...(options.meterId ? { billing_meter_id: options.meterId } : {}),
            },
          },
        }),
      ),
  });
}

export type BalanceTransactionInput = components['schemas']['BalanceTransactionCreate'];

/** Records a credit, debit, promotion or adjustment; its transaction_id makes a repeat harmless. */
export function useRecordTransaction() {
  return useApiMutation(['billing'], async (api, input: BalanceTransactionInput) => {
    dataOf(await api.POST('/~/billing/reports/balance_transactions', { body: input }));
  });
}
