import type { SyncPhase } from '../../../schemas/billing/provider-sync';
import { basicAuth, trimTrailingSlash } from '../providers/attempts';
import { RECURLY_ACCEPT } from '../providers/recurly-client';
import type { ProviderPage, ProviderReader } from './provider-reader';
import { recurlyRecords } from './recurly-records';

/**
 * Recurly's lists (API v3), a page at a time, as the sync reads them: plans, the site's add-ons,
 * accounts and subscriptions (`GET /<list>?limit=200`, `next` naming the following page, which is
 * the sync's cursor). A 429 is waited out (its Retry-After, else a growing pause) and a 5xx or a
 * lost connection tried again, up to READ_ATTEMPTS times.
 */

export interface RecurlyAccountConfig {
  readonly apiKey: string;
  readonly baseUrl?: string;
}

export const RECURLY_PAGE = 200;
const READ_ATTEMPTS = 6;
const PAUSE_MS = 500;
const LISTS: Record<SyncPhase, string> = { products: 'plans', prices: 'add_ons', customers: 'accounts', subscriptions: 'subscriptions' };

export function recurlyReader(config: RecurlyAccountConfig, fetchFn: typeof fetch = fetch): ProviderReader {
  const base = trimTrailingSlash(config.baseUrl ?? 'https://v3.recurly.com');
  const get = async (path: string): Promise<unknown> => {
    for (let attempt = 1; ; attempt += 1) {
      let status = 0;
      let retryAfterMs: number | undefined;
      try {
        const response = await fetchFn(`${base}${path}`, { headers: { authorization: basicAuth(config.apiKey), accept: RECURLY_ACCEPT } });
        status = response.status;
        if (status === 404) return undefined;
        if (response.ok) return await response.json();
        const retryAfter = Number(response.headers.get('retry-after'));
        if (Number.isFinite(retryAfter) && retryAfter > 0) retryAfterMs = retryAfter * 1000;
        if (status !== 429 && status < 500) throw new RecurlyReadError(status, await response.text());
      } catch (error) {
        if (error instanceof RecurlyReadError) throw error;
      }
      if (attempt >= READ_ATTEMPTS) throw new RecurlyReadError(status, `gave up after ${READ_ATTEMPTS} attempts`);
      await new Promise((done) => setTimeout(done, retryAfterMs ?? PAUSE_MS * 2 ** (attempt - 1)));
    }
  };
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

export class RecurlyReadError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`Recurly answered ${status || 'nothing'}: ${detail.slice(0, 300)}`);
    this.name = 'RecurlyReadError';
  }
}
