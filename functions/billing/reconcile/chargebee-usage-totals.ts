import { basicAuth, trimTrailingSlash } from '../providers/attempts';
import { readWithRetries } from '../providers/provider-reads';
import type { ProviderUsageTotals } from './stripe-usage-totals';

/**
 * What a Chargebee site holds of a meter's usage: the usages of the subscription's item price with
 * a usage date in the period (`GET /api/v2/usages`, filtered, a page of 100 at a time). The run keeps
 * one usage per window, a correction replacing its quantity, so their sum is the period's total.
 */
export function chargebeeUsageTotals(config: { readonly apiKey: string; readonly baseUrl: string }, fetchFn: typeof fetch = fetch): ProviderUsageTotals {
  const base = `${trimTrailingSlash(config.baseUrl)}/api/v2/usages`;
  return {
    async totalOf({ params, subscriptionId, from, to }) {
      const itemPriceId = String(params['item_price_id'] ?? '');
      if (!itemPriceId) return { unknown: 'the meter names no item_price_id' };
      let value = 0;
      let offset: string | undefined;
      do {
        const query = new URLSearchParams({
          limit: '100',
          'subscription_id[is]': subscriptionId,
          'item_price_id[is]': itemPriceId,
          'usage_date[between]': JSON.stringify([Math.floor(from.getTime() / 1000), Math.ceil(to.getTime() / 1000)]),
          ...(offset ? { offset } : {}),
        });
        const page = (await readWithRetries('Chargebee', () =>
          fetchFn(`${base}?${query.toString()}`, { headers: { authorization: basicAuth(config.apiKey), accept: 'application/json' } }),
        )) as { list?: { usage?: { quantity?: string | number } }[]; next_offset?: string } | undefined;
        if (!page) return { unknown: `Chargebee has no subscription ${subscriptionId}` };
        for (const entry of page.list ?? []) value += Number(entry.usage?.quantity ?? 0);
        offset = page.next_offset;
      } while (offset);
      return { value };
    },
  };
}
