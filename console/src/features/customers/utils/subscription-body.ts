import type { SubscriptionInput, SubscriptionStatus } from '../api/subscriptions';

/** One item row of the subscription form: a catalog plan and, optionally, one of its prices. */
export interface ItemRow {
  readonly planId: string;
  readonly priceId: string;
}

export interface SubscriptionFormValues {
  readonly companyId: string;
  /** Empty: a new id is generated (`sub_` and 16 random hex digits). */
  readonly id: string;
  readonly status: SubscriptionStatus;
  /** `YYYY-MM-DD` (UTC midnight) or empty. */
  readonly start: string;
  readonly end: string;
  readonly items: readonly ItemRow[];
}

const randomId = () => `sub_${Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => byte.toString(16).padStart(2, '0')).join('')}`;

/** The body `POST /search/~/subscriptions` takes for the form's values; rows without a plan or price are left out. */
export function subscriptionBody(values: SubscriptionFormValues, newId: () => string = randomId): SubscriptionInput {
  const items = values.items
    .filter((item) => item.planId.trim() !== '' || item.priceId.trim() !== '')
    .map((item) => ({
      ...(item.planId.trim() ? { plan_id: item.planId.trim() } : {}),
      ...(item.priceId.trim() ? { price_id: item.priceId.trim() } : {}),
    }));
  return {
    subscription_id: values.id.trim() || newId(),
    company_id: values.companyId,
    status: values.status,
    ...(values.start ? { current_period_start: `${values.start}T00:00:00.000Z` } : {}),
    ...(values.end ? { current_period_end: `${values.end}T00:00:00.000Z` } : {}),
    items,
  };
}
