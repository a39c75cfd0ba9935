import type { FakeReply, FakeRequest } from './fake-server';

/**
 * What the fake Chargebee holds besides usages (Product Catalog 2.0): items, item prices, customers
 * and subscriptions, listed as Chargebee lists them (`GET /api/v2/<list>?limit=&offset=`, at most
 * 100 an answer, each entry wrapped in its object's name, subscriptions with their customer beside
 * them, `next_offset` an opaque token while more are left) and retrieved one at a time.
 */

type ChargebeeObject = Record<string, unknown> & { id: string };
const KINDS = { items: 'item', item_prices: 'item_price', customers: 'customer', subscriptions: 'subscription' } as const;
export type ChargebeeListKind = keyof typeof KINDS;

export class FakeChargebeeCatalog {
  private readonly objects: Record<ChargebeeListKind, Map<string, ChargebeeObject>> = {
    items: new Map(),
    item_prices: new Map(),
    customers: new Map(),
    subscriptions: new Map(),
  };

  put(kind: ChargebeeListKind, object: ChargebeeObject): ChargebeeObject {
    const stored = { object: KINDS[kind], resource_version: 1, ...object };
    this.objects[kind].set(object.id, stored);
    return stored;
  }

  update(kind: ChargebeeListKind, id: string, changes: Record<string, unknown>): ChargebeeObject {
    const current = this.objects[kind].get(id);
    if (!current) throw new Error(`fake Chargebee has no ${KINDS[kind]} ${id}`);
    const next = { ...current, ...changes, resource_version: Number(current['resource_version'] ?? 1) + 1 };
    this.objects[kind].set(id, next);
    return next;
  }

  /** A GET of a list or of one object, or undefined when the request is neither. */
  list(request: FakeRequest): FakeReply | undefined {
    const [kind, id] = request.path.replace(/^\/api\/v2\//, '').split('/') as [ChargebeeListKind, string | undefined];
    if (request.method !== 'GET' || !(kind in this.objects)) return undefined;
    if (id !== undefined) {
      const found = this.objects[kind].get(decodeURIComponent(id));
      return found
        ? { status: 200, body: this.entry(kind, found) }
        : {
            status: 404,
            body: { message: `Sorry, we couldn't find that resource: ${KINDS[kind]} ${id}`, api_error_code: 'resource_not_found', http_status_code: 404 },
          };
    }
    const limit = Number(request.query.get('limit') ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return {
        status: 400,
        body: { message: 'limit : must be between 1 and 100', api_error_code: 'param_wrong_value', error_param: 'limit', http_status_code: 400 },
      };
    const offset = request.query.get('offset');
    const start = offset ? Number(Buffer.from(offset, 'base64url').toString('utf8')) : 0;
    if (!Number.isInteger(start) || start < 0)
      return { status: 400, body: { message: 'offset : invalid value', api_error_code: 'param_wrong_value', error_param: 'offset', http_status_code: 400 } };
    const all = [...this.objects[kind].values()];
    const list = all.slice(start, start + limit).map((object) => this.entry(kind, object));
    const more = start + limit < all.length;
    return { status: 200, body: { list, ...(more ? { next_offset: Buffer.from(String(start + limit), 'utf8').toString('base64url') } : {}) } };
  }

  private entry(kind: ChargebeeListKind, object: ChargebeeObject): Record<string, unknown> {
    if (kind !== 'subscriptions') return { [KINDS[kind]]: object };
    const customer = this.objects.customers.get(String(object['customer_id']));
    return { subscription: object, ...(customer ? { customer } : {}) };
  }
}

/** Chargebee-shaped objects for tests: only what differs from one to the next is given. */
export const chargebeeObjects = {
  item: (id: string, name: string, type = 'plan'): ChargebeeObject => ({
    id,
    name,
    type,
    status: 'active',
    item_family_id: 'family',
    updated_at: 1_700_000_000,
  }),
  itemPrice: (id: string, itemId: string, fields: Record<string, unknown>): ChargebeeObject => ({
    id,
    name: id,
    item_id: itemId,
    item_type: 'plan',
    status: 'active',
    pricing_model: 'per_unit',
    currency_code: 'USD',
    period: 1,
    period_unit: 'month',
    free_quantity: 0,
    created_at: 1_700_000_000,
    ...fields,
  }),
  customer: (id: string, fields: Record<string, unknown> = {}): ChargebeeObject => ({ id, deleted: false, created_at: 1_700_000_000, ...fields }),
  subscription: (
    id: string,
    customerId: string,
    itemPriceIds: readonly string[],
    term: { start: number; end: number },
    status = 'active',
  ): ChargebeeObject => ({
    id,
    customer_id: customerId,
    status,
    current_term_start: term.start,
    current_term_end: term.end,
    created_at: term.start,
    subscription_items: itemPriceIds.map((itemPriceId) => ({ item_price_id: itemPriceId, item_type: 'plan', quantity: 1 })),
  }),
};
