import { MANAGEMENT_PATH_PREFIXES, routesOf } from '../../functions/definitions/routes';
import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/**
 * Public and embedded views over HTTP: a signed token minted for one workspace (or dashboard) reads
 * exactly that, runs exactly its stored queries over the ranges the owner allowed, and nothing else.
 */
describe('shared views (signed tokens)', () => {
  let rt: TestRuntime;
  const hour = 3_600_000;
  const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * hour);
  const post = (path: string, body: unknown) => rt.management('POST', path, {}, body);
  const view = (token: string, rest = '') => rt.management('GET', `/public/views/${encodeURIComponent(token)}${rest}`, { authorization: '' });
  const byStatus = { size: 0, aggs: { statuses: { terms: { field: 'response.status', size: 10 } } } };
  let shared: { _id: string };
  let secret: { _id: string };
  let funnel: { _id: string };

  beforeAll(async () => {
    rt = await startTestRuntime('shared-views');
    const events = [3, 30, 60].map((hoursAgo, i) =>
      apiCall(
        {
          transaction_id: uuid(i + 1),
          user_id: `u${i % 2}`,
          request: { time: at(hoursAgo).toISOString(), uri: 'https://api.example.com/v1/orders', verb: i === 0 ? 'POST' : 'GET', headers: {} },
          response: { time: at(hoursAgo).toISOString(), status: i === 2 ? 500 : 200, headers: {} },
        },
        at(hoursAgo),
      ),
    );
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed();
    const policy = { acl: [], resource: {} };
    shared = (
      await post('/~/workspaces', {
        name: 'Calls by status',
        policy,
        chart: { view: 'table', url_query: 'view=table', from: '-24h', to: 'now', es_query: byStatus },
      })
    ).body;
    secret = (
      await post('/~/workspaces', { name: 'Internal', policy, chart: { view: 'table', url_query: '', es_query: { size: 5, query: { match_all: {} } } } })
    ).body;
    funnel = (
      await post('/~/workspaces', {
        name: 'Order funnel',
        policy,
        chart: {
          view: 'funnel',
          url_query: 'view=funnel',
          funnel_query: {
            steps: [{ query: { term: { 'request.verb': 'GET' } } }, { query: { term: { 'request.verb': 'POST' } } }],
            by: 'user_id',
            conversion_window: '7d',
          },
        },
      })
    ).body;
    expect([shared._id, secret._id, funnel._id].every((id) => typeof id === 'string')).toBe(true);
  });
  afterAll(() => rt?.dispose());

  const mint = async (path: string, body: unknown = {}) => {
    const answer = await post(path, body);
    expect(answer.status).toBe(201);
    return answer.body as { _id: string; token: string; url: string; embed_url: string; time_ranges: unknown[] };
  };

  it('mints a token whose view shows the workspace without its policy, and whose data is the stored query over an allowed range', async () => {
    const ranges = [
      { from: '-24h', to: 'now' },
      { from: '-7d', to: 'now', label: 'Last week' },
    ];
    const token = await mint(`/~/workspaces/${shared._id}/signed_tokens`, { time_ranges: ranges, description: 'status page' });
    expect(token).toMatchObject({
      _id: expect.any(String),
      token: expect.stringMatching(/^sv1\./),
      target_kind: 'workspace',
      target_id: shared._id,
      time_ranges: ranges,
      time_zone: 'UTC',
      description: 'status page',
    });
    expect(token.url).toMatch(new RegExp(`/console/shared/${encodeURIComponent(token.token).replace(/[.]/g, '\\.')}$`));
    expect(token.embed_url).toContain('/console/embed/');

    const shown = await view(token.token);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('no-store');
    expect(shown.body).toMatchObject({ kind: 'workspace', name: 'Calls by status', time_ranges: ranges, time_zone: 'UTC' });
    expect(shown.body.workspaces).toEqual([
      { _id: shared._id, name: 'Calls by status', chart: { view: 'table', url_query: 'view=table', from: '-24h', to: 'now', es_query: byStatus } },
    ]);

    // The same stored query through the management API, over each range.
    for (const [i, range] of ranges.entries()) {
      const data = await view(token.token, `/workspaces/${shared._id}/data?range=${i}`);
      expect(data.status).toBe(200);
      const direct = await post(`/search/~/search/events?from=${range.from}&to=${range.to}`, byStatus);
      expect(data.body).toMatchObject({ query: 'search', range, time_zone: 'UTC' });
      expect(data.body.answer.aggregations).toEqual(direct.body.aggregations);
    }
    const lastDay = (await view(token.token, `/workspaces/${shared._id}/data`)).body.answer.aggregations.statuses.buckets;
    expect(lastDay).toEqual([{ key: 200, doc_count: 1 }]);
    const lastWeek = (await view(token.token, `/workspaces/${shared._id}/data?range=1`)).body.answer.aggregations.statuses.buckets;
    expect(lastWeek).toEqual([
      { key: 200, doc_count: 2 },
      { key: 500, doc_count: 1 },
    ]);

    const listed = await rt.management('GET', `/~/workspaces/${shared._id}/signed_tokens`);
    expect(listed.body.map((t: { _id: string }) => t._id)).toContain(token._id);
    expect(listed.body.every((t: Record<string, unknown>) => t['token'] === undefined)).toBe(true);
    const publicOnes = await rt.management('GET', '/~/workspaces/public');
    expect(publicOnes.body.map((t: { _id: string }) => t._id)).toContain(token._id);
  });

  it('reads nothing else: other ranges, other workspaces, tampered tokens and every management route answer 401', async () => {
    const token = (await mint(`/~/workspaces/${shared._id}/signed_tokens`)).token;
    const refused = async (answer: { status: number; body: { error?: { details?: { field: string }[] } } }, field: string) => {
      expect(answer.status).toBe(401);
      expect(answer.body.error?.details?.[0]?.field).toBe(field);
    };
    await refused(await view(token, `/workspaces/${shared._id}/data?range=1`), 'range');
    await refused(await view(token, `/workspaces/${shared._id}/data?range=-1`), 'range');
    await refused(await view(token, `/workspaces/${secret._id}/data`), 'workspaceId');
    const [prefix, claims, signature] = token.split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')), id: secret._id }), 'utf8').toString(
      'base64url',
    );
    await refused(await view(`${prefix}.${forged}.${signature}`, `/workspaces/${secret._id}/data`), 'token');
    await refused(await view(`${token}x`), 'token');
    await refused(await view('not-a-token'), 'token');

    // As a bearer token, on every management route under every prefix.
    const failures: string[] = [];
    const cases = routesOf({ api: 'management' })
      .filter((route) => route.auth.kind === 'management-token')
      .flatMap((route) =>
        MANAGEMENT_PATH_PREFIXES.map((p) => ({
          route,
          path: p + route.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'id' ? shared._id : `dummy-${name}`)),
        })),
      );
    for (let i = 0; i < cases.length; i += 8) {
      await Promise.all(
        cases.slice(i, i + 8).map(async ({ route, path }) => {
          const answer = await rt.management(
            route.method,
            path,
            { authorization: `Bearer ${token}` },
            ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined,
          );
          if (answer.status !== 401) failures.push(`${route.method} ${path}: ${answer.status}`);
        }),
      );
    }
    expect(failures).toEqual([]);
  });

  it("shares a dashboard with its workspaces in order, and runs each one's stored query (a funnel too)", async () => {
    const dashboard = (await post('/~/dashboards', { name: 'Public board', workspace_ids: [[funnel._id, shared._id]], dashboard_ids: [] })).body;
    expect(typeof dashboard._id).toBe('string');
    const token = (await mint(`/~/dashboards/${dashboard._id}/signed_tokens`, { time_ranges: [{ from: '-7d', to: 'now' }] })).token;
    const shown = await view(token);
    expect(shown.status).toBe(200);
    expect(shown.body.kind).toBe('dashboard');
    expect(shown.body.name).toBe('Public board');
    expect(shown.body.workspaces.map((w: { _id: string }) => w._id)).toEqual([funnel._id, shared._id]);
    const answer = await view(token, `/workspaces/${funnel._id}/data`);
    expect(answer.status).toBe(200);
    expect(answer.body.query).toBe('funnel');
    const direct = await post('/search/~/funnels/events?from=-7d&to=now', {
      steps: [{ query: { term: { 'request.verb': 'GET' } } }, { query: { term: { 'request.verb': 'POST' } } }],
      by: 'user_id',
      conversion_window: '7d',
    });
    expect(answer.body.answer.steps).toEqual(direct.body.steps);
    expect((await view(token, `/workspaces/${secret._id}/data`)).status).toBe(401);
  });

  it('stops working once revoked, and a deleted workspace is a 404', async () => {
    const minted = await mint(`/~/workspaces/${shared._id}/signed_tokens`);
    expect((await view(minted.token)).status).toBe(200);
    expect((await rt.management('DELETE', `/~/workspaces/${secret._id}/signed_tokens/${minted._id}`)).status).toBe(404);
    expect((await rt.management('DELETE', `/~/workspaces/${shared._id}/signed_tokens/${minted._id}`)).status).toBe(204);
    const revoked = await view(minted.token);
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.message).toMatch(/revoked/);
    expect((await rt.management('GET', `/~/workspaces/${shared._id}/signed_tokens`)).body.map((t: { _id: string }) => t._id)).not.toContain(minted._id);

    const doomed = (await post('/~/workspaces', { name: 'Doomed', policy: { acl: [], resource: {} }, chart: { view: 'table', url_query: '' } })).body;
    const token = (await mint(`/~/workspaces/${doomed._id}/signed_tokens`)).token;
    expect((await rt.management('DELETE', `/~/workspaces/${doomed._id}`)).status).toBe(204);
    expect((await view(token)).status).toBe(404);
  });

  it('refuses bad token requests with a 400 naming the field, and stores nothing', async () => {
    const before = (await rt.management('GET', '/~/workspaces/public')).body.length;
    const cases: [unknown, string][] = [
      [{ time_ranges: [{ from: 'yesterday', to: 'now' }] }, 'time_ranges[0].from'],
      [
        {
          time_ranges: [
            { from: '-1d', to: 'now' },
            { from: '-1d', to: 'soon' },
          ],
        },
        'time_ranges[1].to',
      ],
      [{ time_ranges: [] }, 'time_ranges'],
      [{ expires_in: 5 }, 'expires_in'],
      [{ expires_at: '2000-01-01T00:00:00Z' }, 'expires_at'],
      [{ expires_at: 'tomorrow' }, 'expires_at'],
      [{ expires_at: new Date(Date.now() + 2 * hour).toISOString(), expires_in: 3600 }, 'expires_in'],
      [{ time_zone: 'Mars/Olympus' }, 'time_zone'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const answer = await post(`/~/workspaces/${shared._id}/signed_tokens`, body);
      expect([JSON.stringify(body), answer.status]).toEqual([JSON.stringify(body), 400]);
      expect([JSON.stringify(body), answer.body.error.details[0].field]).toEqual([JSON.stringify(body), field]);
    }
    expect((await post('/~/workspaces/0123456789ab01234567/signed_tokens', {})).status).toBe(404);
    expect((await rt.management('GET', '/~/workspaces/public')).body.length).toBe(before);
  });
});
