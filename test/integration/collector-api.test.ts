import { gzipSync } from 'node:zlib';
import { apiCall, send, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/** Every collector endpoint through the local runtime: HTTP → handler → Kinesis → consumer → index. */
describe('collector API', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime('collector');
  });
  afterAll(() => rt?.dispose());

  async function getEvent(id: string) {
    await rt.waitUntilConsumed();
    return rt.management('GET', `/search/~/events/${id}`);
  }

  describe('ingest endpoints answer 201 and the data becomes searchable', () => {
    it('POST /v1/events', async () => {
      const res = await rt.collect('/v1/events', apiCall({ transaction_id: uuid(1) }));
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ accepted: 1 });
      const stored = await getEvent(uuid(1));
      expect(stored.status).toBe(200);
      expect(stored.body._id).toBe(uuid(1));
      expect(stored.body._source).toMatchObject({
        event_type: 'api_call',
        user_id: 'user-1',
        weight: 1,
        request: { verb: 'GET', route: '/v2/items' },
        response: { status: 200 },
      });
    });

    it('POST /v1/events/batch', async () => {
      const res = await rt.collect('/v1/events/batch', [apiCall({ transaction_id: uuid(2) }), apiCall({ transaction_id: uuid(3), weight: 10 })]);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ accepted: 2 });
      expect((await getEvent(uuid(3))).body._source.weight).toBe(10);
    });

    it('POST /v1/actions and /v1/actions/batch (request.time set by the server when unset)', async () => {
      const before = Date.now();
      const single = await rt.collect('/v1/actions', {
        action_name: 'Clicked Signup',
        transaction_id: uuid(4),
        request: { uri: 'https://app.example.com/signup' },
        user_id: 'user-1',
      });
      expect(single.status).toBe(201);
      const batch = await rt.collect('/v1/actions/batch', [
        { action_name: 'Viewed Pricing', transaction_id: uuid(5), request: { uri: 'https://app.example.com/pricing', time: new Date().toISOString() } },
      ]);
      expect(batch.status).toBe(201);
      const stored = await getEvent(uuid(4));
      expect(stored.body._source.event_type).toBe('action');
      expect(Date.parse(stored.body._source.request.time)).toBeGreaterThanOrEqual(before - 1000);
      expect((await getEvent(uuid(5))).status).toBe(200);
    });

    it('POST /v1/users and /v1/users/batch merge recursively', async () => {
      expect(
        (
          await rt.collect('/v1/users', {
            user_id: 'merge-me',
            metadata: { email: 'a@example.com', plan: { name: 'free' } },
            campaign: {},
            modified_time: null,
          })
        ).status,
      ).toBe(201);
      await rt.waitUntilConsumed();
      expect((await rt.collect('/v1/users/batch', [{ user_id: 'merge-me', metadata: { plan: { seats: 3 } } }, { user_id: 'other' }])).status).toBe(201);
      await rt.waitUntilConsumed();
      const user = await rt.management('GET', '/search/~/users/merge-me');
      expect(user.status).toBe(200);
      expect(user.body._source.metadata).toEqual({ email: 'a@example.com', plan: { name: 'free', seats: 3 } });
      expect((await rt.management('GET', '/v1/search/~/users/other')).status).toBe(200);
    });

    it('keeps an anonymous visitor and gives its activity to the user it is identified as', async () => {
      const count = async (query: unknown) => (await rt.management('POST', '/search/~/count/events?from=-1h&to=now', {}, { query })).body.count;
      // What moesif-browser-js sends: the visitor's profile, then API calls and actions with anonymous_id only.
      expect((await rt.collect('/v1/users', { anonymous_id: 'visitor-1', campaign: { utm_source: 'newsletter' } })).status).toBe(201);
      expect((await rt.collect('/v1/events', apiCall({ transaction_id: uuid(40), user_id: undefined, anonymous_id: 'visitor-1' }))).status).toBe(201);
      expect(
        (
          await rt.collect('/v1/actions', {
            action_name: 'Viewed Pricing',
            transaction_id: uuid(41),
            anonymous_id: 'visitor-1',
            request: { uri: 'https://app.example.com/pricing' },
          })
        ).status,
      ).toBe(201);
      await rt.waitUntilConsumed();
      expect(await count({ term: { anonymous_id: 'visitor-1' } })).toBe(2);
      expect(await count({ term: { user_id: 'ada' } })).toBe(0);
      const scope = rt.credentials;
      expect((await rt.stores.profiles.get(scope.org_id, scope.app_id, 'visitor', 'visitor-1'))?.document).toMatchObject({
        anonymous_id: 'visitor-1',
        campaign: { utm_source: 'newsletter' },
      });
      // A visitor is not a user: it is not listed among them.
      expect((await rt.management('GET', '/search/~/users/visitor-1')).status).toBe(404);

      // Identified: both ids on one profile. The visit's activity becomes the user's; so does a late anonymous event.
      expect((await rt.collect('/v1/users', { user_id: 'ada', anonymous_id: 'visitor-1', company_id: 'acme' })).status).toBe(201);
      await rt.waitUntilConsumed();
      expect(await count({ term: { user_id: 'ada' } })).toBe(2);
      expect(
        (
          await rt.collect('/v1/actions', {
            action_name: 'Closed Tab',
            transaction_id: uuid(42),
            anonymous_id: 'visitor-1',
            request: { uri: 'https://app.example.com/' },
          })
        ).status,
      ).toBe(201);
      await rt.waitUntilConsumed();
      expect((await getEvent(uuid(42))).body._source).toMatchObject({ user_id: 'ada', anonymous_id: 'visitor-1' });
      expect((await rt.management('GET', '/search/~/users/ada')).body._source).toMatchObject({ user_id: 'ada', anonymous_id: 'visitor-1' });
      expect((await rt.stores.profiles.get(scope.org_id, scope.app_id, 'visitor', 'visitor-1'))?.document).toMatchObject({ user_id: 'ada' });
    });

    it('refuses a user profile without user_id or anonymous_id, naming both', async () => {
      const answer = await rt.collect('/v1/users', { campaign: {} });
      expect(answer.status).toBe(400);
      expect(answer.body.error.details).toEqual([{ field: 'user_id', reason: 'is required (an anonymous visitor is sent with anonymous_id instead)' }]);
    });

    it('POST /v1/companies, /v1/companies/batch, /v1/subscriptions, /v1/subscriptions/batch', async () => {
      expect((await rt.collect('/v1/companies', { company_id: 'acme', company_domain: 'acme.com', metadata: { tier: 'gold' } })).status).toBe(201);
      expect((await rt.collect('/v1/companies/batch', [{ company_id: 'globex', modified_time: '2026-11-01T10:00:00+02:00' }])).status).toBe(201);
      const subscription = {
        subscription_id: 'sub-1',
        company_id: 'acme',
        status: 'active',
        current_period_start: '2026-11-01T00:00:00Z',
        current_period_end: '2026-12-01T00:00:00Z',
        items: [{ plan_id: 'pro', subscription_item_id: 'si-1', price_id: 'price-1', unit_of_measure: 'api_calls', created_at: '2026-11-01T00:00:00Z' }],
      };
      expect((await rt.collect('/v1/subscriptions', subscription)).status).toBe(201);
      expect((await rt.collect('/v1/subscriptions/batch', [{ ...subscription, subscription_id: 'sub-2', status: 'trialing' }])).status).toBe(201);
      await rt.waitUntilConsumed();
      const acme = await rt.management('GET', '/search/~/companies/acme');
      expect(acme.body._source).toMatchObject({ company_id: 'acme', company_domain: 'acme.com', metadata: { tier: 'gold' } });
      expect((await rt.management('GET', '/search/~/companies/globex')).status).toBe(200);
      const scope = { org_id: rt.credentials.org_id, app_id: rt.credentials.app_id };
      expect((await rt.index.get(scope, 'subscriptions', 'sub-2'))?._source).toMatchObject({ status: 'trialing', company_id: 'acme' });
    });

    it('accepts gzip bodies, as the SDKs send them', async () => {
      const res = await rt.collect('/v1/events/batch', [apiCall({ transaction_id: uuid(6) })], { gzip: true });
      expect(res.status).toBe(201);
      expect((await getEvent(uuid(6))).status).toBe(200);
    });
  });

  describe('SDK endpoints', () => {
    it('GET /v1/config answers the sampling config with an ETag that event answers repeat', async () => {
      const config = await rt.collectorGet('/v1/config');
      expect(config.status).toBe(200);
      expect(config.body).toMatchObject({
        sample_rate: 100,
        user_sample_rate: {},
        company_sample_rate: {},
        user_rules: {},
        company_rules: {},
        regex_config: [],
      });
      const etag = config.headers.get('x-moesif-config-etag');
      expect(etag).toMatch(/^[0-9a-f]{32}$/);
      expect(config.headers.get('x-config-etag')).toBe(etag);
      const event = await rt.collect('/v1/events', apiCall());
      expect(event.headers.get('x-moesif-config-etag')).toBe(etag);
    });

    it('the config ETag changes when the app settings change', async () => {
      const before = (await rt.collectorGet('/v1/config')).headers.get('x-moesif-config-etag');
      await rt.apps.updateSettings(rt.credentials.org_id, rt.credentials.app_id, { sample_rate: 50 });
      const after = await rt.collectorGet('/v1/config');
      expect(after.body.sample_rate).toBe(50);
      expect(after.headers.get('x-moesif-config-etag')).not.toBe(before);
      await rt.apps.updateSettings(rt.credentials.org_id, rt.credentials.app_id, { sample_rate: 100 });
    });

    it('GET /v1/rules answers an empty array until rules exist', async () => {
      const rules = await rt.collectorGet('/v1/rules');
      expect(rules.status).toBe(200);
      expect(rules.body).toEqual([]);
    });

    it('GET /health/probe needs no credentials', async () => {
      const probe = await send(`${rt.credentials.collector_url}/health/probe`, { method: 'GET' });
      expect(probe.status).toBe(200);
      expect(probe.body).toEqual({ status: true, region: 'local' });
    });
  });

  describe('authentication', () => {
    it('accepts X-Moesif-Application-Id as an alias', async () => {
      const res = await rt.collect('/v1/events', apiCall(), {
        headers: { 'x-service-application-id': '', 'x-moesif-application-id': rt.credentials.collector_application_id },
      });
      expect(res.status).toBe(201);
    });

    it.each([
      ['missing', {}],
      ['unknown', { 'x-service-application-id': 'x'.repeat(64) }],
    ])('answers a %s application id with 401 JSON', async (_label, headers) => {
      const res = await send(`${rt.credentials.collector_url}/v1/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(apiCall()),
      });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ status: 401, code: 'unauthorized' });
      expect(res.body.error.details[0].field).toBe('x-service-application-id');
    });

    it('management routes answer 401 without a token or with a bad one', async () => {
      expect((await rt.management('GET', '/search/~/users/x', { authorization: '' })).status).toBe(401);
      expect((await rt.management('GET', '/search/~/users/x', { authorization: 'Bearer a.b.c' })).status).toBe(401);
    });
  });

  describe('HTTP behaviour', () => {
    it('answers unknown paths 404, wrong methods 405 and non-JSON Accept 406, all in the error shape', async () => {
      const notFound = await rt.collect('/v1/nothing', {});
      expect(notFound.status).toBe(404);
      expect(notFound.body.error.code).toBe('not_found');
      const wrong = await rt.collectorGet('/v1/events');
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('POST');
      const html = await rt.collect('/v1/events', apiCall(), { headers: { accept: 'text/html' } });
      expect(html.status).toBe(406);
      expect(html.body.error.code).toBe('not_acceptable');
    });

    it('answers CORS preflight and sets Access-Control-Allow-Origin on answers', async () => {
      const pre = await send(`${rt.credentials.collector_url}/v1/events/batch`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
      expect((await rt.collect('/v1/events', apiCall())).headers.get('access-control-allow-origin')).toBe('*');
    });

    it('answers invalid JSON with 400 naming the body', async () => {
      const res = await rt.collect('/v1/events', undefined, { raw: Buffer.from('{"request": ') });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toBe('body');
    });
  });

  describe('validation and limits', () => {
    it('rejects a batch with bad items as a whole, listing every bad item by index and field', async () => {
      await rt.waitUntilConsumed();
      const before = await rt.countEvents();
      const res = await rt.collect('/v1/events/batch', [
        apiCall({ transaction_id: uuid(100) }),
        apiCall({ transaction_id: 'too-short' }),
        apiCall({ transaction_id: uuid(101) }),
        { ...apiCall(), request: { uri: 'https://x', verb: 'GET', headers: {} } },
      ]);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      const details = res.body.error.details as { index: number; field: string }[];
      expect(details).toEqual(
        expect.arrayContaining([expect.objectContaining({ index: 1, field: 'transaction_id' }), expect.objectContaining({ index: 3, field: 'request.time' })]),
      );
      expect(details.some((d) => d.index === 0 || d.index === 2)).toBe(false);
      await rt.waitUntilConsumed();
      expect(await rt.countEvents()).toBe(before);
      expect((await rt.management('GET', `/search/~/events/${uuid(100)}`)).status).toBe(404);
    });

    it('refuses a batch over 50 MB after decompression with 413', async () => {
      const one = JSON.stringify(apiCall({ metadata: { pad: 'p'.repeat(400_000) } }));
      const huge = Buffer.from(`[${Array.from({ length: 130 }, () => one).join(',')}]`);
      expect(huge.length).toBeGreaterThan(50_000_000);
      const res = await rt.collect('/v1/events/batch', undefined, { raw: gzipSync(huge), headers: { 'content-encoding': 'gzip' } });
      expect(res.status).toBe(413);
      expect(res.body.error.code).toBe('payload_too_large');
    });

    it('stores an event over 1 MB with its bodies truncated, base64-encoded and marked', async () => {
      const big = { rows: Array.from({ length: 40_000 }, (_, i) => ({ i, text: 'lorem ipsum dolor sit amet' })) };
      expect(JSON.stringify(big).length).toBeGreaterThan(1_000_000);
      const res = await rt.collect(
        '/v1/events',
        apiCall({ transaction_id: uuid(200), response: { time: new Date().toISOString(), status: 200, headers: {}, body: big } }),
      );
      expect(res.status).toBe(201);
      const stored = await getEvent(uuid(200));
      const response = stored.body._source.response;
      expect(response.transfer_encoding).toBe('base64');
      expect(response.body_truncated).toBe(true);
      expect(typeof response.body).toBe('string');
      expect(response.body.length).toBeLessThanOrEqual(450 * 1024);
    });

    it('rejects events older than 30 days unless the app has backfill enabled', async () => {
      const old = new Date(Date.now() - 31 * 86_400_000);
      const refused = await rt.collect('/v1/events', apiCall({ transaction_id: uuid(300) }, old));
      expect(refused.status).toBe(400);
      expect(refused.body.error.details[0].field).toBe('request.time');
      await rt.apps.updateSettings(rt.credentials.org_id, rt.credentials.app_id, { backfill_enabled: true });
      try {
        expect((await rt.collect('/v1/events', apiCall({ transaction_id: uuid(300) }, old))).status).toBe(201);
        expect((await getEvent(uuid(300))).body._source.is_late).toBe(true);
      } finally {
        await rt.apps.updateSettings(rt.credentials.org_id, rt.credentials.app_id, { backfill_enabled: false });
      }
    });

    it('marks events older than 5 minutes as late', async () => {
      await rt.collect('/v1/events/batch', [
        apiCall({ transaction_id: uuid(301) }, new Date(Date.now() - 10 * 60_000)),
        apiCall({ transaction_id: uuid(302) }),
      ]);
      expect((await getEvent(uuid(301))).body._source.is_late).toBe(true);
      expect((await getEvent(uuid(302))).body._source.is_late).toBe(false);
    });

    it('honours transfer_encoding base64 and rejects invalid base64 with 400', async () => {
      const good = apiCall({ transaction_id: uuid(400) });
      (good.request as Record<string, unknown>).body = Buffer.from('raw bytes').toString('base64');
      (good.request as Record<string, unknown>).transfer_encoding = 'base64';
      expect((await rt.collect('/v1/events', good)).status).toBe(201);
      expect((await getEvent(uuid(400))).body._source.request.body).toBe(Buffer.from('raw bytes').toString('base64'));
      const bad = apiCall();
      (bad.request as Record<string, unknown>).body = '%%% not base64 %%%';
      (bad.request as Record<string, unknown>).transfer_encoding = 'base64';
      const res = await rt.collect('/v1/events', bad);
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toBe('request.body');
    });

    it('fills request.ip_address from X-Forwarded-For and session_token from the Authorization header', async () => {
      await rt.collect('/v1/events', apiCall({ transaction_id: uuid(500) }), { headers: { 'x-forwarded-for': '203.0.113.9, 10.0.0.1' } });
      const source = (await getEvent(uuid(500))).body._source;
      expect(source.request.ip_address).toBe('203.0.113.9');
      expect(source.session_token).toBe('live_abc123');
    });

    it("adds the caller's country and parsed user agent at ingest (DB-IP Country Lite, ua-parser-js)", async () => {
      const event = apiCall({ transaction_id: uuid(501) });
      (event.request as { headers: Record<string, string> }).headers['user-agent'] = 'python-requests/2.31.0';
      await rt.collect('/v1/events', event, { headers: { 'x-forwarded-for': '81.2.69.142' } });
      const request = (await getEvent(uuid(501))).body._source.request;
      expect(request.geo_ip).toEqual({ country_iso_code: 'GB', country_name: 'United Kingdom' });
      expect(request.user_agent).toEqual({ name: 'python-requests', major: '2' });
    });

    it('requires transaction_id to be exactly 36 characters', async () => {
      const res = await rt.collect('/v1/events', apiCall({ transaction_id: `${uuid(1)}x` }));
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toBe('transaction_id');
    });
  });

  describe('large batches through pre-signed uploads', () => {
    it('accepts an upload, processes it like a batch and reports its status', async () => {
      const created = await rt.collect('/v1/uploads?kind=event', undefined, { raw: Buffer.alloc(0), headers: { 'content-type': 'application/json' } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ method: 'PUT', kind: 'event', expires_in: 3600 });
      const uploadId = created.body.upload_id as string;
      expect((await rt.collectorGet(`/v1/uploads/${uploadId}`)).status).toBe(404);
      const events = Array.from({ length: 50 }, (_, i) => apiCall({ transaction_id: uuid(600 + i) }));
      const put = await fetch(created.body.url, { method: 'PUT', body: gzipSync(Buffer.from(JSON.stringify(events))) });
      expect(put.status).toBe(200);
      let status: any;
      for (let i = 0; i < 100; i++) {
        status = (await rt.collectorGet(`/v1/uploads/${uploadId}`)).body;
        if (status.status !== 'pending') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toMatchObject({ upload_id: uploadId, status: 'accepted', accepted: 50 });
      expect((await getEvent(uuid(649))).status).toBe(200);
    });

    it('reports a rejected upload with the same error details a batch would get', async () => {
      const created = await rt.collect('/v1/uploads?kind=user', undefined, { raw: Buffer.alloc(0) });
      await fetch(created.body.url, { method: 'PUT', body: JSON.stringify([{ user_id: 'ok' }, { metadata: {} }]) });
      let status: any;
      for (let i = 0; i < 100; i++) {
        status = (await rt.collectorGet(`/v1/uploads/${created.body.upload_id}`)).body;
        if (status.status !== 'pending') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(status.status).toBe('rejected');
      expect(status.error.details).toEqual([expect.objectContaining({ index: 1, field: 'user_id' })]);
    });

    it('refuses an unknown upload kind with 400', async () => {
      const res = await rt.collect('/v1/uploads?kind=widgets', undefined, { raw: Buffer.alloc(0) });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toBe('kind');
    });
  });
});

describe('collector when the stream refuses writes', () => {
  it('answers 503 with the error shape and acknowledges nothing', async () => {
    const { DeleteStreamCommand } = await import('@aws-sdk/client-kinesis');
    const rt = await startTestRuntime('stream-down');
    try {
      await rt.poller.stop({ drain: true });
      await rt.clients.kinesis.send(new DeleteStreamCommand({ StreamName: rt.names.stream, EnforceConsumerDeletion: true }));
      const res = await rt.collect('/v1/events', apiCall());
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({ status: 503, code: 'service_unavailable' });
    } finally {
      await rt.dispose();
    }
  });
});
