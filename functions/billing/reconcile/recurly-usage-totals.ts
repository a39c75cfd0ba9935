import { basicAuth, trimTrailingSlash } from '../providers/attempts';
import { readWithRetries } from '../providers/provider-reads';
import { RECURLY_ACCEPT } from '../providers/recurly-client';
import type { ProviderUsageTotals } from './stripe-usage-totals';

/**
 * What a Recurly site holds of a meter's usage: the usage records of the subscription's add-on
 * with a usage timestamp in the period (the list the client already reads for its own duplicates,
 * 200 a page). Recurly adds them up, corrections (negative amounts) included.
 */
export function recurlyUsageTotals(config: { readonly apiKey: string; readonly baseUrl?: string }, fetchFn: typeof fetch = fetch): ProviderUsageTotals {
  const base = trimTrailingSlash(config.baseUrl ?? 'https://v3.recurly.com');
  return {
    async totalOf({ params, subscriptionId, from, to }) {
      const addOnId = String(params['add_on_id'] ?? '');
      if (!addOnId) return { unknown: 'the meter names no add_on_id' };
      const query = new URLSearchParams({ begin_time: from.toISOString(), end_time: to.toISOString(), sort: 'usage_timestamp', limit: '200' });
      let next: string | null = `/subscriptions/${encodeURIComponent(subscriptionId)}/add_ons/${encodeURIComponent(addOnId)}/usage?${query.toString()}`;
      let value = 0;
      while (next) {
        const path: string = next;
        const page = (await readWithRetries('Recurly', () =>
          fetchFn(`${base}${path}`, { headers: { authorization: basicAuth(config.apiKey), accept: RECURLY_ACCEPT } }),
        )) as { data?: { amount?: number }[]; has_more?: boolean; next?: string | null } | undefined;
        if (!page) return { unknown: `Recurly has no subscription ${subscriptionId} with add-on ${addOnId}` };
        for (const usage of page.data ?? []) value += Number(usage.amount ?? 0);
        next = page.has_more && page.next ? page.next : null;
      }
      return { value };
    },
  };
}
