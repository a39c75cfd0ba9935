import { randomBytes } from 'node:crypto';
import { FakeZuoraCatalog } from './fake-zuora-catalog';
import { addTo, FakeProviderServer, header, isForm, isJson, type FakeReply, type FakeRequest, type FakeServerOptions } from './fake-server';

/**
 * Zuora: `POST /oauth/token` (client credentials, form-encoded) issues bearer tokens;
 * `POST /v1/object/usage` (JSON: AccountNumber or AccountId, UOM, Quantity, StartDateTime, optional
 * SubscriptionNumber, ChargeNumber, EndDateTime, UniqueKey, Description) records usage. Idempotency
 * as Zuora documents it: an `Idempotency-Key` replays the saved answer (success or failure) for 24
 * hours, a different body with the same key is a 422; a repeated `UniqueKey` is refused.
 */
export interface FakeZuoraOptions extends FakeServerOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly tokenTtlSeconds?: number;
}

interface Usage {
  Id: string;
  AccountNumber: string;
  SubscriptionNumber?: string;
  ChargeNumber?: string;
  UOM: string;
  Quantity: number;
  StartDateTime: string;
  EndDateTime?: string;
  UniqueKey?: string;
}

const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export class FakeZuora extends FakeProviderServer {
  private readonly tokens = new Map<string, number>();
  private readonly usages: Usage[] = [];
  /** Rate plans, charges, accounts and subscriptions, as the sync lists them (fake-zuora-catalog.ts). */
  readonly catalog = new FakeZuoraCatalog();

  /** A usage record at Zuora that the service did not send (drift planted at the provider). */
  plantUsage(usage: Omit<Usage, 'Id'>): void {
    this.usages.push({ Id: `planted${this.usages.length + 1}`, ...usage });
  }

  /** `GET /v1/usage/accounts/{account}`: the account's usage records, 40 a page by default, `nextPage` naming the next. */
  private listUsage(account: string, query: URLSearchParams): FakeReply {
    const pageSize = Number(query.get('pageSize') ?? 20);
    const page = Number(query.get('page') ?? 1);
    const own = this.usages.filter((u) => u.AccountNumber === account);
    const slice = own.slice((page - 1) * pageSize, page * pageSize);
    const more = page * pageSize < own.length;
    return {
      status: 200,
      body: {
        success: true,
        usage: slice.map((u) => ({
          id: u.Id,
          accountNumber: u.AccountNumber,
          subscriptionNumber: u.SubscriptionNumber ?? null,
          chargeNumber: u.ChargeNumber ?? null,
          unitOfMeasure: u.UOM,
          quantity: u.Quantity,
          startDateTime: u.StartDateTime,
        })),
        ...(more ? { nextPage: `${this.url}/v1/usage/accounts/${encodeURIComponent(account)}?pageSize=${pageSize}&page=${page + 1}` } : {}),
      },
    };
  }
  private readonly idempotent = new Map<string, { body: string; reply: FakeReply; at: number }>();

  constructor(private readonly options: FakeZuoraOptions) {
    super(options);
  }

  usageRecords(): Usage[] {
    return this.usages.map((u) => ({ ...u }));
  }

  /** Sum of quantities per subscription number (account number when none). */
  totals(): Record<string, bigint> {
    const totals = new Map<string, bigint>();
    for (const usage of this.usages) addTo(totals, usage.SubscriptionNumber ?? usage.AccountNumber, BigInt(usage.Quantity));
    return Object.fromEntries(totals);
  }

  /** Every token issued so far stops working (to exercise renewal). */
  expireTokens(): void {
    this.tokens.clear();
  }

  tokensIssued(): number {
    return this.requests().filter((r) => r.path === '/oauth/token' && r.status === 200).length;
  }

  protected isUsageRequest(request: FakeRequest): boolean {
    return request.method === 'POST' && request.path === '/v1/object/usage';
  }

  protected errorReply(status: number, message: string, code: string): FakeReply {
    return { status, body: { Success: false, Errors: [{ Code: code, Message: message }] } };
  }

  protected handle(request: FakeRequest): FakeReply {
    if (request.method === 'POST' && request.path === '/oauth/token') return this.token(request);
    const bearer = /^Bearer (.+)$/.exec(header(request, 'authorization') ?? '')?.[1];
    const expires = bearer ? this.tokens.get(bearer) : undefined;
    const signedIn = expires !== undefined && expires > this.now().getTime();
    if (request.method === 'GET') {
      if (!signedIn) return { status: 401, body: { message: 'Authentication error' } };
      const listed = this.catalog.list(request);
      if (listed) return listed;
      const usage = /^\/v1\/usage\/accounts\/([^/]+)$/.exec(request.path);
      if (usage) return this.listUsage(decodeURIComponent(usage[1]!), request.query);
    }
    if (!this.isUsageRequest(request)) return this.errorReply(404, `No route for ${request.method} ${request.path}`, 'NOT_FOUND');
    if (!signedIn) return { status: 401, body: { message: 'Authentication error' } };
    if (!isJson(request)) return this.errorReply(415, 'Content-Type must be application/json', 'UNSUPPORTED_MEDIA_TYPE');

    const key = header(request, 'idempotency-key');
    if (key) {
      if (key.length > 255) return this.errorReply(400, 'Idempotency-Key is longer than 255 characters', 'INVALID_VALUE');
      const seen = this.idempotent.get(key);
      if (seen && this.now().getTime() - seen.at < IDEMPOTENCY_TTL_MS) {
        if (seen.body !== request.body)
          return this.errorReply(422, 'The request body differs from the first request with this Idempotency-Key', 'UNPROCESSABLE_ENTITY');
        return seen.reply;
      }
    }
    const reply = this.createUsage(request.body);
    if (key) this.idempotent.set(key, { body: request.body, reply, at: this.now().getTime() });
    return reply;
  }

  private token(request: FakeRequest): FakeReply {
    if (!isForm(request)) return { status: 400, body: { error: 'invalid_request', error_description: 'the body must be form-encoded' } };
    const form = new URLSearchParams(request.body);
    if (form.get('grant_type') !== 'client_credentials')
      return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' } };
    if (form.get('client_id') !== this.options.clientId || form.get('client_secret') !== this.options.clientSecret) {
      return { status: 401, body: { error: 'invalid_client', error_description: 'Invalid client id or secret' } };
    }
    const ttl = this.options.tokenTtlSeconds ?? 3599;
    const token = randomBytes(16).toString('hex');
    this.tokens.set(token, this.now().getTime() + ttl * 1000);
    return {
      status: 200,
      body: { access_token: token, token_type: 'bearer', expires_in: ttl, scope: 'entity.1 platform.write', jti: randomBytes(8).toString('hex') },
    };
  }

  private createUsage(text: string): FakeReply {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return this.errorReply(400, 'Malformed JSON', 'MALFORMED_QUERY');
    }
    const account = body.AccountNumber ?? body.AccountId;
    if (typeof account !== 'string' || !account) return this.errorReply(400, 'AccountNumber or AccountId is required', 'MISSING_REQUIRED_VALUE');
    if (typeof body.UOM !== 'string' || !body.UOM) return this.errorReply(400, 'UOM is required', 'MISSING_REQUIRED_VALUE');
    if (typeof body.Quantity !== 'number' || !Number.isFinite(body.Quantity)) return this.errorReply(400, 'Quantity must be a number', 'INVALID_VALUE');
    if (typeof body.StartDateTime !== 'string' || Number.isNaN(Date.parse(body.StartDateTime)))
      return this.errorReply(400, 'StartDateTime is required and must be a date-time', 'INVALID_VALUE');
    const uniqueKey = typeof body.UniqueKey === 'string' ? body.UniqueKey : undefined;
    if (uniqueKey && this.usages.some((u) => u.UniqueKey === uniqueKey))
      return this.errorReply(400, `A usage record with UniqueKey ${uniqueKey} already exists`, 'DUPLICATE_VALUE');
    const usage: Usage = {
      Id: randomBytes(16).toString('hex'),
      AccountNumber: account,
      UOM: body.UOM,
      Quantity: body.Quantity,
      StartDateTime: body.StartDateTime,
      ...(typeof body.SubscriptionNumber === 'string' ? { SubscriptionNumber: body.SubscriptionNumber } : {}),
      ...(typeof body.ChargeNumber === 'string' ? { ChargeNumber: body.ChargeNumber } : {}),
      ...(typeof body.EndDateTime === 'string' ? { EndDateTime: body.EndDateTime } : {}),
      ...(uniqueKey ? { UniqueKey: uniqueKey } : {}),
    };
    this.usages.push(usage);
    return { status: 200, body: { Success: true, Id: usage.Id } };
  }
}
