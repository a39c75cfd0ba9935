import type { SyncPhase } from '../../../schemas/billing/provider-sync';
import { zuoraReads, type ZuoraAccountConfig } from '../providers/zuora-token';
import type { ProviderPage, ProviderReader } from './provider-reader';
import { readWithRetries } from '../providers/provider-reads';
import { zuoraRecords } from './zuora-records';

/**
 * Zuora's catalog and customers through the Object Query API, a page at a time: product rate plans,
 * their charges with tiers, accounts, and subscriptions with their account and rate plan charges
 * (`GET /object-query/<list>?pageSize=99`, `nextPage` as the cursor). A 429 is waited out and a
 * 5xx or a lost connection tried again (providers/provider-reads.ts).
 */

export const ZUORA_PAGE = 99;
const LISTS: Record<SyncPhase, { path: string; expand: readonly string[] }> = {
  products: { path: 'product-rate-plans', expand: [] },
  prices: { path: 'product-rate-plan-charges', expand: ['productrateplanchargetiers'] },
  customers: { path: 'accounts', expand: [] },
  subscriptions: { path: 'subscriptions', expand: ['account', 'rateplans', 'rateplans.rateplancharges'] },
};

export function zuoraReader(config: ZuoraAccountConfig, fetchFn: typeof fetch = fetch): ProviderReader {
  const read = zuoraReads(config, fetchFn);
  const get = (path: string) => readWithRetries('Zuora', () => read(path));
  const expanded = (phase: SyncPhase) => LISTS[phase].expand.map((name) => `expand[]=${encodeURIComponent(name)}`);
  return {
    provider: 'zuora',
    async page(phase, cursor): Promise<ProviderPage> {
      const query = [`pageSize=${ZUORA_PAGE}`, ...expanded(phase), ...(cursor ? [`cursor=${encodeURIComponent(cursor)}`] : [])].join('&');
      const answer = ((await get(`/object-query/${LISTS[phase].path}?${query}`)) ?? {}) as { data?: unknown[]; nextPage?: string | null };
      return { objects: answer.data ?? [], next: answer.nextPage ?? null };
    },
    one: (phase, id) => get(`/object-query/${LISTS[phase].path}/${encodeURIComponent(id)}${expanded(phase).length > 0 ? `?${expanded(phase).join('&')}` : ''}`),
    records: zuoraRecords,
  };
}
