import { eventHitOf } from './event-types';

describe('event hits', () => {
  it('read the fields the console shows by type and keep the rest of the stored event', () => {
    const hit = eventHitOf({
      _id: 'e1',
      sort: [1, 'e1'],
      _source: {
        event_type: 'api_call',
        request: { time: '2026-01-01T00:00:00.000Z', uri: 'https://api.example.com/v1/items', verb: 'GET', route: '/v1/items', headers: { a: 'b' }, body: [1] },
        response: { time: '2026-01-01T00:00:00.125Z', status: 200, headers: {}, body_truncated: true },
        user_id: 'u1',
        duration_ms: 125,
        metadata: { plan: 'pro' },
        weight: 3,
      },
    });
    expect(hit._id).toBe('e1');
    expect(hit.sort).toEqual([1, 'e1']);
    expect(hit._source).toMatchObject({
      event_type: 'api_call',
      request: { uri: 'https://api.example.com/v1/items', verb: 'GET', route: '/v1/items', headers: { a: 'b' }, body: [1] },
      response: { status: 200, body_truncated: true },
      user_id: 'u1',
      duration_ms: 125,
      metadata: { plan: 'pro' },
      weight: 3,
    });
  });

  it('leave out a shown field of another type, and parts that are not objects', () => {
    const hit = eventHitOf({ _id: 'e2', _source: { event_type: 'other', request: 'GET /', response: { status: '200' }, user_id: 7, duration_ms: 'slow' } });
    expect(hit._source.event_type).toBeUndefined();
    expect(hit._source.request).toBeUndefined();
    expect(hit._source.response?.status).toBeUndefined();
    expect(hit._source.user_id).toBeUndefined();
    expect(hit._source.duration_ms).toBeUndefined();
    expect(hit.sort).toBeUndefined();
  });
});
