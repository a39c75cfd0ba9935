import { FakeChargebeeCatalog } from './fake-chargebee-catalog';
import { addTo, basicCredentials, FakeProviderServer, header, isForm, type FakeReply, type FakeRequest, type FakeServerOptions } from './fake-server';

/**
 * Chargebee usages (Product Catalog 2.0): `POST /api/v2/subscriptions/{id}/usages`, HTTP basic auth
 * with the API key as user name, form-encoded `item_price_id`, `quantity`, `usage_date`, optional
 * `id`, `dedupe_option`, `note`. As Chargebee documents: one usage per subscription, item price and
 * usage_date (`dedupe_option` `skip` keeps the existing one, `update_existing` replaces its quantity,
 * none refuses); a `chargebee-idempotency-key` replays the first answer with
 * `chargebee-idempotency-replayed: true`.
 */
export interface FakeChargebeeOptions extends FakeServerOptions {
  readonly apiKey: string;
  /** Known subscriptions and their metered item prices; anything else is a 404 (all accepted when omitted). */
  readonly subscriptions?: Record<string, string[]>;
}

interface Usage {
  id: string;
  subscription_id: string;
  item_price_id: string;
  usage_date: number;
  quantity: bigint;
  note?: string;
}

const USAGES_PATH = /^\/api\/v2\/subscriptions\/([^/]+)\/usages$/;

export class FakeChargebee extends FakeProviderServer {
  private readonly usages: Usage[] = [];
  /** Items, item prices, customers and subscriptions, as the sync lists them (fake-chargebee-catalog.ts). */
  readonly catalog = new FakeChargebeeCatalog();
  private readonly idempotent = new Map<string, { body: string; reply: FakeReply }>();

  constructor(private readonly options: FakeChargebeeOptions) {
    super(options);
  }

  usageRecords(): Usage[] {
    return this.usages.map((u) => ({ ...u }));
  }

  totals(): Record<string, bigint> {
    const totals = new Map<string, bigint>();
    for (const usage of this.usages) addTo(totals, usage.subscription_id, usage.quantity);
    return Object.fromEntries(totals);
  }

  /** Deletes usages, as "Delete a usage" in Chargebee would (drift planted at the provider). */
  removeUsages(which: (usage: Usage) => boolean): void {
    for (let i = this.usages.length - 1; i >= 0; i -= 1) if (which(this.usages[i]!)) this.usages.splice(i, 1);
  }

  /** A usage recorded at Chargebee that the service did not send (drift planted at the provider). */
  plantUsage(usage: { subscription_id: string; item_price_id: string; usage_date: number; quantity: bigint }): void {
    this.usages.push({ id: `planted_${this.usages.length + 1}`, ...usage });
  }

  /** `GET /api/v2/usages` with `subscription_id[is]`, `item_price_id[is]` and `usage_date[between]` (`[from, to]` in seconds), 100 a page. */
  private listUsages(query: URLSearchParams): FakeReply {
    const between = query.get('usage_date[between]');
    const [from, to] = between ? (JSON.parse(between) as [number, number]) : [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
    const matching = this.usages.filter(
      (u) =>
        (query.get('subscription_id[is]') === null || u.subscription_id === query.get('subscription_id[is]')) &&
        (query.get('item_price_id[is]') === null || u.item_price_id === query.get('item_price_id[is]')) &&
        u.usage_date >= from &&
        u.usage_date <= to,
    );
    const start = Number(query.get('offset') ?? 0);
    const limit = Number(query.get('limit') ?? 10);
    const page = matching.slice(start, start + limit).map((usage) => ({ usage: { ...usage, quantity: usage.quantity.toString(), object: 'usage' } }));
    return { status: 200, body: { list: page, ...(start + limit < matching.length ? { next_offset: String(start + limit) } : {}) } };
  }

  protected isUsageRequest(request: FakeRequest): boolean {
    return request.method === 'POST' && USAGES_PATH.test(request.path);
  }

  protected errorReply(status: number, message: string, code: string, param?: string): FakeReply {
    const type = status >= 500 ? undefined : 'invalid_request';
    return {
      status,
      body: { message, ...(type ? { type } : {}), api_error_code: code, error_code: code, ...(param ? { error_param: param } : {}), http_status_code: status },
    };
  }

  protected handle(request: FakeRequest): FakeReply {
    const credentials = basicCredentials(header(request, 'authorization'));
    if (!credentials || credentials[0] !== this.options.apiKey)
      return this.errorReply(401, 'Sorry, authentication failed. Invalid api key', 'api_authentication_failed');
    const listed = this.catalog.list(request);
    if (listed) return listed;
    if (request.method === 'GET' && request.path === '/api/v2/usages') return this.listUsages(request.query);
    const match = USAGES_PATH.exec(request.path);
    if (request.method !== 'POST' || !match) return this.errorReply(404, "Sorry, we couldn't find that resource", 'resource_not_found');
    if (!isForm(request)) return this.errorReply(400, 'content type must be application/x-www-form-urlencoded', 'invalid_request');

    const key = header(request, 'chargebee-idempotency-key');
    if (key) {
      const seen = this.idempotent.get(key);
      if (seen && seen.body !== request.body) return this.errorReply(409, 'The idempotency key was already used with different parameters', 'invalid_request');
      if (seen) return { ...seen.reply, headers: { ...seen.reply.headers, 'chargebee-idempotency-replayed': 'true' } };
    }
    const reply = this.createUsage(decodeURIComponent(match[1]!), new URLSearchParams(request.body));
    if (key && reply.status < 500) this.idempotent.set(key, { body: request.body, reply });
    return reply;
  }

  private createUsage(subscriptionId: string, form: URLSearchParams): FakeReply {
    const known = this.options.subscriptions;
    if (known && !known[subscriptionId])
      return this.errorReply(404, `Sorry, we couldn't find that resource: subscription ${subscriptionId}`, 'resource_not_found');
    const itemPriceId = form.get('item_price_id');
    if (!itemPriceId) return this.errorReply(400, 'item_price_id : cannot be blank', 'param_not_found', 'item_price_id');
    if (known && !known[subscriptionId]!.includes(itemPriceId))
      return this.errorReply(400, `item_price_id : ${itemPriceId} is not a metered item price of the subscription`, 'invalid_request', 'item_price_id');
    const quantityText = form.get('quantity');
    if (quantityText === null || !/^\d+$/.test(quantityText))
      return this.errorReply(400, 'quantity : must be a non-negative whole number', 'param_wrong_value', 'quantity');
    const usageDate = Number(form.get('usage_date'));
    if (!form.get('usage_date') || !Number.isInteger(usageDate)) return this.errorReply(400, 'usage_date : cannot be blank', 'param_not_found', 'usage_date');
    const dedupe = form.get('dedupe_option');
    if (dedupe !== null && dedupe !== 'skip' && dedupe !== 'update_existing')
      return this.errorReply(400, 'dedupe_option : invalid value', 'param_wrong_value', 'dedupe_option');
    const id = form.get('id') ?? `usage_${this.usages.length + 1}`;
    if (id.length > 100) return this.errorReply(400, 'id : cannot be more than 100 characters', 'param_wrong_value', 'id');

    const existing = this.usages.find((u) => u.subscription_id === subscriptionId && u.item_price_id === itemPriceId && u.usage_date === usageDate);
    if (existing) {
      if (dedupe === 'skip') return this.answer(existing);
      if (dedupe === 'update_existing') {
        existing.quantity = BigInt(quantityText);
        existing.note = form.get('note') ?? existing.note;
        return this.answer(existing);
      }
      return this.errorReply(400, 'usage_date : a usage already exists for this item price on this date', 'invalid_request', 'usage_date');
    }
    if (this.usages.some((u) => u.id === id)) return this.errorReply(400, `id : ${id} already exists`, 'duplicate_entry', 'id');
    const usage: Usage = {
      id,
      subscription_id: subscriptionId,
      item_price_id: itemPriceId,
      usage_date: usageDate,
      quantity: BigInt(quantityText),
      ...(form.get('note') ? { note: form.get('note')! } : {}),
    };
    this.usages.push(usage);
    return this.answer(usage);
  }

  private answer(usage: Usage): FakeReply {
    return { status: 200, body: { usage: { ...usage, quantity: usage.quantity.toString(), object: 'usage' } } };
  }
}
