import { FakeStripeCatalog } from './fake-stripe-catalog';
import { addTo, FakeProviderServer, header, isForm, parseIntegerText, type FakeReply, type FakeRequest, type FakeServerOptions } from './fake-server';

/**
 * Stripe Billing Meters, as much as the usage call needs: `POST /v1/billing/meter_events` with a
 * secret key, form-encoded `event_name`, `payload[...]`, `identifier`, `timestamp`. Idempotency as
 * Stripe documents it: a repeated `Idempotency-Key` replays the first answer (`Idempotent-Replayed:
 * true`) and refuses different parameters; a repeated `identifier` is accepted and not counted again.
 */
export interface FakeStripeOptions extends FakeServerOptions {
  readonly apiKey: string;
  /** Meter payload keys (Stripe's defaults). */
  readonly customerPayloadKey?: string;
  readonly valuePayloadKey?: string;
}

export interface StripeMeterEvent {
  readonly event_name: string;
  readonly identifier: string;
  readonly customer: string;
  readonly value: bigint;
  readonly timestamp: number;
}

const MAX_PAST_SECONDS = 35 * 86_400;
const MAX_FUTURE_SECONDS = 300;

export class FakeStripe extends FakeProviderServer {
  private readonly idempotent = new Map<string, { body: string; reply: FakeReply }>();
  private readonly identifiers = new Set<string>();
  private readonly accepted: StripeMeterEvent[] = [];
  /** Products, prices, customers and subscriptions, listed as Stripe lists them (what a sync in reads). */
  readonly catalog: FakeStripeCatalog;

  constructor(private readonly options: FakeStripeOptions) {
    super(options);
    this.catalog = new FakeStripeCatalog(() => this.now());
  }

  private readonly meters = new Map<string, string>();

  /** A Stripe meter summing the events named `eventName` (what reconciliation reads back). */
  addMeter(id: string, eventName: string): this {
    this.meters.set(id, eventName);
    return this;
  }

  /** An event recorded at Stripe that the service did not send (drift planted at the provider). */
  plantEvent(event: Omit<StripeMeterEvent, 'identifier'>): void {
    this.accepted.push({ ...event, identifier: `planted_${this.accepted.length + 1}` });
  }

  /** Events counted (duplicates by identifier left out). */
  events(): StripeMeterEvent[] {
    return [...this.accepted];
  }

  /** Sum of values per Stripe customer. */
  totals(): Record<string, bigint> {
    const totals = new Map<string, bigint>();
    for (const event of this.accepted) addTo(totals, event.customer, event.value);
    return Object.fromEntries(totals);
  }

  protected isUsageRequest(request: FakeRequest): boolean {
    return request.method === 'POST' && request.path === '/v1/billing/meter_events';
  }

  protected errorReply(status: number, message: string, code: string): FakeReply {
    const type = status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
    return { status, body: { error: { type, code, message } } };
  }

  protected handle(request: FakeRequest): FakeReply {
    if (request.headers.authorization !== `Bearer ${this.options.apiKey}`) {
      return { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } };
    }
    const listed = this.catalog.list(request);
    if (listed) return listed;
    const metered = this.meterRead(request);
    if (metered) return metered;
    if (!this.isUsageRequest(request)) return this.errorReply(404, `Unrecognized request URL (${request.method}: ${request.path})`, 'resource_missing');
    if (!isForm(request)) return this.errorReply(400, 'Stripe expects a form-encoded body', 'parameter_invalid');

    const key = header(request, 'idempotency-key');
    if (key) {
      const seen = this.idempotent.get(key);
      if (seen && seen.body !== request.body) {
        return {
          status: 400,
          body: {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          },
        };
      }
      if (seen) return { ...seen.reply, headers: { ...seen.reply.headers, 'idempotent-replayed': 'true' } };
    }
    const reply = this.createEvent(new URLSearchParams(request.body));
    // Stripe saves the result once the endpoint ran, failures included.
    if (key) this.idempotent.set(key, { body: request.body, reply });
    return reply;
  }

  private createEvent(form: URLSearchParams): FakeReply {
    const customerKey = this.options.customerPayloadKey ?? 'stripe_customer_id';
    const valueKey = this.options.valuePayloadKey ?? 'value';
    const eventName = form.get('event_name');
    if (!eventName) return this.missing('event_name');
    const customer = form.get(`payload[${customerKey}]`);
    if (!customer) return this.missing(`payload[${customerKey}]`);
    const valueText = form.get(`payload[${valueKey}]`);
    if (valueText === null) return this.missing(`payload[${valueKey}]`);
    const value = parseIntegerText(valueText);
    if (value === undefined) return this.errorReply(400, `Invalid value for payload[${valueKey}]: must be a whole number`, 'parameter_invalid_integer');
    const identifier = form.get('identifier') ?? `auto_${this.accepted.length + 1}`;
    if (identifier.length > 100) return this.errorReply(400, 'identifier is longer than 100 characters', 'parameter_invalid_string_too_long');
    const nowSeconds = Math.floor(this.now().getTime() / 1000);
    const timestamp = form.has('timestamp') ? Number(form.get('timestamp')) : nowSeconds;
    if (!Number.isInteger(timestamp)) return this.errorReply(400, 'Invalid integer: timestamp', 'parameter_invalid_integer');
    if (timestamp < nowSeconds - MAX_PAST_SECONDS || timestamp > nowSeconds + MAX_FUTURE_SECONDS) {
      return this.errorReply(400, 'Timestamp must be within the past 35 calendar days or up to 5 minutes in the future', 'parameter_invalid_integer');
    }
    // Stripe drops events whose identifier it has seen; the call itself still succeeds.
    if (!this.identifiers.has(identifier)) {
      this.identifiers.add(identifier);
      this.accepted.push({ event_name: eventName, identifier, customer, value, timestamp });
    }
    return {
      status: 200,
      body: {
        object: 'billing.meter_event',
        created: nowSeconds,
        event_name: eventName,
        identifier,
        livemode: false,
        payload: { [customerKey]: customer, [valueKey]: valueText },
        timestamp,
      },
    };
  }

  /** `GET /v1/billing/meters` and `GET /v1/billing/meters/{id}/event_summaries` (one summary over the whole range). */
  private meterRead(request: FakeRequest): FakeReply | undefined {
    if (request.method !== 'GET') return undefined;
    if (request.path === '/v1/billing/meters') {
      const data = [...this.meters].map(([id, event_name]) => ({
        id,
        object: 'billing.meter',
        event_name,
        status: 'active',
        default_aggregation: { formula: 'sum' },
      }));
      return { status: 200, body: { object: 'list', url: '/v1/billing/meters', has_more: false, data } };
    }
    const summaries = /^\/v1\/billing\/meters\/([^/]+)\/event_summaries$/.exec(request.path);
    if (!summaries) return undefined;
    const meter = summaries[1]!;
    const eventName = this.meters.get(meter);
    if (!eventName) return this.errorReply(404, `No such billing meter: '${meter}'`, 'resource_missing');
    const customer = request.query.get('customer');
    const start = Number(request.query.get('start_time'));
    const end = Number(request.query.get('end_time'));
    if (!customer) return this.missing('customer');
    if (!Number.isInteger(start) || !Number.isInteger(end) || start % 60 !== 0 || end % 60 !== 0) {
      return this.errorReply(400, 'start_time and end_time must be whole minutes', 'parameter_invalid_integer');
    }
    const value = this.accepted
      .filter((e) => e.event_name === eventName && e.customer === customer && e.timestamp >= start && e.timestamp < end)
      .reduce((sum, e) => sum + e.value, 0n);
    const data = [
      {
        id: `mtrusg_${meter}_${customer}`,
        object: 'billing.meter_event_summary',
        aggregated_value: Number(value),
        start_time: start,
        end_time: end,
        meter,
        livemode: false,
      },
    ];
    return { status: 200, body: { object: 'list', url: request.path, has_more: false, data } };
  }

  private missing(parameter: string): FakeReply {
    return this.errorReply(400, `Missing required param: ${parameter}.`, 'parameter_missing');
  }
}
