import type * as z from 'zod';
import { ActionEvent, ApiCallEvent, CompanyProfile, DateTime, HeaderMap, Subscription, UserProfile, isBase64 } from '../../../schemas/collector';
import { normaliseDateTime, parseDateTime } from '../../../values/iso-date-time';
import { REQUIRED_WHEN_MISSING } from '../../../functions/shared/invalid-input';
import { docsExampleEvent, nodeSdkEvent, sdkAction, sdkCompany, sdkSubscription, sdkUser } from './fixtures';

/** The problems zod reports, as "path: message" lines. */
function problems(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value, REQUIRED_WHEN_MISSING);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value, REQUIRED_WHEN_MISSING);
  if (!result.success) throw new Error(`expected a valid value: ${JSON.stringify(result.error.issues)}`);
  return result.data;
}

function withRequest(changes: Record<string, unknown>): Record<string, unknown> {
  const event = nodeSdkEvent();
  return { ...event, request: { ...(event['request'] as object), ...changes } };
}

function withResponse(changes: Record<string, unknown>): Record<string, unknown> {
  const event = nodeSdkEvent();
  return { ...event, response: { ...(event['response'] as object), ...changes } };
}

describe('parseDateTime', () => {
  it.each([
    ['2024-05-01T12:00:00.123Z', '2024-05-01T12:00:00.123Z'],
    ['2024-05-01T12:00:00Z', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01t12:00:00z', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01T14:00:00.5+02:00', '2024-05-01T12:00:00.500Z'],
    ['2024-05-01T06:30:00-0530', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01T09:00:00-03', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01 12:00:00', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01T12:00', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01T12:00:00.123456789', '2024-05-01T12:00:00.123Z'],
    ['2024-05-01T12:00:00,25Z', '2024-05-01T12:00:00.250Z'],
    ['2024-05-01', '2024-05-01T00:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['0050-03-01T00:00:00Z', '0050-03-01T00:00:00.000Z'],
  ])('reads %s as %s (no offset means UTC)', (text, iso) => {
    expect(new Date(parseDateTime(text)!).toISOString()).toBe(iso);
  });

  it.each([
    '',
    'yesterday',
    '1714564800000',
    '2024-5-01T12:00:00Z',
    '2023-02-29T00:00:00Z',
    '2024-04-31T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-05-01T24:00:00Z',
    '2024-05-01T12:60:00Z',
    '2024-05-01T12:00:60Z',
    '2024-05-01T12:00:00.Z',
    '2024-05-01T12:00:00.1234567890Z',
    '2024-05-01T12:00:00+2:00',
    '2024-05-01T12:00:00+24:00',
    '2024-05-01T12:00:00 UTC',
    '2024-05-01Z',
    '2024-05-01T12',
    'Wed, 01 May 2024 12:00:00 GMT',
  ])('refuses %j', (text) => {
    expect(parseDateTime(text)).toBeUndefined();
  });

  it('normalises to what toISOString gives, by every route', () => {
    const texts = [
      '2024-05-01T12:00:00.123Z',
      '2024-05-01T12:00:00Z',
      '2024-05-01 12:00:00.5',
      '0099-12-31T23:59:59,999999',
      '2024-05-01T12:00:00-11:30',
      '2024-05-01',
    ];
    for (const text of texts) expect(normaliseDateTime(text)).toBe(new Date(parseDateTime(text)!).toISOString());
    expect(normaliseDateTime('2024-02-30T12:00:00.123Z')).toBeUndefined();
    expect(parsed(DateTime, '2024-05-01T12:00:00.123Z')).toBe('2024-05-01T12:00:00.123Z');
  });

  it('refuses epoch numbers with a date-time message', () => {
    expect(problems(DateTime, 1714564800000)).toEqual([': expected an ISO 8601 date-time string']);
    expect(problems(DateTime, 'soon')).toEqual([': expected an ISO 8601 date-time such as 2024-05-01T12:00:00.000Z']);
  });
});

describe('isBase64', () => {
  it.each(['', 'aGVsbG8=', 'aGVsbG8h', 'aGk=', 'YQ==', '+/+/'])('accepts %j', (text) => expect(isBase64(text)).toBe(true));
  it.each(['aGVsbG8', 'aGVsbG8===', 'aGV sbG8=', 'aGVs-G8=', 'a=VsbG8h', 'aGVsbG8h\n', '====', 'Y==='])('refuses %j', (text) =>
    expect(isBase64(text)).toBe(false),
  );
  it('checks a large body in linear time without overflowing the regex stack', () => {
    expect(isBase64('QUJD'.repeat(3_000_000))).toBe(true);
  });
});

describe('HeaderMap', () => {
  it('keeps an all-string map as the same object', () => {
    const headers = { host: 'a', accept: '*/*' };
    expect(parsed(HeaderMap, headers)).toBe(headers);
  });

  it('turns numbers and booleans into strings and joins arrays with ", "', () => {
    expect(parsed(HeaderMap, { a: 'x', 'content-length': 27, dnt: true, 'set-cookie': ['a=1', 'b=2'], vary: [] })).toEqual({
      a: 'x',
      'content-length': '27',
      dnt: 'true',
      'set-cookie': 'a=1, b=2',
      vary: '',
    });
  });

  it('drops null values', () => {
    expect(parsed(HeaderMap, { a: 'x', b: null, c: 'y' })).toEqual({ a: 'x', c: 'y' });
  });

  it('keeps a header named __proto__ as data', () => {
    const headers = JSON.parse('{"__proto__": 5, "a": "b"}');
    const result = parsed(HeaderMap, headers);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(JSON.stringify(result)).toBe('{"__proto__":"5","a":"b"}');
  });

  it('names each header whose value is not a string, number, boolean or flat array of those', () => {
    expect(problems(HeaderMap, { good: 'x', nested: { a: 1 }, deep: [['a']] })).toEqual([
      'nested: a header value must be a string, number, boolean or an array of those',
      'deep: a header value must be a string, number, boolean or an array of those',
    ]);
  });

  it('requires an object', () => {
    expect(problems(HeaderMap, ['a'])).toEqual([': expected an object mapping header names to values']);
    expect(problems(HeaderMap, 'host: a')).toHaveLength(1);
  });
});

describe('ApiCallEvent', () => {
  it('accepts what moesif-nodejs sends and normalises its headers', () => {
    const event = parsed(ApiCallEvent, nodeSdkEvent());
    expect(event.response?.headers).toMatchObject({ 'content-length': '27', 'set-cookie': 'a=1; Path=/, b=2; Path=/' });
    expect(event.request.transfer_encoding).toBe('json');
  });

  it('accepts the public docs example: dates without offset (UTC), transfer_encoding ""', () => {
    const event = parsed(ApiCallEvent, docsExampleEvent());
    expect(event.request.time).toBe('2024-05-01T11:59:58.914Z');
    expect(event.response?.time).toBe('2024-05-01T11:59:59.001Z');
    expect(event.request.transfer_encoding).toBe('json');
    expect(event.response?.transfer_encoding).toBe('json');
  });

  it('requires request with time, uri, verb and headers', () => {
    expect(problems(ApiCallEvent, { response: null })).toEqual(['request: is required']);
    expect(problems(ApiCallEvent, { request: {} })).toEqual([
      'request.time: is required',
      'request.uri: is required',
      'request.verb: is required',
      'request.headers: is required',
    ]);
  });

  it('refuses empty uri and verb', () => {
    expect(problems(ApiCallEvent, withRequest({ uri: '', verb: '' }))).toEqual(['request.uri: must not be empty', 'request.verb: must not be empty']);
  });

  it('normalises request.time to UTC', () => {
    expect(parsed(ApiCallEvent, withRequest({ time: '2024-05-01T13:59:58+02:00' })).request.time).toBe('2024-05-01T11:59:58.000Z');
    expect(problems(ApiCallEvent, withRequest({ time: 1714564798000 }))).toEqual(['request.time: expected an ISO 8601 date-time string']);
  });

  it('allows requests and responses without a body', () => {
    const event = nodeSdkEvent();
    delete (event['request'] as Record<string, unknown>)['body'];
    delete (event['response'] as Record<string, unknown>)['body'];
    expect(problems(ApiCallEvent, event)).toEqual([]);
  });

  it('takes any JSON value as a json body', () => {
    for (const body of ['plain text', 42, [1, 2], { a: { b: null } }, true, null]) {
      expect(parsed(ApiCallEvent, withRequest({ body })).request.body).toEqual(body);
    }
  });

  it('takes valid base64 text as a base64 body and refuses anything else', () => {
    expect(parsed(ApiCallEvent, withRequest({ transfer_encoding: 'base64', body: 'aGVsbG8=' })).request.body).toBe('aGVsbG8=');
    expect(parsed(ApiCallEvent, withResponse({ transfer_encoding: 'base64', body: '' })).response?.body).toBe('');
    expect(problems(ApiCallEvent, withRequest({ transfer_encoding: 'base64', body: 'not base64!' }))).toEqual([
      'request.body: is not valid base64 (standard alphabet, padded to a multiple of 4 characters)',
    ]);
    expect(problems(ApiCallEvent, withResponse({ transfer_encoding: 'base64', body: { a: 1 } }))).toEqual([
      'response.body: with transfer_encoding base64 the body must be a base64 string',
    ]);
  });

  it('defaults transfer_encoding to json and refuses other encodings', () => {
    const event = nodeSdkEvent();
    delete (event['request'] as Record<string, unknown>)['transfer_encoding'];
    expect(parsed(ApiCallEvent, event).request.transfer_encoding).toBe('json');
    expect(problems(ApiCallEvent, withRequest({ transfer_encoding: 'gzip' }))).toEqual(['request.transfer_encoding: must be json or base64']);
  });

  it('allows the response to be absent or null', () => {
    const { response: _response, ...withoutResponse } = nodeSdkEvent();
    expect(parsed(ApiCallEvent, withoutResponse).response).toBeUndefined();
    expect(parsed(ApiCallEvent, { ...withoutResponse, response: null }).response).toBeNull();
  });

  it('requires time, status and headers of a given response', () => {
    expect(problems(ApiCallEvent, { ...nodeSdkEvent(), response: {} })).toEqual([
      'response.time: is required',
      'response.status: is required',
      'response.headers: is required',
    ]);
  });

  it.each([
    [99, 'must be an HTTP status code 100–599'],
    [600, 'must be an HTTP status code 100–599'],
    [200.5, 'must be an integer'],
    ['200', 'must be an integer'],
  ])('refuses response.status %j', (status, message) => {
    expect(problems(ApiCallEvent, withResponse({ status }))).toEqual([`response.status: ${message}`]);
  });

  it.each([100, 599])('accepts response.status %j', (status) => {
    expect(parsed(ApiCallEvent, withResponse({ status })).response?.status).toBe(status);
  });

  it('accepts a span and checks its fields', () => {
    const span = { id: 'b7ad6b7169203331', parent_id: '0af7651916cd43dd', links: [{ trace_id: 'x' }], status: 1, kind: 'server' };
    expect(parsed(ApiCallEvent, { ...nodeSdkEvent(), span }).span).toEqual(span);
    expect(problems(ApiCallEvent, { ...nodeSdkEvent(), span: { status: 'ok', links: {} } })).toEqual([
      'span.links: Invalid input: expected array, received object',
      'span.status: Invalid input: expected number, received string',
    ]);
  });

  it('requires transaction_id to be exactly 36 characters', () => {
    const id = '0f5d1a9e-7c1b-4a8e-9d7e-3b8e5f2a1c44';
    expect(parsed(ApiCallEvent, nodeSdkEvent({ transaction_id: id })).transaction_id).toBe(id);
    expect(problems(ApiCallEvent, nodeSdkEvent({ transaction_id: id.slice(1) }))).toEqual(['transaction_id: must be exactly 36 characters (a UUID)']);
    expect(problems(ApiCallEvent, nodeSdkEvent({ transaction_id: `${id}0` }))).toEqual(['transaction_id: must be exactly 36 characters (a UUID)']);
  });

  it('refuses empty ids and accepts null ones', () => {
    expect(problems(ApiCallEvent, nodeSdkEvent({ user_id: '', company_id: '', subscription_id: '' }))).toEqual([
      'user_id: must not be empty',
      'company_id: must not be empty',
      'subscription_id: must not be empty',
    ]);
    expect(problems(ApiCallEvent, nodeSdkEvent({ user_id: null, company_id: null, session_token: null }))).toEqual([]);
  });

  it('accepts the three directions only', () => {
    for (const direction of ['Incoming', 'Outgoing', 'Internal']) expect(problems(ApiCallEvent, nodeSdkEvent({ direction }))).toEqual([]);
    expect(problems(ApiCallEvent, nodeSdkEvent({ direction: 'incoming' }))).toHaveLength(1);
  });

  it('defaults weight to 1 and requires a positive integer', () => {
    expect(parsed(ApiCallEvent, nodeSdkEvent({ weight: undefined })).weight).toBe(1);
    expect(parsed(ApiCallEvent, nodeSdkEvent({ weight: null })).weight).toBe(1);
    expect(parsed(ApiCallEvent, nodeSdkEvent({ weight: 20 })).weight).toBe(20);
    expect(problems(ApiCallEvent, nodeSdkEvent({ weight: 0 }))).toEqual(['weight: must be a positive integer']);
    expect(problems(ApiCallEvent, nodeSdkEvent({ weight: 1.5 }))).toEqual(['weight: must be an integer']);
  });

  it('takes metadata as an object or null', () => {
    expect(parsed(ApiCallEvent, nodeSdkEvent({ metadata: null })).metadata).toBeNull();
    expect(problems(ApiCallEvent, nodeSdkEvent({ metadata: ['a'] }))).toEqual(['metadata: expected a JSON object']);
    expect(problems(ApiCallEvent, nodeSdkEvent({ metadata: 'a' }))).toEqual(['metadata: expected a JSON object']);
  });

  it('keeps keys it does not know, at every level', () => {
    const event = nodeSdkEvent({ tags: 'a,b', blocked_by: 'rule-1' });
    (event['request'] as Record<string, unknown>)['route'] = '/items/{id}';
    const result = parsed(ApiCallEvent, event) as Record<string, unknown>;
    expect(result).toMatchObject({ tags: 'a,b', blocked_by: 'rule-1', request: { route: '/items/{id}' } });
  });
});

describe('ActionEvent', () => {
  it('accepts an SDK action without request.time', () => {
    expect(parsed(ActionEvent, sdkAction()).request.time).toBeUndefined();
  });

  it('requires action_name and request.uri', () => {
    expect(problems(ActionEvent, { request: {} })).toEqual(['action_name: is required', 'request.uri: is required']);
    expect(problems(ActionEvent, sdkAction({ action_name: '' }))).toEqual(['action_name: must not be empty']);
    expect(problems(ActionEvent, { action_name: 'x' })).toEqual(['request: is required']);
  });

  it('normalises a given request.time and checks transaction_id', () => {
    const action = sdkAction({ transaction_id: 'short' });
    (action['request'] as Record<string, unknown>)['time'] = '2024-05-01T08:00:00-04:00';
    expect(problems(ActionEvent, action)).toEqual(['transaction_id: must be exactly 36 characters (a UUID)']);
    delete action['transaction_id'];
    expect(parsed(ActionEvent, action).request.time).toBe('2024-05-01T12:00:00.000Z');
  });
});

describe('UserProfile', () => {
  it('accepts the SDK shape: modified_time null, campaign {}', () => {
    const user = parsed(UserProfile, sdkUser());
    expect(user.modified_time).toBeNull();
    expect(user.campaign).toEqual({});
    expect((user as Record<string, unknown>)['user_agent_string']).toBeNull();
  });

  it('requires a non-empty user_id', () => {
    expect(problems(UserProfile, { metadata: {} })).toEqual(['user_id: is required (an anonymous visitor is sent with anonymous_id instead)']);
    expect(problems(UserProfile, { user_id: null, anonymous_id: null })).toEqual([
      'user_id: is required (an anonymous visitor is sent with anonymous_id instead)',
    ]);
    expect(problems(UserProfile, { user_id: '' })).toEqual(['user_id: must not be empty']);
    expect(problems(UserProfile, { user_id: 12345 })).toEqual(['user_id: Invalid input: expected string, received number']);
  });

  it('accepts an anonymous visitor as moesif-browser-js sends it, and checks its id', () => {
    expect(parsed(UserProfile, { anonymous_id: 'a1b2c3', campaign: {} })).toEqual({ anonymous_id: 'a1b2c3', campaign: {} });
    expect(parsed(UserProfile, { user_id: 'ada', anonymous_id: 'a1b2c3' })).toMatchObject({ user_id: 'ada', anonymous_id: 'a1b2c3' });
    expect(problems(UserProfile, { anonymous_id: '' })).toEqual(['anonymous_id: must not be empty']);
    expect(problems(UserProfile, { anonymous_id: 7 })).toEqual(['anonymous_id: Invalid input: expected string, received number']);
  });

  it('normalises modified_time and checks campaign fields', () => {
    expect(parsed(UserProfile, sdkUser({ modified_time: '2024-05-01T14:00:00+02:00' })).modified_time).toBe('2024-05-01T12:00:00.000Z');
    expect(problems(UserProfile, sdkUser({ campaign: { utm_source: 3 } }))).toEqual(['campaign.utm_source: Invalid input: expected string, received number']);
    expect(parsed(UserProfile, sdkUser({ campaign: { utm_term: 'api', referrer: 'https://x' } })).campaign).toEqual({ utm_term: 'api', referrer: 'https://x' });
  });
});

describe('CompanyProfile', () => {
  it('accepts the SDK shape and normalises modified_time with an offset', () => {
    const company = parsed(CompanyProfile, sdkCompany());
    expect(company.modified_time).toBe('2024-05-01T08:00:00.000Z');
    expect(company.company_domain).toBe('acmeinc.com');
  });

  it('requires company_id', () => {
    expect(problems(CompanyProfile, { company_domain: 'acmeinc.com' })).toEqual(['company_id: is required']);
  });
});

describe('Subscription', () => {
  it('accepts the SDK shape and normalises its dates', () => {
    const subscription = parsed(Subscription, sdkSubscription());
    expect(subscription.current_period_end).toBe('2024-06-01T00:00:00.000Z');
    expect(subscription.items?.[0]?.created_at).toBe('2024-04-01T00:00:00.000Z');
  });

  it('requires subscription_id, company_id and a known status', () => {
    expect(problems(Subscription, {})).toEqual(['subscription_id: is required', 'company_id: is required', 'status: is required']);
    for (const status of ['active', 'cancelled', 'paused', 'trialing', 'pending', 'draft', 'future']) {
      expect(problems(Subscription, sdkSubscription({ status }))).toEqual([]);
    }
    expect(problems(Subscription, sdkSubscription({ status: 'past_due' }))).toHaveLength(1);
  });

  it('checks each item by position', () => {
    expect(problems(Subscription, sdkSubscription({ items: [{ plan_id: 'p' }, { plan_id: '', created_at: 'later' }] }))).toEqual([
      'items.1.plan_id: must not be empty',
      'items.1.created_at: expected an ISO 8601 date-time such as 2024-05-01T12:00:00.000Z',
    ]);
  });
});
