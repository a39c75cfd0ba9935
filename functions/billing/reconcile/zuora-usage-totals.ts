import { readWithRetries } from '../providers/provider-reads';
import { zuoraReads, type ZuoraAccountConfig } from '../providers/zuora-token';
import type { ProviderUsageTotals } from './stripe-usage-totals';

/**
 * What a Zuora tenant holds of a meter's usage: the account's usage records (`GET
 * /v1/usage/accounts/{account}`, paged by `nextPage`) of the subscription, the meter's unit of
 * measure (and charge, when it names one), starting in the period. Zuora adds them up, corrections
 * (negative quantities) included.
 */
export function zuoraUsageTotals(config: ZuoraAccountConfig, fetchFn: typeof fetch = fetch): ProviderUsageTotals {
  const read = zuoraReads(config, fetchFn);
  return {
    async totalOf({ params, subscriptionId, customer, from, to }) {
      const uom = String(params['unit_of_measure'] ?? '');
      const charge = typeof params['charge_number'] === 'string' ? params['charge_number'] : undefined;
      const account = typeof params['account_number'] === 'string' ? params['account_number'] : customer;
      let next: string | null = `/v1/usage/accounts/${encodeURIComponent(account)}?pageSize=40`;
      let value = 0;
      while (next) {
        const path: string = next;
        const page = (await readWithRetries('Zuora', () => read(path))) as
          | {
              usage?: { subscriptionNumber?: string; chargeNumber?: string; unitOfMeasure?: string; quantity?: number; startDateTime?: string }[];
              nextPage?: string | null;
            }
          | undefined;
        if (!page) return { unknown: `Zuora has no account ${account}` };
        for (const usage of page.usage ?? []) {
          const start = Date.parse(usage.startDateTime ?? '');
          if (usage.subscriptionNumber !== subscriptionId || usage.unitOfMeasure !== uom || (charge && usage.chargeNumber !== charge)) continue;
          if (start >= from.getTime() && start < to.getTime()) value += Number(usage.quantity ?? 0);
        }
        next = page.nextPage ? new URL(page.nextPage, 'http://base').pathname + new URL(page.nextPage, 'http://base').search : null;
      }
      return { value };
    },
  };
}
