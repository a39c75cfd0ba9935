import { createHmac } from 'node:crypto';
import type { FakeReply, FakeRequest } from './fake-server';

/**
 * What the fake Stripe holds besides meter events: products, prices, customers and subscriptions,
 * listed as Stripe lists them (newest first, `limit` up to 100, `starting_after`, `has_more`;
 * subscriptions of every status with `status=all`, only not-cancelled ones otherwise; `expand[]`
 * of `data.customer` and `data.tiers`). Objects carry the fields the sync reads, in Stripe's shape.
 */

type StripeObject = Record<string, unknown> & { id: string };
const KINDS = { products: 'product', prices: 'price', customers: 'customer', subscriptions: 'subscription' } as const;
export type StripeListKind = keyof typeof KINDS;

export class FakeStripeCatalog {
  private readonly objects: Record<StripeListKind, Map<string, StripeObject>> = {
    products: new Map(),
    prices: new Map(),
    customers: new Map(),
    subscriptions: new Map(),
  };
  private created = 1_700_000_000;

  constructor(private readonly now: () => Date) {}

  /** Adds or replaces an object (a replaced one keeps its place in the list). */
  put(kind: StripeListKind, object: StripeObject): StripeObject {
    const stored = { object: KINDS[kind], created: this.created++, livemode: false, metadata: {}, ...object };
    this.objects[kind].set(object.id, stored);
    return stored;
  }

  get(kind: StripeListKind, id: string): StripeObject | undefined {
    return this.objects[kind].get(id);
  }

  /** Changes an object as the dashboard would; answers the new object. */
  update(kind: StripeListKind, id: string, changes: Record<string, unknown>): StripeObject {
    const current = this.objects[kind].get(id);
    if (!current) throw new Error(`fake Stripe has no ${KINDS[kind]} ${id}`);
    const next = { ...current, ...changes };
    this.objects[kind].set(id, next);
    return next;
  }

  /** Removes an object, as deleting a product does (a later retrieve answers 404). */
  remove(kind: StripeListKind, id: string): void {
    this.objects[kind].delete(id);
  }

  /** A GET of one of the lists or of one object (`/v1/prices/price_…`), or undefined when the request is neither. */
  list(request: FakeRequest): FakeReply | undefined {
    const [kind, id] = request.path.replace(/^\/v1\//, '').split('/') as [StripeListKind, string | undefined];
    if (request.method !== 'GET' || !(kind in this.objects)) return undefined;
    if (id !== undefined) {
      const found = this.objects[kind].get(id);
      const expand = new Set([...request.query].filter(([name]) => /^expand\[\d*\]$/.test(name)).map(([, value]) => `data.${value}`));
      return found
        ? { status: 200, body: this.shown(kind, found, expand) }
        : { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${KINDS[kind]}: '${id}'` } } };
    }
    const limit = Number(request.query.get('limit') ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return invalid('limit must be an integer between 1 and 100');
    // Stripe takes `expand[]=…` and `expand[0]=…` (its SDKs send the indexed form).
    const expand = new Set([...request.query].filter(([name]) => /^expand\[\d*\]$/.test(name)).map(([, value]) => value));
    let all = [...this.objects[kind].values()].reverse();
    if (kind === 'subscriptions' && request.query.get('status') !== 'all') all = all.filter((s) => s.status !== 'canceled');
    const after = request.query.get('starting_after');
    const start = after ? all.findIndex((object) => object.id === after) + 1 : 0;
    if (after && start === 0) return invalid(`No such ${KINDS[kind]}: '${after}'`);
    const page = all.slice(start, start + limit).map((object) => this.shown(kind, object, expand));
    return { status: 200, body: { object: 'list', url: `/v1/${kind}`, has_more: start + limit < all.length, data: page } };
  }

  private shown(kind: StripeListKind, object: StripeObject, expand: ReadonlySet<string>): StripeObject {
    if (kind === 'prices' && !expand.has('data.tiers')) {
      const { tiers: _tiers, ...rest } = object;
      return rest as StripeObject;
    }
    if (kind === 'subscriptions' && expand.has('data.customer')) {
      const customer = this.objects.customers.get(String(object.customer));
      return { ...object, customer: customer ?? object.customer };
    }
    return object;
  }

  /** Seconds since the epoch on the fake's clock. */
  seconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }
}

/** A webhook delivery as Stripe signs it: the event's JSON and its Stripe-Signature header (v1: HMAC-SHA256 of `t.body`). */
export function signedStripeEvent(secret: string, event: Record<string, unknown>, at: Date = new Date()): { body: string; signature: string } {
  const body = JSON.stringify(event);
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return { body, signature: `t=${t},v1=${v1}` };
}

function invalid(message: string): FakeReply {
  return { status: 400, body: { error: { type: 'invalid_request_error', message } } };
}

/** Stripe-shaped objects for tests: only what differs from one to the next is given. */
export const stripeObjects = {
  product: (id: string, name: string): StripeObject => ({ id, name, active: true, description: null, unit_label: null }),
  price: (id: string, product: string, fields: Record<string, unknown>): StripeObject => ({
    id,
    product,
    active: true,
    currency: 'usd',
    nickname: null,
    billing_scheme: 'per_unit',
    tiers_mode: null,
    transform_quantity: null,
    unit_amount: null,
    unit_amount_decimal: null,
    tax_behavior: 'unspecified',
    recurring: { interval: 'month', interval_count: 1, usage_type: 'metered', meter: null },
    type: 'recurring',
    ...fields,
  }),
  customer: (id: string, fields: Record<string, unknown> = {}): StripeObject => ({ id, name: null, email: null, ...fields }),
  subscription: (
    id: string,
    customer: string,
    prices: readonly { id: string; product: string }[],
    period: { start: number; end: number },
    status = 'active',
  ): StripeObject => ({
    id,
    customer,
    status,
    items: {
      object: 'list',
      has_more: false,
      data: prices.map((price, n) => ({
        id: `si_${id.slice(4)}_${n}`,
        object: 'subscription_item',
        created: period.start,
        current_period_start: period.start,
        current_period_end: period.end,
        price: { id: price.id, object: 'price', product: price.product },
      })),
    },
  }),
};
