import { Subscription } from '../../../schemas/collector';
import { parseSearchRequest } from '../../search/dsl';
import type { SearchableIndex, TenantScope } from '../../search/port';

/**
 * The app's subscriptions, loaded once per run (paged search over the `subscriptions` index), and
 * the attribution rule of company usage.
 */

export interface KnownSubscription {
  readonly subscriptionId: string;
  readonly companyId: string;
  readonly status: string;
  readonly periodStart: Date | null;
  readonly periodEnd: Date | null;
  readonly items: readonly { readonly plan_id?: string | null; readonly price_id?: string | null; readonly subscription_item_id?: string | null }[];
  readonly createdAt: string | null;
  readonly metadata: Record<string, unknown>;
  /** The items come from `metadata.plan_id` / `metadata.price_id`: it was sent without items (subscriptionItems). */
  readonly itemsFromMetadata?: boolean;
}

type SentSubscription = ReturnType<typeof Subscription.parse>;

/**
 * What a subscription is subscribed to: its items; when it has none (the Moesif SDKs'
 * `updateSubscription` sends no items), one item from its `metadata.plan_id` and `metadata.price_id`,
 * so an SDK's subscription can be billed by naming its catalog plan in its metadata.
 */
export function subscriptionItems(s: Pick<SentSubscription, 'items' | 'metadata'>): { items: KnownSubscription['items']; fromMetadata: boolean } {
  if (s.items && s.items.length > 0)
    return {
      items: s.items.map((item) => ({
        plan_id: item.plan_id ?? null,
        price_id: item.price_id ?? null,
        subscription_item_id: item.subscription_item_id ?? null,
      })),
      fromMetadata: false,
    };
  const metadata = (s.metadata ?? {}) as Record<string, unknown>;
  const named = (key: string) => (typeof metadata[key] === 'string' && metadata[key] !== '' ? (metadata[key] as string) : null);
  const plan = named('plan_id');
  const price = named('price_id');
  return plan === null && price === null
    ? { items: [], fromMetadata: false }
    : { items: [{ plan_id: plan, price_id: price, subscription_item_id: null }], fromMetadata: true };
}

/** Statuses whose usage is billed. */
export const BILLABLE_STATUSES = new Set(['active', 'trialing']);
const PAGE = 1000;

export class SubscriptionDirectory {
  private readonly byCompany = new Map<string, KnownSubscription[]>();
  /** forCompany's answers per meter id set (the run asks again for every window of every meter). */
  private readonly companyAnswers = new Map<ReadonlySet<string>, Map<string, KnownSubscription | null>>();

  constructor(readonly subscriptions: ReadonlyMap<string, KnownSubscription>) {
    for (const subscription of subscriptions.values()) {
      const list = this.byCompany.get(subscription.companyId) ?? [];
      list.push(subscription);
      this.byCompany.set(subscription.companyId, list);
    }
  }

  /** The app's subscriptions, or those a query selects (one company's, for its usage page). */
  static async load(index: SearchableIndex, scope: TenantScope, now: Date, query?: Record<string, unknown>): Promise<SubscriptionDirectory> {
    const found = new Map<string, KnownSubscription>();
    let after: unknown[] | undefined;
    for (;;) {
      const body = { size: PAGE, ...(query ? { query } : {}), sort: [{ subscription_id: { order: 'asc' } }], ...(after ? { search_after: after } : {}) };
      const response = await index.search(
        { scope, kind: 'subscriptions', timeZone: 'UTC', now },
        parseSearchRequest(body, 'subscriptions', { timeZone: 'UTC' }),
      );
      for (const hit of response.hits.hits) {
        const parsed = Subscription.safeParse(hit._source ?? {});
        if (!parsed.success) continue;
        const s = parsed.data;
        const { items, fromMetadata } = subscriptionItems(s);
        found.set(s.subscription_id, {
          subscriptionId: s.subscription_id,
          companyId: s.company_id,
          status: s.status,
          periodStart: s.current_period_start ? new Date(s.current_period_start) : null,
          periodEnd: s.current_period_end ? new Date(s.current_period_end) : null,
          items,
          createdAt: s.created_at ?? null,
          metadata: (s.metadata ?? {}) as Record<string, unknown>,
          ...(fromMetadata ? { itemsFromMetadata: true } : {}),
        });
      }
      const last = response.hits.hits[response.hits.hits.length - 1];
      if (response.hits.hits.length < PAGE || !last?.sort) break;
      after = last.sort as unknown[];
    }
    return new SubscriptionDirectory(found);
  }

  /** An explicit subscription_id: billed to it only if known and billable. */
  explicit(subscriptionId: string): KnownSubscription | undefined {
    const subscription = this.subscriptions.get(subscriptionId);
    return subscription && BILLABLE_STATUSES.has(subscription.status) ? subscription : undefined;
  }

  /**
   * Company usage goes to the company's billable subscription whose items carry one of the meter's
   * ids (plan_id, price_id or subscription_item_id; any billable subscription when the meter names no
   * id). Several → the earliest created, then the smallest subscription_id (deterministic).
   */
  forCompany(companyId: string, billedIds: ReadonlySet<string>): KnownSubscription | undefined {
    let answers = this.companyAnswers.get(billedIds);
    if (!answers) {
      answers = new Map();
      this.companyAnswers.set(billedIds, answers);
    }
    let answer = answers.get(companyId);
    if (answer === undefined) {
      answer = this.chooseForCompany(companyId, billedIds) ?? null;
      answers.set(companyId, answer);
    }
    return answer ?? undefined;
  }

  private chooseForCompany(companyId: string, billedIds: ReadonlySet<string>): KnownSubscription | undefined {
    const candidates = (this.byCompany.get(companyId) ?? []).filter(
      (s) => BILLABLE_STATUSES.has(s.status) && (billedIds.size === 0 || matchingItem(s, billedIds) !== undefined),
    );
    candidates.sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? '') || a.subscriptionId.localeCompare(b.subscriptionId));
    return candidates[0];
  }

  /** Billable subscriptions a per-subscription (placeholder) meter is evaluated for. */
  billableFor(billedIds: ReadonlySet<string>): KnownSubscription[] {
    return [...this.subscriptions.values()].filter(
      (s) => BILLABLE_STATUSES.has(s.status) && (billedIds.size === 0 || matchingItem(s, billedIds) !== undefined),
    );
  }
}

/** The subscription's item carrying one of the ids, if any. */
export function matchingItem(subscription: KnownSubscription, ids: ReadonlySet<string>): KnownSubscription['items'][number] | undefined {
  return subscription.items.find((item) => [item.plan_id, item.price_id, item.subscription_item_id].some((id) => typeof id === 'string' && ids.has(id)));
}
