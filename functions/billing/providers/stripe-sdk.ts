import Stripe from 'stripe';

/** Where and how to reach a Stripe account: Stripe's API by default, a fake server's or stripe-mock's `http://127.0.0.1:port` in tests. */
export interface StripeAccountConfig {
  readonly apiKey: string;
  readonly baseUrl?: string;
  readonly apiVersion?: string;
}

/** Stripe's SDK for one account, without its telemetry; the caller says how often it retries (usage reports: never, reads: a few times). */
export function stripeSdk(config: StripeAccountConfig, options: { readonly maxNetworkRetries: number; readonly timeoutMs?: number }): Stripe {
  const base = new URL(config.baseUrl ?? 'https://api.stripe.com');
  return new Stripe(config.apiKey, {
    host: base.hostname,
    port: base.port || (base.protocol === 'http:' ? 80 : 443),
    protocol: base.protocol === 'http:' ? 'http' : 'https',
    maxNetworkRetries: options.maxNetworkRetries,
    telemetry: false,
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    ...(config.apiVersion ? { apiVersion: config.apiVersion as Stripe.LatestApiVersion } : {}),
  });
}
