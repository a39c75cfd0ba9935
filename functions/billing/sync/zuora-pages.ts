import type { SyncPhase } from '../../../schemas/billing/provider-sync';
import { zuoraReads, type ZuoraAccountConfig } from '../providers/zuora-token';
import type { ProviderPage, ProviderReader } from './provider-reader';
import { zuoraRecords } from './zuora-records';

/**
 * Zuora's catalog and customers through the Object Query API, a page at a time: product rate plans,
 * their charges with tiers, accounts, and subscriptions with their account and rate plan charges
 * (`GET /object-query/<list>?pageSize=99`, `nextPage` as the cursor). A 429 is waited out and a
 * 5xx or a lost connection tried again, up to READ_ATTEMPTS times.
 */

export const ZUORA_PAGE = 99;
const READ_ATTEMPTS = 6;
const PAUSE_MS = 500;
const LISTS: Record<SyncPhase, { path: string; expand: readonly string[] }> = {
  products: { path: 'product-rate-plans', expand: [] },
  prices: { path: 'product-rate-plan-charges', expand: ['productrateplanchargetiers'] },
  customers: { path: 'accounts', expand: [] },
  subscriptions: { path: 'subscriptions', expand: ['account', 'rateplans', 'rateplans.rateplancharges'] },
};

export function zuoraReader(config: ZuoraAccountConfig, fetchFn: typeof fetch = fetch): ProviderReader {
  const read = zuoraReads(config, fetchFn);
  const get = async (path: string): Promise<unknown> => {
    for (let attempt = 1; ; attempt += 1) {
      let status = 0;
      let retryAfterMs: number | undefined;
      try {
        const response = await read(path);
        status = response.status;
        if (status === 404) return undefined;
        if (response.ok) return await response.json();
        const retryAfter = Number(response.headers.get('retry-after'));
        if (Number.isFinite(retryAfter) && retryAfter > 0) retryAfterMs = retryAfter * 1000;
        if (status !== 429 && status < 500) throw new ZuoraReadError(status, await response.text());
      } catch (error) {
        if (error instanceof ZuoraReadError) throw error;
      }
      if (attempt >= READ_ATTEMPTS) throw new ZuoraReadError(status, `gave up after ${READ_ATTEMPTS} attempts`);
      await new Promise((done) => setTimeout(done, retryAfterMs ?? PAUSE_MS * 2 ** (attempt - 1)));
    }
  };
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

export class ZuoraReadError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`Zuora answered ${status || 'nothing'}: ${detail.slice(0, 300)}`);
    this.name = 'ZuoraReadError';
  }
}
