import type { NormaliseContext } from '../../../functions/ingest/collector/normalise';

/** The moment the collector "received" every test body. */
export const RECEIVED_AT = new Date('2024-05-01T12:00:00.000Z');

export function context(overrides: Partial<NormaliseContext> = {}): NormaliseContext {
  return { receivedAt: RECEIVED_AT, sourceIp: '198.51.100.7', backfillEnabled: false, ...overrides };
}

/** `ms` milliseconds before RECEIVED_AT, as the ISO text an SDK sends. */
export function receivedBefore(ms: number): string {
  return new Date(RECEIVED_AT.getTime() - ms).toISOString();
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const DAY = 24 * 60 * MINUTE;

/**
 * An API call shaped like what moesif-nodejs sends for an Express request: header names lower-cased
 * by Node, response headers from `res.getHeaders()` (a number and an array among them), dates from
 * `new Date()` serialised with milliseconds, JSON bodies already parsed, plus the SDK's own extras.
 */
export function nodeSdkEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    request: {
      time: receivedBefore(2 * SECOND),
      uri: 'https://api.acmeinc.com/items/12345/reviews?sort=new',
      verb: 'POST',
      headers: {
        host: 'api.acmeinc.com',
        'user-agent': 'curl/8.4.0',
        accept: '*/*',
        'content-type': 'application/json',
        'content-length': '52',
        authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig',
      },
      body: { items: [{ item_id: 'fwdsfrf', liked: false }] },
      transfer_encoding: 'json',
      ip_address: '61.48.220.123',
    },
    response: {
      time: receivedBefore(1 * SECOND),
      status: 201,
      headers: {
        'x-powered-by': 'Express',
        'content-type': 'application/json; charset=utf-8',
        'content-length': 27,
        'set-cookie': ['a=1; Path=/', 'b=2; Path=/'],
        'x-moesif-transaction-id': '0f5d1a9e-7c1b-4a8e-9d7e-3b8e5f2a1c44',
      },
      body: { id: 'rev_1', status: 'created' },
      transfer_encoding: 'json',
    },
    user_id: 'my_user_id',
    company_id: 'my_company_id',
    metadata: { plan: 'pro' },
    direction: 'Incoming',
    weight: 1,
    ...overrides,
  };
}

/** An API call as the public API docs show it: no offset on dates, `transfer_encoding: ""`. */
export function docsExampleEvent(): Record<string, unknown> {
  return {
    request: {
      time: '2024-05-01T11:59:58.914',
      uri: 'https://api.acmeinc.com/items/12345/reviews/',
      verb: 'POST',
      api_version: '1.1.0',
      ip_address: '61.48.220.123',
      headers: { Host: 'api.acmeinc.com', Accept: '*/*', 'Content-Type': 'application/json', 'Content-Length': '126' },
      body: { items: [{ direction_type: 1, item_id: 'hello', liked: false }] },
      transfer_encoding: '',
    },
    response: {
      time: '2024-05-01T11:59:59.001',
      status: 500,
      headers: { Vary: 'Accept-Encoding', 'Content-Type': 'application/json; charset=utf-8' },
      body: { Error: 'InvalidArgumentException', Message: 'Missing field location' },
      transfer_encoding: '',
    },
    user_id: '12345',
    company_id: '67890',
    transaction_id: 'a3765025-46ec-45dd-bc83-b136c8d1d257',
    metadata: { some_string: 'I am a string', some_int: 77 },
  };
}

/** A user update as the moesif SDK models serialise it: unset dates become null, empty campaign. */
export function sdkUser(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    user_id: '12345',
    company_id: '67890',
    modified_time: null,
    ip_address: null,
    session_token: null,
    user_agent_string: null,
    campaign: {},
    metadata: { email: 'john@acmeinc.com', first_name: 'John', last_name: 'Doe' },
    ...overrides,
  };
}

export function sdkCompany(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    company_id: '67890',
    company_domain: 'acmeinc.com',
    modified_time: '2024-05-01T10:00:00+02:00',
    campaign: { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'adwords' },
    metadata: { org_name: 'Acme, Inc', plan_name: 'Free' },
    ...overrides,
  };
}

export function sdkSubscription(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    subscription_id: 'sub_12345',
    company_id: '67890',
    status: 'active',
    current_period_start: '2024-05-01T00:00:00Z',
    current_period_end: '2024-06-01T00:00:00Z',
    items: [
      {
        plan_id: 'plan_pro',
        price_id: 'price_1',
        subscription_item_id: 'si_1',
        unit_of_measure: 'api_calls',
        created_at: '2024-04-01T00:00:00.000Z',
        metadata: {},
      },
    ],
    metadata: { source: 'stripe' },
    ...overrides,
  };
}

export function sdkAction(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    action_name: 'Clicked Sign Up',
    session_token: '23jdf0owekfmcn4u3qypxg09w4d8ayrcdx8nu2ng]s98y18cx98q3yhwmnhcfx43f',
    user_id: '12345',
    company_id: '67890',
    metadata: { button_label: 'Get Started' },
    request: {
      uri: 'https://acmeinc.com/pricing',
      ip_address: '199.2.232.2',
      user_agent_string: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)',
    },
    ...overrides,
  };
}
