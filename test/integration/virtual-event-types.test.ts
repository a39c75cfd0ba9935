import { managementScopes } from '../../schemas/scopes';
import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/**
 * Virtual event types over HTTP: managed at /~/virtual_eventtypes, searched as the field
 * virtual_event_types, evaluated when a search runs (so a type made today tags last week's events).
 */
describe('virtual event types', () => {
  let rt: TestRuntime;
  const hour = 3_600_000;
  const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * hour);
  const post = (path: string, body: unknown, token?: string) => rt.management('POST', path, token ? { authorization: `Bearer ${token}` } : {}, body);
  const ids = (answer: { body: { hits: { hits: { _id: string }[] } } }) => answer.body.hits.hits.map((hit) => hit._id).sort();

  beforeAll(async () => {
    rt = await startTestRuntime('virtual-event-types');
    const events = [
      apiCall(
        {
          transaction_id: uuid(1),
          request: { time: at(50).toISOString(), uri: 'https://api.example.com/v1/orders', verb: 'POST', headers: {} },
          response: { time: at(50).toISOString(), status: 201, headers: {} },
        },
        at(50),
      ),
      apiCall(
        {
          transaction_id: uuid(2),
          request: { time: at(2).toISOString(), uri: 'https://api.example.com/v1/orders', verb: 'POST', headers: {} },
          response: { time: at(2).toISOString(), status: 500, headers: {} },
        },
        at(2),
      ),
      apiCall(
        {
          transaction_id: uuid(3),
          request: { time: at(1).toISOString(), uri: 'https://api.example.com/v1/orders/7', verb: 'GET', headers: {} },
          response: { time: at(1).toISOString(), status: 200, headers: {} },
        },
        at(1),
      ),
    ];
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed();
  });
  afterAll(() => rt?.dispose());

  it('creates, lists, updates and deletes types, and searches see them at once, on past events too', async () => {
    const created = await post('/~/virtual_eventtypes', {
      name: 'Order placed',
      criteria: { bool: { filter: [{ term: { 'request.verb': 'POST' } }] } },
      description: 'Every POST',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Order placed', description: 'Every POST', _id: expect.any(String), created_at: expect.any(String) });
    const failed = await post('/~/virtual_eventtypes', { name: 'Failed', criteria: { query: { range: { 'response.status': { gte: 500 } } } } });
    expect(failed.status).toBe(201);

    const list = await rt.management('GET', '/~/virtual_eventtypes');
    expect(list.body.map((type: { name: string }) => type.name)).toEqual(['Failed', 'Order placed']);
    expect((await rt.management('GET', `/~/virtual_eventtypes/${created.body._id}`)).body.name).toBe('Order placed');

    const window = '?from=-7d&to=now';
    expect(ids(await post(`/search/~/search/events${window}`, { query: { term: { virtual_event_types: 'Order placed' } } }))).toHaveLength(2);
    const byType = await post(`/search/~/search/events${window}`, { size: 0, aggs: { types: { terms: { field: 'virtual_event_types' } } } });
    expect(byType.status).toBe(200);
    expect(byType.body.aggregations.types).toEqual({
      doc_count_error_upper_bound: 0,
      sum_other_doc_count: 0,
      buckets: [
        { key: 'Order placed', doc_count: 2 },
        { key: 'Failed', doc_count: 1 },
      ],
    });
    const counted = await post(`/search/~/count/events${window}`, { query: { terms: { virtual_event_types: ['Failed', 'Order placed'] } } });
    expect(counted.body).toEqual({ count: 2 });

    // A changed criteria applies to every event at the next search.
    const updated = await post(`/~/virtual_eventtypes/${created.body._id}`, { criteria: { prefix: { 'request.route.raw': '/v1/orders' } } });
    expect(updated.status).toBe(200);
    expect(ids(await post(`/search/~/search/events${window}`, { query: { term: { virtual_event_types: 'Order placed' } } }))).toHaveLength(3);

    expect((await rt.management('DELETE', `/~/virtual_eventtypes/${created.body._id}`)).status).toBe(204);
    expect(ids(await post(`/search/~/search/events${window}`, { query: { term: { virtual_event_types: 'Order placed' } } }))).toEqual([]);
    expect((await rt.management('GET', `/~/virtual_eventtypes/${created.body._id}`)).status).toBe(410);
  });

  it('matches wildcards over type names in linear time: patterns that backtracked for minutes as a RegExp answer at once', async () => {
    const long = await post('/~/virtual_eventtypes', { name: 'a'.repeat(128), criteria: { term: { 'request.verb': 'POST' } } });
    expect(long.status).toBe(201);
    const window = '?from=-7d&to=now';
    const wildcard = (value: string) => post(`/search/~/search/events${window}`, { query: { wildcard: { virtual_event_types: { value } } } });
    // 6 and 10 stars against 128 letters: a backtracking expression took 66 s and minutes, holding every other request.
    const [six, ten, apps] = await Promise.all([wildcard('*a*a*a*a*a*b'), wildcard('*a*a*a*a*a*a*a*a*a*b'), rt.management('GET', '/~/apps')]);
    expect([six.status, ten.status, apps.status]).toEqual([200, 200, 200]);
    expect([ids(six), ids(ten)]).toEqual([[], []]);
    expect(ids(await wildcard('*a*a*a*a*a*'))).toHaveLength(2);
    // An alert on the same pattern is saved and evaluated like the search.
    const alert = await post('/~/alerts', {
      name: 'Long type',
      state: 1,
      metric: 'count',
      window_minutes: 60,
      interval_minutes: 1,
      query: { wildcard: { virtual_event_types: { value: '*a*a*a*a*a*a*a*a*a*b' } } },
      condition: { type: 'static', operator: 'above', threshold: 0 },
      channels: { emails: ['oncall@x.test'] },
    });
    expect(alert.status).toBe(201);
    const evaluated = await post(`/~/alerts/${alert.body._id}/evaluate`, {});
    expect([evaluated.status, evaluated.body.fired]).toEqual([200, 0]);
    expect((await rt.management('DELETE', `/~/virtual_eventtypes/${long.body._id}`)).status).toBe(204);
  });

  it('refuses bad types and bad uses of the field with a 400 naming the member, and stores nothing', async () => {
    const cases: [unknown, string][] = [
      [{ criteria: { match_all: {} } }, 'name'],
      [{ name: 'x', criteria: { script: { source: '1' } } }, 'criteria'],
      [{ name: 'x', criteria: { term: { virtual_event_types: 'Failed' } } }, 'criteria'],
      [{ name: 'x', criteria: { query: { match_all: {} }, aggs: { a: { terms: { field: 'user_id' } } } } }, 'criteria.aggs'],
      [{ name: 'x', criteria: {}, colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const answer = await post('/~/virtual_eventtypes', body);
      expect(answer.status).toBe(400);
      expect(
        answer.body.error.details.map((detail: { field: string }) => detail.field).some((named: string) => named === field || named.startsWith(`${field}.`)),
      ).toBe(true);
    }
    const first = await post('/~/virtual_eventtypes', { name: 'Reads', criteria: { term: { 'request.verb': 'GET' } } });
    expect(first.status).toBe(201);
    const duplicate = await post('/~/virtual_eventtypes', { name: 'Reads', criteria: { match_all: {} } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.details).toEqual([expect.objectContaining({ field: 'name' })]);
    expect((await rt.management('GET', '/~/virtual_eventtypes')).body.filter((type: { name: string }) => type.name === 'Reads')).toHaveLength(1);

    const range = await post('/search/~/search/events', { query: { range: { virtual_event_types: { gte: 'a' } } } });
    expect(range.status).toBe(400);
    expect(range.body.error.details[0].field).toBe('query.range.virtual_event_types');
    const sorted = await post('/search/~/search/events', { sort: [{ virtual_event_types: 'asc' }] });
    expect(sorted.status).toBe(400);
    expect(sorted.body.error.details[0].field).toBe('sort[0]');
    const meter = await post('/~/billing/meters', {
      name: 'm',
      slug: 'm',
      es_query: { query: { range: { virtual_event_types: { gte: 'a' } } } },
      billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: ['c'], custom_plan: { plan_id: 'p' } } } },
    });
    expect(meter.status).toBe(400);
    expect(meter.body.error.details[0].field).toBe('es_query.query.range.virtual_event_types');
    const metric = await post('/search/~/search/events', { aggs: { n: { cardinality: { field: 'virtual_event_types' } } } });
    expect(metric.status).toBe(400);
    expect(metric.body.error.details[0].field).toBe('aggs.n.cardinality');
  });

  it('needs the virtual_eventtypes scopes', async () => {
    const without = await rt.issueToken({ scopes: managementScopes.filter((scope) => !scope.endsWith(':virtual_eventtypes')) });
    const listed = await rt.management('GET', '/~/virtual_eventtypes', { authorization: `Bearer ${without}` });
    expect(listed.status).toBe(401);
    expect(listed.body.error.message).toContain('read:virtual_eventtypes');
    const created = await post('/~/virtual_eventtypes', { name: 'y', criteria: { match_all: {} } }, without);
    expect(created.status).toBe(401);
  });
});
