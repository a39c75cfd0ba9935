import { managementScopes, type ManagementScope } from '../../schemas/scopes';
import { apiCall, send, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/** The management search API over HTTP: DSL, counts, dates, profiles, deletes, scopes, tenants. */
describe('search API', () => {
  let rt: TestRuntime;
  let otherApp: { collectorId: string; token: string };
  const hour = 3_600_000;
  const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * hour);

  async function tokenFor(orgId: string, appId: string, scopes: ManagementScope[]): Promise<string> {
    return rt.issueToken({ org_id: orgId, app_id: appId, scopes });
  }

  beforeAll(async () => {
    rt = await startTestRuntime('search');
    const other = await rt.apps.createOrgWithApp({ orgId: 'org_other', orgName: 'Other', appId: 'app_other', appName: 'Other' });
    otherApp = { collectorId: other.collector_application_id, token: await tokenFor('org_other', 'app_other', [...managementScopes]) };

    const events = [
      apiCall(
        {
          transaction_id: uuid(1),
          user_id: 'alice',
          company_id: 'acme',
          response: { time: at(1).toISOString(), status: 200, headers: {} },
          metadata: { plan: 'pro' },
        },
        at(1),
      ),
      apiCall(
        {
          transaction_id: uuid(2),
          user_id: 'alice',
          company_id: 'acme',
          response: { time: at(2).toISOString(), status: 500, headers: {} },
          metadata: { plan: 'pro' },
        },
        at(2),
      ),
      apiCall(
        {
          transaction_id: uuid(3),
          user_id: 'bob',
          company_id: 'globex',
          weight: 10,
          response: { time: at(3).toISOString(), status: 200, headers: {} },
          metadata: { plan: 'free' },
        },
        at(3),
      ),
      apiCall({ transaction_id: uuid(4), user_id: 'bob', company_id: 'globex', response: { time: at(30).toISOString(), status: 404, headers: {} } }, at(30)),
    ];
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.collect('/v1/users/batch', [
      { user_id: 'alice', company_id: 'acme', metadata: { email: 'alice@acme.com' } },
      { user_id: 'bob', company_id: 'globex', metadata: { email: 'bob@globex.com' } },
    ]);
    await rt.collect('/v1/companies/batch', [
      { company_id: 'acme', company_domain: 'acme.com' },
      { company_id: 'globex', company_domain: 'globex.com' },
    ]);
    await rt.collect('/v1/subscriptions', { subscription_id: 'sub-acme', company_id: 'acme', status: 'active' });
    // The other tenant has an event with the same transaction id and the same user ids.
    await send(`${rt.credentials.collector_url}/v1/events/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-application-id': otherApp.collectorId },
      body: JSON.stringify([apiCall({ transaction_id: uuid(1), user_id: 'alice', company_id: 'acme' }, at(1))]),
    });
    await rt.waitUntilConsumed();
  });
  afterAll(() => rt?.dispose());

  const search = (path: string, body: unknown, token = rt.credentials.management_token) =>
    rt.management('POST', path, { authorization: `Bearer ${token}` }, body);

  it('searches events with a query, sort and aggregations (200, OpenSearch shape)', async () => {
    const res = await search('/search/~/search/events?from=-24h&to=now', {
      query: { bool: { filter: [{ term: { 'user_id.raw': 'alice' } }] } },
      sort: [{ 'request.time': 'desc' }],
      size: 10,
      aggs: { by_status: { terms: { field: 'response.status' } }, weight: { sum: { field: 'weight', missing: 1 } } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timed_out: false, hits: { total: 2 } });
    expect(res.body.hits.hits.map((h: { _id: string }) => h._id)).toEqual([uuid(1), uuid(2)]);
    expect(res.body.aggregations.by_status.buckets).toEqual([
      { key: 200, doc_count: 1 },
      { key: 500, doc_count: 1 },
    ]);
    expect(res.body.aggregations.weight.value).toBe(2);
  });

  it('applies the from/to window: -24h excludes the 30-hour-old event', async () => {
    const recent = await search('/search/~/search/events?from=-24h&to=now', { size: 0 });
    expect(recent.body.hits.total).toBe(3);
    const all = await search('/search/~/search/events?from=-2d&to=now', { size: 0 });
    expect(all.body.hits.total).toBe(4);
  });

  it('counts with both documented forms', async () => {
    for (const path of ['/search/~/count/events?from=-2d&to=now', '/search/~/search/count?from=-2d&to=now', '/v1/search/~/count/events?from=-2d&to=now']) {
      const res = await search(path, { query: { term: { 'user_id.raw': 'bob' } } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ count: 2 });
    }
  });

  it('rejects bad dates and unsupported members with 400 naming them', async () => {
    const zone = await search('/search/~/search/events?from=-1d&to=now&time_zone=Mars/Olympus', {});
    expect(zone.status).toBe(400);
    expect(zone.body.error.details[0].field).toBe('time_zone');
    const order = await search('/search/~/search/events?from=now&to=-1d', {});
    expect(order.status).toBe(400);
    expect(order.body.error.details[0].field).toBe('from');
    const script = await search('/search/~/search/events?from=-1d&to=now', { query: { script: { script: 'return true' } } });
    expect(script.status).toBe(400);
    expect(script.body.error.details[0].field).toContain('script');
  });

  it("searches and counts users and companies, and lists a company's subscriptions", async () => {
    const users = await search('/search/~/search/users', { query: { term: { 'metadata.email.raw': 'bob@globex.com' } } });
    expect(users.body.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['bob']);
    expect((await search('/search/~/count/users', {})).body).toEqual({ count: 2 });
    const companies = await search('/search/~/search/companies', { query: { match: { company_domain: 'acme' } } });
    expect(companies.body.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['acme']);
    const subs = await rt.management('GET', '/search/~/companies/acme/subscriptions');
    expect(subs.status).toBe(200);
    expect(subs.body.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['sub-acme']);
  });

  it("lists the fields a query can use, from the tenant's own documents", async () => {
    const res = await rt.management('GET', '/search/~/mappings/events/properties');
    expect(res.status).toBe(200);
    expect(res.body.properties).toMatchObject({
      'response.status': { type: 'long' },
      user_id: { type: 'keyword' },
      'request.time': { type: 'date' },
      'request.uri': { type: 'text', fields: { raw: { type: 'keyword' } } },
    });
    expect((await rt.management('GET', '/search/~/mappings/users/properties')).body.properties['metadata.email']).toBeDefined();
  });

  it("never shows another tenant's documents, whatever the query", async () => {
    const hostile = await search('/search/~/search/events?from=-2d&to=now', {
      query: { bool: { should: [{ match_all: {} }, { term: { app_id: 'app_other' } }], minimum_should_match: 0 } },
      post_filter: { bool: { must_not: [{ term: { org_id: rt.credentials.org_id } }] } },
      aggs: { apps: { terms: { field: 'app_id' } } },
    });
    expect(hostile.status).toBe(200);
    expect(hostile.body.hits.total).toBe(0);
    expect(hostile.body.aggregations.apps.buckets).toEqual([{ key: rt.credentials.app_id, doc_count: 4 }]);
    const other = await search('/search/~/search/events?from=-2d&to=now', { query: { ids: { values: [uuid(1), uuid(2)] } } }, otherApp.token);
    expect(other.body.hits.hits.map((h: { _id: string }) => h._id)).toEqual([uuid(1)]);
    expect(other.body.hits.hits[0]._source.app_id).toBe('app_other');
  });

  it("requires the route's scope", async () => {
    const readUsersOnly = await tokenFor(rt.credentials.org_id, rt.credentials.app_id, ['read:users']);
    expect((await search('/search/~/search/events?from=-1d&to=now', {}, readUsersOnly)).status).toBe(401);
    expect((await search('/search/~/search/users', {}, readUsersOnly)).status).toBe(200);
    expect((await rt.management('DELETE', '/search/~/users/alice', { authorization: `Bearer ${readUsersOnly}` })).status).toBe(401);
  });

  it('gets one event by id; event_time only says where to look (a wrong one still finds it), a bad one is a 400', async () => {
    const found = await search('/search/~/search/events?from=-2d&to=now', { query: { ids: { values: [uuid(3)] } } });
    const eventTime = found.body.hits.hits[0]._source.request.time as string;
    const res = await rt.management('GET', `/search/~/events/${uuid(3)}?event_time=${encodeURIComponent(eventTime)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: uuid(3), _source: { user_id: 'bob', company_id: 'globex', weight: 10, request: { time: eventTime } } });
    const elsewhere = await rt.management('GET', `/search/~/events/${uuid(3)}?event_time=2020-01-01T00:00:00.000Z`);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body._id).toBe(uuid(3));
    expect((await rt.management('GET', `/search/~/events/${uuid(3)}`)).status).toBe(200);
    const bad = await rt.management('GET', `/search/~/events/${uuid(3)}?event_time=yesterday`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('event_time');
    expect((await rt.management('GET', `/search/~/events/${uuid(99)}?event_time=${encodeURIComponent(eventTime)}`)).status).toBe(404);
    // The other app has no event uuid(3); its own uuid(1) is its own document.
    const foreign = { authorization: `Bearer ${otherApp.token}` };
    expect((await rt.management('GET', `/search/~/events/${uuid(3)}`, foreign)).status).toBe(404);
    expect((await rt.management('GET', `/search/~/events/${uuid(1)}`, foreign)).body._source.app_id).toBe('app_other');
  });

  it('gets a company by id, and 404 for one this app does not have', async () => {
    const res = await rt.management('GET', '/search/~/companies/acme');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: 'acme', _source: { company_id: 'acme', company_domain: 'acme.com' } });
    expect((await rt.management('GET', '/search/~/companies/initech')).status).toBe(404);
    expect((await rt.management('GET', '/search/~/companies/acme', { authorization: `Bearer ${otherApp.token}` })).status).toBe(404);
  });

  it('serves the same routes under /v1', async () => {
    const events = await search('/v1/search/~/search/events?from=-24h&to=now', { query: { term: { 'user_id.raw': 'alice' } }, size: 10 });
    expect(events.status).toBe(200);
    expect(events.body.hits.total).toBe(2);
    expect(events.body.hits.hits.map((h: { _id: string }) => h._id)).toEqual([uuid(1), uuid(2)]);
    const user = await rt.management('GET', '/v1/search/~/users/bob');
    expect(user.status).toBe(200);
    expect(user.body).toMatchObject({ _id: 'bob', _source: { user_id: 'bob', company_id: 'globex', metadata: { email: 'bob@globex.com' } } });
    expect((await rt.management('GET', '/v1/search/~/users/nobody')).status).toBe(404);
    expect((await rt.management('GET', '/v1/search/~/companies/globex')).body._source.company_domain).toBe('globex.com');
  });

  it('deletes a user and, with delete_events=true, its events', async () => {
    const res = await rt.management('DELETE', '/search/~/users/alice?delete_events=true');
    expect(res.status).toBe(200);
    // DuckDB deletes at once: completed, with no deletion to follow.
    expect(res.body).toEqual({ user_id: 'alice', deleted: true, events_deleted: 2, events_deletion: { status: 'completed', deleted: 2, total: 2 } });
    expect((await rt.management('GET', '/search/~/users/alice')).status).toBe(404);
    expect((await search('/search/~/count/events?from=-2d&to=now', {})).body).toEqual({ count: 2 });
    // The other tenant's alice and her event are untouched.
    expect((await search('/search/~/count/events?from=-2d&to=now', {}, otherApp.token)).body).toEqual({ count: 1 });
    expect((await rt.management('DELETE', '/search/~/users/alice')).status).toBe(404);
  });

  it('deletes a company and, with delete_events=true, its events only', async () => {
    await rt.collect('/v1/companies/batch', [{ company_id: 'initech', company_domain: 'initech.com' }]);
    const events = [
      apiCall({ transaction_id: uuid(11), user_id: 'carol', company_id: 'initech' }, at(1)),
      apiCall({ transaction_id: uuid(12), user_id: 'carol', company_id: 'initech' }, at(2)),
    ];
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed();
    const countOf = async (company: string, token = rt.credentials.management_token) =>
      (await search('/search/~/count/events?from=-2d&to=now', { query: { term: { 'company_id.raw': company } } }, token)).body.count;
    expect(await countOf('initech')).toBe(2);
    expect(await countOf('globex')).toBe(2);
    expect((await rt.management('GET', '/search/~/companies/initech')).status).toBe(200);

    const res = await rt.management('DELETE', '/search/~/companies/initech?delete_events=true');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ company_id: 'initech', deleted: true, events_deleted: 2, events_deletion: { status: 'completed', deleted: 2, total: 2 } });
    expect((await rt.management('GET', '/search/~/companies/initech')).status).toBe(404);
    expect(await countOf('initech')).toBe(0);
    // Another company's events and profile, and the other tenant's acme, are untouched.
    expect(await countOf('globex')).toBe(2);
    expect((await rt.management('GET', '/search/~/companies/globex')).status).toBe(200);
    expect(await countOf('acme', otherApp.token)).toBe(1);
    // Without delete_events the company goes and its events stay.
    const kept = await rt.management('DELETE', '/v1/search/~/companies/globex');
    expect(kept.body).toEqual({ company_id: 'globex', deleted: true, events_deleted: 0 });
    expect(await countOf('globex')).toBe(2);
    expect((await rt.management('DELETE', '/search/~/companies/initech?delete_events=true')).status).toBe(404);
  });

  it("answers 404 for a deletion id that is forged, altered or another app's", async () => {
    for (const id of ['nothing', 'eyJ0IjoibjoxIn0.abc', 'a.b.c']) {
      const res = await rt.management('GET', `/search/~/deletions/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});
