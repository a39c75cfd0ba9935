import { normaliseItems, type NormaliseContext } from '../../../functions/ingest/collector/normalise';
import { PayloadTooLargeError, ValidationError, type FieldIssue } from '../../../functions/shared/errors';
import type { RecordKind, StreamItem } from '../../../schemas/stream-record';
import { DAY, MINUTE, RECEIVED_AT, receivedBefore, context, docsExampleEvent, nodeSdkEvent, sdkAction, sdkCompany, sdkSubscription, sdkUser } from './fixtures';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function one(kind: RecordKind, body: unknown, ctx: NormaliseContext = context()): StreamItem {
  const items = normaliseItems(kind, body, { batch: false }, ctx);
  expect(items).toHaveLength(1);
  return items[0]!;
}

function batch(kind: RecordKind, body: unknown, ctx: NormaliseContext = context()): StreamItem[] {
  return normaliseItems(kind, body, { batch: true }, ctx);
}

/** The error normaliseItems throws for this body. */
function rejection(kind: RecordKind, body: unknown, options: { batch: boolean }, ctx: NormaliseContext = context()): ValidationError | PayloadTooLargeError {
  try {
    normaliseItems(kind, body, options, ctx);
  } catch (error) {
    if (error instanceof ValidationError || error instanceof PayloadTooLargeError) return error;
    throw error;
  }
  throw new Error('expected the body to be rejected');
}

function request(item: StreamItem): Record<string, unknown> {
  return item.data['request'] as Record<string, unknown>;
}

function eventAt(time: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const event = nodeSdkEvent(overrides);
  (event['request'] as Record<string, unknown>)['time'] = time;
  return event;
}

function eventWithHeaders(headers: Record<string, string>, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const event = nodeSdkEvent(overrides);
  (event['request'] as Record<string, unknown>)['headers'] = headers;
  return event;
}

describe('normaliseItems: body shape', () => {
  it('requires a JSON array on batch endpoints', () => {
    const error = rejection('event', nodeSdkEvent(), { batch: true });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details).toEqual([{ field: 'body', reason: 'expected a JSON array, received an object' }]);
  });

  it('requires a JSON object on single endpoints, pointing arrays to /batch', () => {
    const error = rejection('user', [sdkUser()], { batch: false });
    expect(error.message).toContain('/batch');
    expect(error.details).toEqual([{ field: 'body', reason: 'expected a JSON object, received an array' }]);
    expect(rejection('user', 'user_id=1', { batch: false }).details).toEqual([{ field: 'body', reason: 'expected a JSON object, received a string' }]);
    expect(rejection('user', null, { batch: false }).details).toEqual([{ field: 'body', reason: 'expected a JSON object, received null' }]);
  });

  it('accepts an empty batch as a no-op', () => {
    expect(batch('event', [])).toEqual([]);
  });

  it('reports a batch entry that is not an object under its index', () => {
    expect(rejection('user', [sdkUser(), 'x'], { batch: true }).details).toEqual([
      { index: 1, field: 'item', reason: 'Invalid input: expected object, received string' },
    ]);
  });
});

describe('normaliseItems: all-or-nothing errors', () => {
  it('lists every bad item of a batch by index and field path, and accepts nothing', () => {
    const body = [nodeSdkEvent(), eventAt('not a date'), nodeSdkEvent({ weight: 0 }), nodeSdkEvent(), { ...nodeSdkEvent(), request: { uri: 'https://x' } }];
    const error = rejection('event', body, { batch: true });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.status).toBe(400);
    expect(error.message).toBe('3 of 5 items in the batch are invalid; nothing was accepted');
    expect(error.details).toEqual<FieldIssue[]>([
      { index: 1, field: 'request.time', reason: 'expected an ISO 8601 date-time such as 2024-05-01T12:00:00.000Z' },
      { index: 2, field: 'weight', reason: 'must be a positive integer' },
      { index: 4, field: 'request.time', reason: 'is required' },
      { index: 4, field: 'request.verb', reason: 'is required' },
      { index: 4, field: 'request.headers', reason: 'is required' },
    ]);
  });

  it('lists nested paths of profiles with array positions', () => {
    const error = rejection('subscription', [sdkSubscription(), sdkSubscription({ items: [{ plan_id: 'a' }, { created_at: 5 }] })], { batch: true });
    expect(error.details).toEqual([{ index: 1, field: 'items[1].created_at', reason: 'expected an ISO 8601 date-time string' }]);
  });

  it('leaves index out for single bodies', () => {
    const error = rejection('user', { user_id: '' }, { batch: false });
    expect(error.message).toBe('The user profile is invalid; nothing was accepted');
    expect(error.details).toEqual([{ field: 'user_id', reason: 'must not be empty' }]);
  });

  it('caps the listed problems at 100 and says so', () => {
    const body = Array.from({ length: 150 }, () => ({ user_id: 7 }));
    const error = rejection('user', body, { batch: true });
    expect(error.details).toHaveLength(100);
    expect(error.details[99]).toEqual({ index: 99, field: 'user_id', reason: 'Invalid input: expected string, received number' });
    expect(error.message).toBe('150 of 150 items in the batch are invalid; nothing was accepted (the first 100 of 150 problems are listed)');
  });

  it('lists age problems together with schema problems', () => {
    const error = rejection('action', [sdkAction({ action_name: '' }), { ...sdkAction(), request: { uri: 'https://x', time: receivedBefore(40 * DAY) } }], {
      batch: true,
    });
    expect(error.details.map((issue) => `${issue.index} ${issue.field}`)).toEqual(['0 action_name', '1 request.time']);
  });

  it('prefers the 400 over a 413 when a batch has both problems', () => {
    const huge = eventWithHeaders({ cookie: 'x'.repeat(1_100_000) });
    const error = rejection('event', [huge, nodeSdkEvent({ user_id: '' })], { batch: true });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details).toEqual([{ index: 1, field: 'user_id', reason: 'must not be empty' }]);
  });
});

describe('normaliseItems: ids', () => {
  it('uses transaction_id as the event id', () => {
    const id = 'a3765025-46ec-45dd-bc83-b136c8d1d257';
    expect(one('event', nodeSdkEvent({ transaction_id: id })).id).toBe(id);
    expect(one('action', sdkAction({ transaction_id: id })).id).toBe(id);
  });

  it('generates a UUID per event without one, once, here', () => {
    const items = batch('event', [nodeSdkEvent(), nodeSdkEvent(), nodeSdkEvent({ transaction_id: null })]);
    for (const item of items) expect(item.id).toMatch(UUID);
    expect(new Set(items.map((item) => item.id)).size).toBe(3);
    expect(one('action', sdkAction()).id).toMatch(UUID);
  });

  it('uses the profile id for profiles', () => {
    expect(one('user', sdkUser()).id).toBe('12345');
    expect(one('company', sdkCompany()).id).toBe('67890');
    expect(one('subscription', sdkSubscription()).id).toBe('sub_12345');
  });
});

describe('normaliseItems: times', () => {
  it('dates an event by request.time in UTC and stamps received_at', () => {
    const item = one('event', eventAt('2024-05-01T13:59:00+02:00'));
    expect(item.time).toBe('2024-05-01T11:59:00.000Z');
    expect(request(item)['time']).toBe('2024-05-01T11:59:00.000Z');
    expect(item.received_at).toBe(RECEIVED_AT.toISOString());
  });

  it('sets an action request.time to the reception time when unset', () => {
    const item = one('action', sdkAction());
    expect(item.time).toBe(RECEIVED_AT.toISOString());
    expect(request(item)['time']).toBe(RECEIVED_AT.toISOString());
    expect(item.late).toBe(false);
  });

  it('keeps a given action request.time', () => {
    const action = sdkAction();
    (action['request'] as Record<string, unknown>)['time'] = receivedBefore(MINUTE);
    expect(one('action', action).time).toBe(receivedBefore(MINUTE));
  });

  it('dates profiles at reception and never marks them late', () => {
    for (const [kind, body] of [
      ['user', sdkUser()],
      ['company', sdkCompany()],
      ['subscription', sdkSubscription()],
    ] as const) {
      const item = one(kind, body);
      expect(item.time).toBe(RECEIVED_AT.toISOString());
      expect(item.received_at).toBe(RECEIVED_AT.toISOString());
      expect(item.late).toBeUndefined();
    }
  });
});

describe('normaliseItems: event age', () => {
  it('marks events older than 5 minutes late', () => {
    expect(one('event', eventAt(receivedBefore(5 * MINUTE + 1))).late).toBe(true);
    expect(one('event', eventAt(receivedBefore(5 * MINUTE))).late).toBe(false);
    expect(one('event', eventAt(receivedBefore(4 * MINUTE))).late).toBe(false);
  });

  it('marks late actions too', () => {
    const action = sdkAction();
    (action['request'] as Record<string, unknown>)['time'] = receivedBefore(6 * MINUTE);
    expect(one('action', action).late).toBe(true);
  });

  it('refuses events older than 30 days, naming request.time and backfill', () => {
    expect(one('event', eventAt(receivedBefore(30 * DAY))).late).toBe(true);
    const error = rejection('event', eventAt(receivedBefore(30 * DAY + 1)), { batch: false });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details).toHaveLength(1);
    expect(error.details[0]!.field).toBe('request.time');
    expect(error.details[0]!.reason).toContain('backfill');
  });

  it('refuses old actions the same way', () => {
    const action = sdkAction();
    (action['request'] as Record<string, unknown>)['time'] = receivedBefore(31 * DAY);
    expect(rejection('action', [action], { batch: true }).details[0]).toMatchObject({ index: 0, field: 'request.time' });
  });

  it('accepts old events when the app has backfill enabled, marked late', () => {
    const item = one('event', eventAt(receivedBefore(400 * DAY)), context({ backfillEnabled: true }));
    expect(item.late).toBe(true);
  });

  it('refuses events dated more than 24 hours ahead, and accepts small clock skew', () => {
    expect(one('event', eventAt(receivedBefore(-23 * 60 * MINUTE))).late).toBe(false);
    const error = rejection('event', eventAt(receivedBefore(-(DAY + 1))), { batch: false });
    expect(error.details).toEqual([{ field: 'request.time', reason: expect.stringContaining('more than 24 hours after') }]);
    expect(rejection('event', eventAt(receivedBefore(-2 * DAY)), { batch: false }, context({ backfillEnabled: true })).details[0]!.field).toBe('request.time');
  });
});

describe('normaliseItems: defaults', () => {
  it('defaults weight to 1 and keeps a given weight', () => {
    expect(one('event', nodeSdkEvent({ weight: undefined })).data['weight']).toBe(1);
    expect(one('event', nodeSdkEvent({ weight: 10 })).data['weight']).toBe(10);
  });

  it('writes transfer_encoding json on request and response when unset', () => {
    const item = one('event', docsExampleEvent());
    expect(request(item)['transfer_encoding']).toBe('json');
    expect((item.data['response'] as Record<string, unknown>)['transfer_encoding']).toBe('json');
  });

  it('keeps keys it does not know and normalised values in data', () => {
    const item = one('event', { ...docsExampleEvent(), tags: 'a,b' });
    expect(item.data).toMatchObject({ tags: 'a,b', request: { time: '2024-05-01T11:59:58.914Z' }, response: { time: '2024-05-01T11:59:59.001Z' } });
  });

  it('turns header numbers and arrays into strings in data', () => {
    const item = one('event', nodeSdkEvent());
    expect((item.data['response'] as { headers: Record<string, string> }).headers).toMatchObject({
      'content-length': '27',
      'set-cookie': 'a=1; Path=/, b=2; Path=/',
    });
  });
});

describe('normaliseItems: caller IP', () => {
  function withoutIp(kind: 'event' | 'action'): Record<string, unknown> {
    const body = kind === 'event' ? nodeSdkEvent() : sdkAction();
    delete (body['request'] as Record<string, unknown>)['ip_address'];
    return body;
  }

  it('takes the first X-Forwarded-For address when request.ip_address is unset', () => {
    const ctx = context({ forwardedFor: ' 203.0.113.9 , 10.0.0.2, 10.0.0.3' });
    expect(request(one('event', withoutIp('event'), ctx))['ip_address']).toBe('203.0.113.9');
    expect(request(one('action', withoutIp('action'), ctx))['ip_address']).toBe('203.0.113.9');
  });

  it('falls back to the source IP', () => {
    expect(request(one('event', withoutIp('event')))['ip_address']).toBe('198.51.100.7');
    expect(request(one('event', withoutIp('event'), context({ forwardedFor: ' , ' })))['ip_address']).toBe('198.51.100.7');
  });

  it('fills an empty or null ip_address and keeps a given one', () => {
    const empty = nodeSdkEvent();
    (empty['request'] as Record<string, unknown>)['ip_address'] = '';
    expect(request(one('event', empty))['ip_address']).toBe('198.51.100.7');
    const absent = nodeSdkEvent();
    (absent['request'] as Record<string, unknown>)['ip_address'] = null;
    expect(request(one('event', absent))['ip_address']).toBe('198.51.100.7');
    expect(request(one('event', nodeSdkEvent(), context({ forwardedFor: '203.0.113.9' })))['ip_address']).toBe('61.48.220.123');
  });

  it('leaves ip_address unset when the collector knows no address', () => {
    expect(request(one('event', withoutIp('event'), context({ sourceIp: '' })))['ip_address']).toBeUndefined();
  });

  it('does not invent an IP for profiles', () => {
    const user = sdkUser();
    delete user['ip_address'];
    expect(one('user', user, context({ forwardedFor: '203.0.113.9' })).data['ip_address']).toBeUndefined();
    expect(one('company', sdkCompany()).data['ip_address']).toBeUndefined();
  });
});

describe('normaliseItems: session token', () => {
  it.each([
    [{ Authorization: 'Bearer abc.def' }, 'abc.def'],
    [{ authorization: 'bearer   abc' }, 'abc'],
    [{ AUTHORIZATION: 'Basic dXNlcjpwYXNz' }, 'dXNlcjpwYXNz'],
    [{ authorization: 'Token t-1' }, 't-1'],
    [{ authorization: 'sk_live_123' }, 'sk_live_123'],
    [{ 'X-API-Key': 'key-1' }, 'key-1'],
    [{ 'api-key': 'key-2' }, 'key-2'],
    [{ 'x-api-token': 'tok-3' }, 'tok-3'],
    [{ 'X-Access-Token': 'tok-4' }, 'tok-4'],
  ])('detects it from %j', (headers, token) => {
    expect(one('event', eventWithHeaders(headers)).data['session_token']).toBe(token);
  });

  it('prefers Authorization, then the API-key headers in order, whatever the header order', () => {
    const headers = { 'x-access-token': 'd', 'x-api-token': 'c', 'api-key': 'b', 'x-api-key': 'a', authorization: 'Bearer z' };
    expect(one('event', eventWithHeaders(headers)).data['session_token']).toBe('z');
    const { authorization: _authorization, ...withoutAuthorization } = headers;
    expect(one('event', eventWithHeaders(withoutAuthorization)).data['session_token']).toBe('a');
  });

  it('skips an Authorization header with nothing after the scheme', () => {
    expect(one('event', eventWithHeaders({ authorization: 'Bearer ', 'x-api-key': 'k' })).data['session_token']).toBe('k');
  });

  it('keeps a given session_token and leaves it unset when no header has one', () => {
    expect(one('event', nodeSdkEvent({ session_token: 'given' })).data['session_token']).toBe('given');
    expect(one('event', eventWithHeaders({ accept: '*/*' })).data['session_token']).toBeUndefined();
  });
});

describe('normaliseItems: real SDK payloads', () => {
  it('takes a moesif-nodejs event batch as sent', () => {
    const [item] = batch('event', [nodeSdkEvent()]);
    expect(item).toMatchObject({ late: false, received_at: RECEIVED_AT.toISOString() });
    expect(item!.id).toMatch(UUID);
    expect(item!.data).toMatchObject({
      user_id: 'my_user_id',
      session_token: 'eyJhbGciOiJIUzI1NiJ9.e30.sig',
      weight: 1,
      direction: 'Incoming',
      request: { verb: 'POST', ip_address: '61.48.220.123', transfer_encoding: 'json', body: { items: [{ item_id: 'fwdsfrf', liked: false }] } },
      response: { status: 201, transfer_encoding: 'json' },
    });
  });

  it('takes a user with modified_time null and campaign {}', () => {
    const item = one('user', sdkUser());
    expect(item.data).toMatchObject({ user_id: '12345', modified_time: null, campaign: {}, metadata: { email: 'john@acmeinc.com' } });
  });

  it('survives a JSON round trip unchanged (what goes on the stream)', () => {
    const items = batch('event', [nodeSdkEvent(), docsExampleEvent()]);
    expect(JSON.parse(JSON.stringify(items))).toEqual(items);
  });
});
