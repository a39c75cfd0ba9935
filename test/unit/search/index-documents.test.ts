import { documentProblem, eventDocument, isoMillis, profileDocument, routeOfUri } from '../../../functions/search/index-documents';
import type { StreamItem } from '../../../schemas/stream-record';

const scope = { org_id: 'org-1', app_id: 'app-1' };

function item(data: Record<string, unknown>, extra: Partial<StreamItem> = {}): StreamItem {
  return { id: 'evt-1', time: '2024-03-05T10:00:00.000Z', received_at: '2024-03-05T10:00:01.000Z', data, ...extra };
}

describe('routeOfUri', () => {
  it.each([
    ['https://api.example.com/v1/items/42?expand=true#top', '/v1/items/42'],
    ['http://localhost:8080/health', '/health'],
    ['https://api.example.com', '/'],
    ['https://api.example.com?x=1', '/'],
    ['/v1/relative?x=1', '/v1/relative'],
    ['https://api.example.com/a%20b/../c', '/a%20b/../c'],
  ])('%s → %s', (uri, route) => {
    expect(routeOfUri(uri)).toBe(route);
  });
});

describe('eventDocument', () => {
  const apiCall = {
    request: { time: '2024-03-05T10:00:00.000Z', uri: 'https://api.example.com/v1/items?page=2', verb: 'GET', headers: {} },
    response: { time: '2024-03-05T10:00:00.250Z', status: 200, headers: {}, body: { ok: true } },
    user_id: 'u-1',
    weight: 1,
  };

  it('adds tenant, type, arrival, lateness, route and duration to an API call', () => {
    const document = eventDocument(scope, 'event', item(apiCall, { late: true }));
    expect(document).toEqual({
      kind: 'events',
      id: 'evt-1',
      org_id: 'org-1',
      app_id: 'app-1',
      time: '2024-03-05T10:00:00.000Z',
      source: {
        ...apiCall,
        request: { ...apiCall.request, route: '/v1/items' },
        org_id: 'org-1',
        app_id: 'app-1',
        event_type: 'api_call',
        received_at: '2024-03-05T10:00:01.000Z',
        is_late: true,
        duration_ms: 250,
      },
    });
    expect(document.version).toBeUndefined();
  });

  it('keeps a route the SDK set and does not change the stream item', () => {
    const data = { ...apiCall, request: { ...apiCall.request, route: '/v1/items/{id}' } };
    const before = JSON.stringify(data);
    const document = eventDocument(scope, 'event', item(data));
    expect((document.source.request as Record<string, unknown>).route).toBe('/v1/items/{id}');
    expect(JSON.stringify(data)).toBe(before);
  });

  it('routes a path by its template: the app patterns first, then ids found in it', () => {
    const on = (uri: string, patterns?: string[]) =>
      (eventDocument(scope, 'event', item({ ...apiCall, request: { ...apiCall.request, uri } }), patterns).source.request as Record<string, unknown>).route;
    expect(on('https://api.example.com/v1/items/42?x=1')).toBe('/v1/items/:id');
    expect(on('https://api.example.com/v1/items/blue', ['/v1/items/:colour'])).toBe('/v1/items/:colour');
    expect(on('https://api.example.com/v1/items/42', ['/v1/things/:name'])).toBe('/v1/items/:id');
  });

  it('has no duration without a response, and is_late defaults to false', () => {
    const document = eventDocument(scope, 'event', item({ request: apiCall.request }));
    expect(document.source).not.toHaveProperty('duration_ms');
    expect(document.source.is_late).toBe(false);
  });

  it('marks actions and gives them neither route nor duration', () => {
    const action = { action_name: 'Clicked Signup', request: { time: '2024-03-05T10:00:00.000Z', uri: 'https://app.example.com/signup?ref=x' } };
    const document = eventDocument(scope, 'action', item(action));
    expect(document.source.event_type).toBe('action');
    expect(document.source.request).toEqual(action.request);
    expect(document.source).not.toHaveProperty('duration_ms');
  });

  it('keeps the tenant of the scope even if the payload claims another', () => {
    const document = eventDocument(scope, 'event', item({ ...apiCall, org_id: 'intruder', app_id: 'intruder' }));
    expect(document.source.org_id).toBe('org-1');
    expect(document.source.app_id).toBe('app-1');
  });
});

describe('profileDocument', () => {
  it('carries version and time, and the tenant in the source', () => {
    const merged = { user_id: 'u-1', metadata: { email: 'a@example.com' } };
    expect(profileDocument(scope, 'users', 'u-1', merged, 3, '2024-03-05T10:00:00.000Z')).toEqual({
      kind: 'users',
      id: 'u-1',
      org_id: 'org-1',
      app_id: 'app-1',
      time: '2024-03-05T10:00:00.000Z',
      version: 3,
      source: { ...merged, org_id: 'org-1', app_id: 'app-1' },
    });
  });
});

describe('documentProblem', () => {
  const event = eventDocument(scope, 'event', item({ request: { time: '2024-03-05T10:00:00.000Z', uri: '/', verb: 'GET' } }));
  const user = profileDocument(scope, 'users', 'u-1', {}, 1, '2024-03-05T10:00:00.000Z');

  it('accepts what the builders make', () => {
    expect(documentProblem(event)).toBeUndefined();
    // The same instant written with an offset is the same date.
    expect(documentProblem({ ...event, time: '2024-03-05T12:00:00+02:00' })).toBeUndefined();
    expect(documentProblem(user)).toBeUndefined();
  });

  it.each([
    ['an empty id', { ...event, id: '' }, 'id is empty'],
    ['a time that is not ISO 8601', { ...event, time: 'yesterday' }, 'time is not an ISO 8601'],
    ['a source of another tenant', { ...event, source: { ...event.source, app_id: 'other' } }, 'differ'],
    ['a versioned event', { ...event, version: 1 }, 'not versioned'],
    ['an event without request.time', { ...event, source: { ...event.source, request: { uri: '/' } } }, 'request.time differs'],
    ['an event dated otherwise than its request.time', { ...event, time: '2024-03-05T10:00:00.001Z' }, 'request.time differs'],
    ['a profile without version', { ...user, version: undefined }, 'version'],
    ['a profile with a negative version', { ...user, version: -1 }, 'version'],
  ])('refuses %s', (_name, document, reason) => {
    expect(documentProblem(document)).toContain(reason);
  });
});

describe('isoMillis', () => {
  it('reads ISO date-times with offsets and refuses other date spellings', () => {
    expect(isoMillis('2024-03-05T12:00:00+02:00')).toBe(Date.UTC(2024, 2, 5, 10));
    expect(isoMillis('Tue, 05 Mar 2024 10:00:00 GMT')).toBeUndefined();
    expect(isoMillis('2024-13-45T99:99:99Z')).toBeUndefined();
    expect(isoMillis(1709632800000)).toBeUndefined();
  });
});
