import type { SyncPhase } from '../../../schemas/billing/provider-sync';
import { basicAuth, trimTrailingSlash } from '../providers/attempts';
import type { ProviderPage, ProviderReader } from './provider-reader';
import { readWithRetries } from '../providers/provider-reads';
import { chargebeeRecords } from './chargebee-records';

/**
 * Chargebee's lists (Product Catalog 2.0), a page at a time, as the sync reads them: items, item
 * prices, customers, and subscriptions with their customer (`GET /api/v2/<list>?limit=100&offset=`,
 * each entry wrapped in its object's name, `next_offset` where the next page starts). A read is
 * safe to repeat: a 429 is waited out (its Retry-After, else a growing pause) and a 5xx or a lost
 * connection tried again (providers/provider-reads.ts).
 */

export interface ChargebeeAccountConfig {
  readonly apiKey: string;
  /** `https://<site>.chargebee.com` or a fake server's URL. */
  readonly baseUrl: string;
}

export const CHARGEBEE_PAGE = 100;

const LISTS: Record<SyncPhase, { path: string; entry: string }> = {
  products: { path: 'items', entry: 'item' },
  prices: { path: 'item_prices', entry: 'item_price' },
  customers: { path: 'customers', entry: 'customer' },
  subscriptions: { path: 'subscriptions', entry: 'subscription' },
};

/** A list entry: the object under its name, and (subscriptions) its customer beside it. */
type Entry = Record<string, Record<string, unknown> | undefined>;

export function chargebeeReader(config: ChargebeeAccountConfig, fetchFn: typeof fetch = fetch): ProviderReader {
  const base = `${trimTrailingSlash(config.baseUrl)}/api/v2`;
  const get = (path: string) =>
    readWithRetries('Chargebee', () => fetchFn(`${base}/${path}`, { headers: { authorization: basicAuth(config.apiKey), accept: 'application/json' } }));
  // Subscriptions carry their customer (the company id may live in its meta_data).
  const withCustomer = (entry: Entry, name: string) => (name === 'subscription' ? { ...entry[name], customer: entry['customer'] } : entry[name]);
  return {
    provider: 'chargebee',
    async page(phase, offset): Promise<ProviderPage> {
      const { path, entry } = LISTS[phase];
      const query = new URLSearchParams({ limit: String(CHARGEBEE_PAGE), ...(offset ? { offset } : {}) });
      const answer = ((await get(`${path}?${query.toString()}`)) ?? { list: [] }) as { list?: Entry[]; next_offset?: string };
      return { objects: (answer.list ?? []).map((e) => withCustomer(e, entry)).filter((o) => o !== undefined), next: answer.next_offset ?? null };
    },
    async one(phase, id) {
      const { path, entry } = LISTS[phase];
      const answer = (await get(`${path}/${encodeURIComponent(id)}`)) as Entry | undefined;
      return answer ? withCustomer(answer, entry) : undefined;
    },
    records: chargebeeRecords,
  };
}
