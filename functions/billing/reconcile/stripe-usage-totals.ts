import { stripeSdk, type StripeAccountConfig } from '../providers/stripe-sdk';

/**
 * What a Stripe account holds of a meter's usage: the meter whose `event_name` the service reports
 * to, and its event summaries for one customer over a time range (whole minutes, as Stripe asks).
 */

export type UsageTotal = { readonly value: number } | { readonly unknown: string };

/** One subscription's period as reported: the meter's provider params, who it was reported for, and when. */
export interface UsageTarget {
  readonly params: Readonly<Record<string, unknown>>;
  readonly subscriptionId: string;
  /** The provider's customer the run reported to (Stripe's `cus_…`). */
  readonly customer: string;
  readonly from: Date;
  readonly to: Date;
}

/** What a provider holds of a meter's usage for one subscription and period. */
export interface ProviderUsageTotals {
  totalOf(target: UsageTarget): Promise<UsageTotal>;
}

const MINUTE = 60;

export function stripeUsageTotals(config: StripeAccountConfig): ProviderUsageTotals {
  const stripe = stripeSdk(config, { maxNetworkRetries: 4 });
  const meters = new Map<string, Promise<string | undefined>>();
  const meterOf = (eventName: string) => {
    let found = meters.get(eventName);
    if (!found) {
      found = (async () => {
        for await (const meter of stripe.billing.meters.list({ limit: 100 })) if (meter.event_name === eventName && meter.status === 'active') return meter.id;
        return undefined;
      })();
      meters.set(eventName, found);
    }
    return found;
  };
  return {
    async totalOf({ params, customer, from, to }) {
      const eventName = String(params['event_name']);
      const meter = await meterOf(eventName);
      if (!meter) return { unknown: `Stripe has no active meter with event_name ${eventName}` };
      const start_time = Math.floor(from.getTime() / 1000 / MINUTE) * MINUTE;
      const end_time = Math.ceil(to.getTime() / 1000 / MINUTE) * MINUTE;
      let value = 0;
      for await (const summary of stripe.billing.meters.listEventSummaries(meter, { customer, start_time, end_time, limit: 100 }))
        value += summary.aggregated_value;
      return { value };
    },
  };
}
