import { stripeSdk, type StripeAccountConfig } from '../providers/stripe-sdk';

/**
 * What a Stripe account holds of a meter's usage: the meter whose `event_name` the service reports
 * to, and its event summaries for one customer over a time range (whole minutes, as Stripe asks).
 */

export type UsageTotal = { readonly value: number } | { readonly unknown: string };

export interface ProviderUsageTotals {
  totalOf(eventName: string, customer: string, from: Date, to: Date): Promise<UsageTotal>;
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
    async totalOf(eventName, customer, from, to) {
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
