import { stripeSdk, type StripeAccountConfig } from '../providers/stripe-sdk';
import type { SyncPhase } from '../../../schemas/billing/provider-sync';
import type { ProviderPage, ProviderReader } from './provider-reader';
import { stripeRecords } from './stripe-records';

/**
 * Stripe's lists, a page at a time (newest first, `starting_after` the last id read), as the sync
 * reads them: prices with their tiers, subscriptions of every status with their customer. A list is
 * a safe read, and so is one object's (what a webhook's event names): the SDK retries 5xx and what Stripe marks retryable, and a rate limit (429, which
 * the SDK leaves to its caller) is waited out here, with a growing pause.
 */

export const STRIPE_PAGE = 100;
const RATE_LIMIT_ATTEMPTS = 6;
const RATE_LIMIT_PAUSE_MS = 500;

/** What the sync reads of a Stripe account: its lists a page at a time (the next after the last id read), and one object as it is now (undefined: gone). */
export function stripeReader(config: StripeAccountConfig): ProviderReader {
  const stripe = stripeSdk(config, { maxNetworkRetries: 4 });
  const read = async (phase: SyncPhase, after: string | null): Promise<ProviderPage> => {
    const page = { limit: STRIPE_PAGE, ...(after ? { starting_after: after } : {}) };
    const list =
      phase === 'products'
        ? await stripe.products.list(page)
        : phase === 'prices'
          ? await stripe.prices.list({ ...page, expand: ['data.tiers'] })
          : phase === 'customers'
            ? await stripe.customers.list(page)
            : await stripe.subscriptions.list({ ...page, status: 'all', expand: ['data.customer'] });
    const last = list.data.at(-1);
    return { objects: list.data, next: list.has_more && last ? last.id : null };
  };
  const retrieve = async (phase: SyncPhase, id: string): Promise<unknown> => {
    try {
      return phase === 'products'
        ? await stripe.products.retrieve(id)
        : phase === 'prices'
          ? await stripe.prices.retrieve(id, { expand: ['tiers'] })
          : phase === 'customers'
            ? await stripe.customers.retrieve(id)
            : await stripe.subscriptions.retrieve(id, { expand: ['customer'] });
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return undefined;
      throw error;
    }
  };
  return {
    provider: 'stripe',
    page: (phase, after) => waitingOutRateLimits(() => read(phase, after)),
    one: (phase, id) => waitingOutRateLimits(() => retrieve(phase, id)),
    records: stripeRecords,
  };
}

async function waitingOutRateLimits<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode !== 429 || attempt >= RATE_LIMIT_ATTEMPTS) throw error;
      await new Promise((done) => setTimeout(done, RATE_LIMIT_PAUSE_MS * 2 ** (attempt - 1)));
    }
  }
}
