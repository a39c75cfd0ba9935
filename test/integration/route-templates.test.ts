import { gunzipSync } from 'node:zlib';
import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/**
 * Route templates over HTTP: API calls are indexed with `request.route` as a template, ids found in
 * the path and the app's own patterns first, so filters, breakdowns and funnels group by endpoint.
 */
describe('route templates', () => {
  let rt: TestRuntime;
  const minute = 60_000;
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * minute);
  const call = (n: number, path: string, user: string, verb = 'GET') =>
    apiCall(
      {
        transaction_id: uuid(n),
        user_id: user,
        request: { time: at(60 - n).toISOString(), uri: `https://api.example.com${path}?expand=1`, verb, headers: {} },
      },
      at(60 - n),
    );
  const post = (path: string, body: unknown) => rt.management('POST', path, {}, body);

  beforeAll(async () => {
    rt = await startTestRuntime('route-templates', { exportIntervalMs: 0 });
  });
  afterAll(() => rt?.dispose());

  it('groups ids into :id, and the app patterns it is given apply to the calls indexed after', async () => {
    const before = [
      call(1, '/items/195', 'ada'),
      call(2, '/items/104', 'bob'),
      call(3, '/users/8f14e45f-ceea-467a-9575-e0f3c1fbcd1b/orders', 'ada', 'POST'),
      call(4, '/handles/ada-lovelace', 'ada'),
    ];
    expect((await rt.collect('/v1/events/batch', before)).status).toBe(201);
    await rt.waitUntilConsumed();

    const refused = await post(`/~/apps/${rt.credentials.app_id}`, { route_templates: ['handles/:handle'] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].field).toBe('route_templates[0]');
    const updated = await post(`/~/apps/${rt.credentials.app_id}`, { route_templates: ['/handles/:handle'] });
    expect(updated.status).toBe(200);
    expect(updated.body.route_templates).toEqual(['/handles/:handle']);

    expect((await rt.collect('/v1/events/batch', [call(5, '/handles/grace-hopper', 'bob', 'POST'), call(6, '/items/7', 'bob', 'POST')])).status).toBe(201);
    await rt.waitUntilConsumed();

    const breakdown = await post('/search/~/search/events?from=-1d&to=now', { size: 0, aggs: { routes: { terms: { field: 'request.route.raw' } } } });
    expect(breakdown.status).toBe(200);
    expect(breakdown.body.aggregations.routes.buckets).toEqual([
      { key: '/items/:id', doc_count: 3 },
      { key: '/handles/:handle', doc_count: 1 },
      { key: '/handles/ada-lovelace', doc_count: 1 },
      { key: '/users/:id/orders', doc_count: 1 },
    ]);
    // The filter the console's route field sends, and the URI kept as sent.
    const filtered = await post('/search/~/search/events?from=-1d&to=now', {
      query: { query_string: { query: 'request.route.raw:"/items/:id"' } },
      _source: ['request.uri'],
    });
    expect(filtered.body.hits.total).toBe(3);
    expect(filtered.body.hits.hits.map((hit: { _source: { request: { uri: string } } }) => hit._source.request.uri).sort()).toEqual([
      'https://api.example.com/items/104?expand=1',
      'https://api.example.com/items/195?expand=1',
      'https://api.example.com/items/7?expand=1',
    ]);

    const funnel = await post('/search/~/funnels/events?from=-1d&to=now', {
      steps: [{ query: { term: { 'request.route.raw': '/items/:id' } } }, { query: { term: { 'request.route.raw': '/handles/:handle' } } }],
      conversion_window: '1d',
    });
    expect(funnel.status).toBe(200);
    expect(funnel.body.steps.map((step: { entered: number }) => step.entered)).toEqual([2, 1]);

    // An export narrowed to one route template holds its calls, each once.
    const started = await post('/~/exports', {
      kind: 'events',
      from: '-1d',
      to: 'now',
      format: 'ndjson',
      query: { term: { 'request.route.raw': '/items/:id' } },
    });
    expect(started.status).toBe(201);
    let job = started.body;
    for (let attempt = 0; attempt < 200 && ['queued', 'running'].includes(job.status); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = (await rt.management('GET', `/~/exports/${started.body._id}`)).body;
    }
    expect(job).toMatchObject({ status: 'completed', exported: 3 });
    const rows: string[] = [];
    for (const part of job.parts as { url: string }[]) {
      const text = gunzipSync(Buffer.from(await (await fetch(part.url)).arrayBuffer())).toString('utf8');
      rows.push(
        ...text
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line)._source.request.route as string),
      );
    }
    expect(rows).toEqual(['/items/:id', '/items/:id', '/items/:id']);
  });
});
