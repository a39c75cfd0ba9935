import type { ApiSchema } from '../../../lib/api-types';
import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import type { components } from '../../../lib/api-schema';
import { useApi } from '../../../lib/api-context';
import { keysetPage, LIST_PAGE_SIZE, useKeysetPages } from '../../../lib/keyset-pages';

/** A billing report: one meter × subscription × window, with what was sent where. */
export type BillingReport = components['schemas']['BillingReport'];

export interface ReportFilters {
  readonly from: string;
  readonly meterId?: string;
  readonly status?: string;
  readonly subscriptionId?: string;
}

/** Reports newest window first, a page at a time (the API says where the next starts: X-Next-Before-Id). */
export function useReports(filters: ReportFilters) {
  const api = useApi();
  return useKeysetPages<BillingReport>(['billing', 'reports', filters], async (beforeId) =>
    keysetPage(
      await api.GET('/~/billing/reports', {
        params: {
          query: {
            from: filters.from,
            to: 'now',
            take: LIST_PAGE_SIZE,
            ...(filters.meterId ? { billing_meter_id: filters.meterId } : {}),
            ...(filters.status ? { status: filters.status } : {}),
            ...(filters.subscriptionId ? { subscription_id: filters.subscriptionId } : {}),
            ...(beforeId ? { before_id: beforeId } : {}),
          },
        },
      }),
    ),
  );
}

export function useReport(reportId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['billing', 'report', reportId],
    queryFn: async () => dataOf(await api.GET('/~/billing/reports/{reportId}', { params: { path: { reportId } } })),
  });
}

export type ReportExplanation = ApiSchema<'ReportExplanation'>;

/** Re-runs the report's usage query (only when asked: it is a search over the window). */
export function useReportExplanation(reportId: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: ['billing', 'report', reportId, 'explain'],
    queryFn: async () => dataOf(await api.GET('/~/billing/reports/{reportId}/explain', { params: { path: { reportId } } })),
    enabled,
  });
}

export interface BillingMeter {
  readonly _id: string;
  readonly name: string;
  readonly slug?: string;
  readonly status?: string;
  readonly reporting_period?: string;
  readonly billing_plan?: { provider_slug?: string };
}

/** The meters, a page at a time. */
export function useMeterPages() {
  const api = useApi();
  return useKeysetPages<BillingMeter>(['billing', 'meters', 'pages'], async (beforeId) =>
    keysetPage(await api.GET('/~/billing/meters', { params: { query: { take: LIST_PAGE_SIZE, ...(beforeId ? { before_id: beforeId } : {}) } } })),
  );
}
