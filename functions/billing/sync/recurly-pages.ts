import type { SyncPhase } from '../../../schemas/billing/provider-sync';
import { basicAuth, trimTrailingSlash } from '../providers/attempts';
import { RECURLY_ACCEPT } from '../providers/recurly-client';
import type { ProviderPage, ProviderReader } from './provider-reader';
import { readWithRetries } from '../providers/provider-reads';
import { recurlyRecords } from './recurly-records';

/**
 * Recurly's lists (API v3), a page at a time, as the sync reads them: plans, the site's add-ons,
 * accounts and subscriptions (`GET /<list>?limit=200`, `next` naming the following page, which is
 * the sync's cursor). A 429 is waited out (its Retry-After, else a growing pause) and a 5xx or a
 * lost connection tried again (providers/provider-reads.ts).
 */

export interface RecurlyAccountConfig {
  readonly apiKey: string;
  readonly baseUrl?: string;
}

export const RECURLY_PAGE = 200;
const LISTS: Record<SyncPhase, string> = { products: 'plans', prices: 'add_ons', customers: 'accounts', subscriptions: 'subscriptions' };

export function recurlyReader(config: RecurlyAccountConfig, fetchFn: typeof fetch = fetch): ProviderReader {
  const base = trimTrailingSlash(config.baseUrl ?? 'https://v3.recurly.com');
  const get = (path: string) =>
    readWithRetries('Recurly', () => fetchFn(`${base}${path}`, { headers: { authorization: basicAuth(config.apiKey), accept: RECURLY_ACCEPT } }));
  return {
    provider: 'recurly',
    async page(phase, next): Promise<ProviderPage> {
      const answer = ((await get(next ?? `/${LISTS[phase]}?limit=${RECURLY_PAGE}`)) ?? {}) as { data?: unknown[]; has_more?: boolean; next?: string | null };
      return { objects: answer.data ?? [], next: answer.has_more && answer.next ? answer.next : null };
    },
    one: (phase, id) => get(`/${LISTS[phase]}/${encodeURIComponent(id)}`),
    records: recurlyRecords,
  };
}
