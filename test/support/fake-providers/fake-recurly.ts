import { randomBytes } from 'node:crypto';
import { FakeRecurlyCatalog } from './fake-recurly-catalog';
import { addTo, basicCredentials, FakeProviderServer, header, isJson, type FakeReply, type FakeRequest, type FakeServerOptions } from './fake-server';

/**
 * Recurly v3 usage on add-ons: `POST /subscriptions/{id}/add_ons/{add_on_id}/usage` (JSON `amount`,
 * `merchant_tag`, `usage_timestamp`, `recording_timestamp`) and the list on the same path
 * (`begin_time`, `end_time`, `sort`, `limit`, `cursor`), basic auth with the API key, the
 * `application/vnd.recurly.v2021-02-25` Accept header. Like Recurly, creating usage is not
 * idempotent: every POST records a usage; `merchant_tag` is only stored.
 */
export interface FakeRecurlyOptions extends FakeServerOptions {
  readonly apiKey: string;
  /** Known subscriptions and their usage add-on ids; anything else is a 404 (all accepted when omitted). */
  readonly subscriptions?: Record<string, string[]>;
}

interface Usage {
  id: string;
  subscription_id: string;
  add_on_id: string;
  amount: number;
  merchant_tag: string | null;
  usage_timestamp: string;
  recording_timestamp: string;
  created_at: string;
}

const USAGE_PATH = /^\/subscriptions\/([^/]+)\/add_ons\/([^/]+)\/usage$/;
const ACCEPT = /^application\/vnd\.recurly\.v2021-02-25(\+json)?$/;

export class FakeRecurly extends FakeProviderServer {
  private readonly usages: Usage[] = [];
  /** Plans, add-ons, accounts and subscriptions, as the sync lists them (fake-recurly-catalog.ts). */
  readonly catalog = new FakeRecurlyCatalog();

  /** A usage record at Recurly that the service did not log (drift planted at the provider). */
  plantUsage(usage: { subscription_id: string; add_on_id: string; amount: number; usage_timestamp: string }): void {
    this.usages.push({
      id: `planted${this.usages.length + 1}`,
      merchant_tag: null,
      recording_timestamp: usage.usage_timestamp,
      created_at: usage.usage_timestamp,
      ...usage,
    });
  }

  constructor(private readonly options: FakeRecurlyOptions) {
    super(options);
  }

  usageRecords(): Usage[] {
    return this.usages.map((u) => ({ ...u }));
  }

  totals(): Record<string, bigint> {
    const totals = new Map<string, bigint>();
    for (const usage of this.usages) addTo(totals, usage.subscription_id, BigInt(usage.amount));
    return Object.fromEntries(totals);
  }

  protected isUsageRequest(request: FakeRequest): boolean {
    return request.method === 'POST' && USAGE_PATH.test(request.path);
  }

  protected errorReply(status: number, message: string, code: string): FakeReply {
    const type = status === 429 ? 'rate_limited' : status >= 500 ? 'internal_server_error' : code;
    return { status, body: { error: { type, message } } };
  }

  protected handle(request: FakeRequest): FakeReply {
    const credentials = basicCredentials(header(request, 'authorization'));
    if (!credentials || credentials[0] !== this.options.apiKey) return this.errorReply(401, 'Please provide a valid API key.', 'unauthorized');
    if (!ACCEPT.test(header(request, 'accept') ?? ''))
      return this.errorReply(406, "That accept header isn't in the format we use to specify an API version.", 'invalid_api_version');
    const listed = this.catalog.list(request);
    if (listed) return listed;
    const match = USAGE_PATH.exec(request.path);
    if (!match) return this.errorReply(404, `Couldn't find a route for ${request.method} ${request.path}`, 'not_found');
    const subscriptionId = decodeURIComponent(match[1]!);
    const addOnId = decodeURIComponent(match[2]!);
    const known = this.options.subscriptions;
    if (known && !known[subscriptionId]) return this.errorReply(404, `Couldn't find Subscription with id = ${subscriptionId}`, 'not_found');
    if (known && !known[subscriptionId]!.includes(addOnId)) return this.errorReply(404, `Couldn't find AddOn with id = ${addOnId}`, 'not_found');
    if (request.method === 'GET') return this.list(subscriptionId, addOnId, request.query);
    if (request.method !== 'POST') return this.errorReply(405, 'Method not allowed', 'method_not_allowed');
    return this.create(subscriptionId, addOnId, request);
  }

  private create(subscriptionId: string, addOnId: string, request: FakeRequest): FakeReply {
    if (!isJson(request)) return this.errorReply(415, 'Content-Type must be application/json', 'invalid_content_type');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return this.errorReply(400, 'The request body is not valid JSON', 'bad_request');
    }
    const invalid = (param: string, message: string): FakeReply => ({
      status: 422,
      body: { error: { type: 'validation', message: `${param} ${message}`, params: [{ param, message }] } },
    });
    if (typeof body.amount !== 'number' || !Number.isInteger(body.amount)) return invalid('amount', 'must be a whole number');
    if (body.merchant_tag !== undefined && (typeof body.merchant_tag !== 'string' || body.merchant_tag.length > 255))
      return invalid('merchant_tag', 'must be a string of at most 255 characters');
    const now = this.now();
    for (const field of ['usage_timestamp', 'recording_timestamp'] as const) {
      if (body[field] !== undefined && (typeof body[field] !== 'string' || Number.isNaN(Date.parse(body[field])))) return invalid(field, 'is not a date-time');
    }
    const usageTimestamp = (body.usage_timestamp as string | undefined) ?? now.toISOString();
    if (Date.parse(usageTimestamp) > now.getTime()) return invalid('usage_timestamp', 'Cannot create usage record with a usage timestamp in the future.');
    const usage: Usage = {
      id: randomBytes(6).toString('hex'),
      subscription_id: subscriptionId,
      add_on_id: addOnId,
      amount: body.amount,
      merchant_tag: (body.merchant_tag as string | undefined) ?? null,
      usage_timestamp: new Date(usageTimestamp).toISOString(),
      recording_timestamp: new Date((body.recording_timestamp as string | undefined) ?? usageTimestamp).toISOString(),
      created_at: now.toISOString(),
    };
    this.usages.push(usage);
    return { status: 201, body: this.view(usage) };
  }

  private list(subscriptionId: string, addOnId: string, query: URLSearchParams): FakeReply {
    const field = query.get('sort') === 'usage_timestamp' ? 'usage_timestamp' : 'created_at';
    const begin = query.get('begin_time') ? Date.parse(query.get('begin_time')!) : -Infinity;
    const end = query.get('end_time') ? Date.parse(query.get('end_time')!) : Infinity;
    const limit = Math.min(200, Math.max(1, Number(query.get('limit') ?? 20)));
    const offset = Number(query.get('cursor') ?? 0);
    const matching = this.usages.filter(
      (u) => u.subscription_id === subscriptionId && u.add_on_id === addOnId && Date.parse(u[field]) >= begin && Date.parse(u[field]) <= end,
    );
    const page = matching.slice(offset, offset + limit);
    const hasMore = offset + limit < matching.length;
    const next = new URLSearchParams(query);
    next.set('cursor', String(offset + limit));
    return {
      status: 200,
      body: {
        object: 'list',
        has_more: hasMore,
        next: hasMore ? `/subscriptions/${encodeURIComponent(subscriptionId)}/add_ons/${encodeURIComponent(addOnId)}/usage?${next}` : null,
        data: page.map((u) => this.view(u)),
      },
    };
  }

  private view(usage: Usage): Record<string, unknown> {
    return { object: 'usage', ...usage, billed_at: null };
  }
}
