import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import { keysetPage, LIST_PAGE_SIZE, useKeysetPages } from '../../../lib/keyset-pages';

export interface SubscriptionBalance {
  readonly subscription_id: string;
  readonly company_id?: string;
  readonly sequence_id: number;
  readonly current_balance: number;
  readonly pending_activity: number;
  readonly available_balance: number;
}

export interface LedgerEntry {
  readonly _id?: string;
  readonly transaction_id?: string;
  readonly type: string;
  readonly amount: number | string;
  readonly description?: string;
  readonly created_at?: string;
  readonly active_at?: string;
  readonly expire_at?: string;
  readonly [field: string]: unknown;
}

/** The credit balances of a company's subscriptions. */
export function useCompanyBalances(companyId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['billing', 'balances', companyId],
    queryFn: async () => dataOf(await api.GET('/~/billing/reports/balances', { params: { query: { company_id: companyId } as never } })) as unknown as SubscriptionBalance[],
  });
}

/** A subscription's ledger, newest first, a page at a time. */
export function useLedger(subscriptionId: string) {
  const api = useApi();
  return useKeysetPages<LedgerEntry>(['billing', 'ledger', subscriptionId], async (beforeId) =>
    keysetPage(await api.GET('/~/billing/reports/balance_transactions', {
      params: { query: { subscription_id: subscriptionId, take: String(LIST_PAGE_SIZE), ...(beforeId ? { before_id: beforeId } : {}) } as never },
    })));
}

export interface MetricsBucket {
  readonly start: string;
  readonly metric: number | null;
  readonly amounts: Record<string, number>;
}

/** Usage and amounts of the billing reports over time (GET /~/billing/reports/metrics). */
export function useBillingMetrics(options: { from: string; interval: string; meterId?: string }) {
  const api = useApi();
  return useQuery({
    queryKey: ['billing', 'metrics', options],
    queryFn: async () => dataOf(await api.GET('/~/billing/reports/metrics', {
      params: { query: { from: options.from, to: 'now', interval: options.interval, aggregator: 'sum', ...(options.meterId ? { billing_meter_id: options.meterId } : {}) } as never },
    })) as unknown as { buckets: MetricsBucket[] },
  });
}
