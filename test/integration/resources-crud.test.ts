import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { loadOrCreateSigningKey } from '../../bin/local/bootstrap';
import { issueManagementToken } from '../../functions/management-tokens/token-issuer';
import { TokenStore } from '../../functions/management-tokens/token-store';
import { ResourceStore } from '../../functions/resources/resource-store';
import { managementScopes, type ManagementScope } from '../../schemas/scopes';
import { send, startTestRuntime, type TestResponse, type TestRuntime } from './support/runtime';

/** Managed resources over HTTP on the real emulators: apps, cohorts, governance rules, billing meters. */
describe('managed resources', () => {
  let rt: TestRuntime;
  let otherToken: string;

  async function tokenFor(orgId: string, appId: string, scopes: readonly ManagementScope[]): Promise<string> {
    const store = new TokenStore(rt.clients.documents, rt.names.tables.resources);
    return (await issueManagementToken(store, await loadOrCreateSigningKey(rt.dataDir), { sub: 'test', org_id: orgId, app_id: appId, scopes })).token;
  }

  beforeAll(async () => {
    rt = await startTestRuntime('resources', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
    await rt.apps.createOrgWithApp({ orgId: 'org_b', orgName: 'B', appId: 'app_b', appName: 'B' });
    otherToken = await tokenFor('org_b', 'app_b', managementScopes);
  });
  afterAll(() => rt?.dispose());

  const api = (method: string, path: string, body?: unknown, token?: string) =>
    rt.management(method, path, token ? { authorization: `Bearer ${token}` } : {}, body);
  const fieldsOf = (response: { body: any }) => (response.body.error.details as { field: string }[]).map((d) => d.field);

  const userCohort = { cohort_name: 'Big spenders', cohort_type: 'user', criteria: { query: { bool: { must: [{ term: { 'user_id.raw': 'alice' } }] } } } };
  const meter = (overrides: Record<string, unknown> = {}) => ({
    name: 'API calls',
    slug: 'api-calls',
    es_query: { query: { bool: { filter: [{ term: { 'company_id.raw': '{{company_id}}' } }] } }, aggs: { calls: { value_count: { field: 'request.time' } } } },
    billing_plan: { provider_slug: 'webhook', params: { usage_rounding_mode: 'up', webhook_params: { channel_ids: ['ch1'], custom_plan: { plan_id: 'p1' } } } },
    ...overrides,
  });

  describe('cohorts', () => {
    it('create, get, update, list by type, delete sample rate, delete', async () => {
      const created = await api('POST', '/~/cohorts', { ...userCohort, time_zone: 'europe/berlin' });
      expect(created.status).toBe(201);
      const cohort = created.body;
      expect(cohort).toMatchObject({
        cohort_name: 'Big spenders',
        cohort_type: 'user',
        org_id: rt.credentials.org_id,
        app_id: rt.credentials.app_id,
        time_zone: 'Europe/Berlin',
      });
      expect(typeof cohort.criteria).toBe('string');
      expect(JSON.parse(cohort.criteria)).toEqual(userCohort.criteria);
      expect(cohort._id).toMatch(/^[0-9a-f]{20}$/);
      expect(cohort.created_at).toBe(cohort.modified_at);

      expect((await api('GET', `/~/cohorts/${cohort._id}`)).body).toEqual(cohort);
      expect((await api('GET', `/v1/~/cohorts/${cohort._id}`)).body).toEqual(cohort);

      const updated = await api('POST', `/~/cohorts/${cohort._id}`, { cohort_type: 'user', cohort_name: 'Whales', sample_rate: 20 });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ cohort_name: 'Whales', sample_rate: 20, created_at: cohort.created_at, criteria: cohort.criteria });
      expect(updated.body.modified_at > cohort.modified_at).toBe(true);
      const viaPut = await api('PUT', `/~/cohorts/${cohort._id}`, { cohort_type: 'user', priority: 3 });
      expect(viaPut.body).toMatchObject({ cohort_name: 'Whales', priority: 3 });

      const company = await api('POST', '/~/cohorts', { cohort_name: 'Acme-like', cohort_type: 'company', criteria: { term: { 'company_id.raw': 'acme' } } });
      expect(company.status).toBe(201);
      const users = await api('GET', '/~/cohorts?cohort_type=user');
      expect(users.body.map((c: any) => c._id)).toContain(cohort._id);
      expect(users.body.every((c: any) => c.cohort_type === 'user')).toBe(true);
      expect((await api('GET', '/~/cohorts?cohort_type=company')).body.map((c: any) => c._id)).toEqual([company.body._id]);
      expect(fieldsOf(await api('GET', '/~/cohorts?cohort_type=team'))).toEqual(['cohort_type']);

      const noRate = await api('DELETE', `/~/cohorts/${cohort._id}/sample_rate`);
      expect(noRate.status).toBe(200);
      expect(noRate.body.sample_rate).toBeUndefined();
      expect(noRate.body.cohort_name).toBe('Whales');

      expect((await api('DELETE', `/~/cohorts/${cohort._id}`)).status).toBe(204);
      expect((await api('GET', `/~/cohorts/${cohort._id}`)).status).toBe(410);
      expect((await api('POST', `/~/cohorts/${cohort._id}`, { cohort_type: 'user' })).status).toBe(410);
      expect((await api('DELETE', `/~/cohorts/${cohort._id}`)).status).toBe(410);
      expect((await api('GET', '/~/cohorts')).body.map((c: any) => c._id)).not.toContain(cohort._id);
    });

    it('refuses bad input with 400 naming the field, and writes nothing', async () => {
      const before = (await api('GET', '/~/cohorts?take=1000')).body.length;
      const cases: [unknown, string][] = [
        [{ ...userCohort, cohort_type: 'team' }, 'cohort_type'],
        [{ cohort_type: 'user', criteria: {} }, 'cohort_name'],
        [{ ...userCohort, criteria: { query: { script: { source: 'x' } } } }, 'criteria.query.script'],
        [{ ...userCohort, criteria: { bool: { must: 'nope' } } }, 'criteria'],
        [{ ...userCohort, time_zone: 'Mars/Olympus' }, 'time_zone'],
        [{ ...userCohort, colour: 'red' }, 'colour'],
        [{ ...userCohort, notification_rule: { send_on_addition: true } }, 'notification_rule.send_on_removal'],
      ];
      for (const [body, field] of cases) {
        const answer = await api('POST', '/~/cohorts', body);
        expect(answer.status).toBe(400);
        expect(answer.body.error.code).toBe('invalid_request');
        expect(fieldsOf(answer).some((f) => f.startsWith(field))).toBe(true);
      }
      expect((await api('POST', '/~/cohorts', [userCohort])).status).toBe(400);
      expect((await api('GET', '/~/cohorts?take=1000')).body.length).toBe(before);
    });

    it('update needs cohort_type and cannot change it or system fields', async () => {
      const { body: cohort } = await api('POST', '/~/cohorts', userCohort);
      expect(fieldsOf(await api('POST', `/~/cohorts/${cohort._id}`, { cohort_name: 'x' }))).toEqual(['cohort_type']);
      expect(fieldsOf(await api('POST', `/~/cohorts/${cohort._id}`, { cohort_type: 'company' }))).toEqual(['cohort_type']);
      expect(fieldsOf(await api('POST', `/~/cohorts/${cohort._id}`, { cohort_type: 'user', _id: 'ffffffffffffffffffff' }))).toEqual(['_id']);
      expect(fieldsOf(await api('POST', `/~/cohorts/${cohort._id}`, { cohort_type: 'user', created_at: '2000-01-01T00:00:00.000Z' }))).toEqual(['created_at']);
      // The document as the API showed it may be sent back whole.
      const echoed = await api('POST', `/~/cohorts/${cohort._id}`, { ...cohort, criteria: JSON.parse(cohort.criteria), cohort_name: 'Echoed' });
      expect(echoed.status).toBe(200);
      expect(echoed.body.cohort_name).toBe('Echoed');
      expect((await api('GET', `/~/cohorts/${cohort._id}`)).body.cohort_type).toBe('user');
    });
  });

  describe('concurrency and tombstones', () => {
    it('concurrent updates of different fields all land (optimistic retries on modified_at)', async () => {
      const { body: cohort } = await api('POST', '/~/cohorts', userCohort);
      const changes = [{ priority: 5 }, { channels: ['email'] }, { locked_by: 'ops' }, { url_query: 'q=1' }, { from: '-7d' }];
      const answers = await Promise.all(changes.map((change) => api('POST', `/~/cohorts/${cohort._id}`, { cohort_type: 'user', ...change })));
      expect(answers.map((a) => a.status)).toEqual(changes.map(() => 200));
      const final = (await api('GET', `/~/cohorts/${cohort._id}`)).body;
      for (const change of changes) expect(final).toMatchObject(change);
      expect(new Set(answers.map((a) => a.body.modified_at)).size).toBe(changes.length);
    });

    it('a tombstone answers 410 for 30 days, then the id is unknown (404)', async () => {
      let clock = new Date('2030-01-01T00:00:00Z');
      const store = new ResourceStore(rt.clients.documents, rt.names.tables.resources, () => clock);
      const at = { partition: 'ORG#org_clock#APP#app_clock', prefix: 'METER' };
      // Per-app resources are written only while their app exists.
      await rt.apps.createOrgWithApp({ orgId: 'org_clock', orgName: 'Clock', appId: 'app_clock', appName: 'Clock' });
      expect(await store.create(at, '0000000000010000aaaa', { _id: '0000000000010000aaaa', modified_at: clock.toISOString() })).toBe(true);
      expect(await store.create(at, '0000000000010000aaaa', { _id: 'again' })).toBe(false);
      await store.delete(at, '0000000000010000aaaa', 'meter');
      clock = new Date('2030-01-30T00:00:00Z');
      await expect(store.get(at, '0000000000010000aaaa', 'meter')).rejects.toMatchObject({ status: 410 });
      clock = new Date('2030-02-01T00:00:01Z');
      await expect(store.get(at, '0000000000010000aaaa', 'meter')).rejects.toMatchObject({ status: 404 });
      expect((await store.list(at)).items).toEqual([]);
    });

    it('an update whose change returns the current document writes nothing', async () => {
      const store = new ResourceStore(rt.clients.documents, rt.names.tables.resources);
      const at = { partition: 'ORG#org_clock#APP#app_clock', prefix: 'METER' };
      expect(await store.create(at, '0000000000010000bbbb', { _id: '0000000000010000bbbb', name: 'a', modified_at: '2030-01-01T00:00:00.000Z' })).toBe(true);
      const unchanged = await store.update(at, '0000000000010000bbbb', 'meter', (current) => current);
      expect(unchanged.modified_at).toBe('2030-01-01T00:00:00.000Z');
      expect((await store.get(at, '0000000000010000bbbb', 'meter')).modified_at).toBe('2030-01-01T00:00:00.000Z');
      const changed = await store.update(at, '0000000000010000bbbb', 'meter', (current) => ({ ...current, name: 'b' }));
      expect(changed.modified_at).not.toBe('2030-01-01T00:00:00.000Z');
    });
  });

  describe('apps holding a kind', () => {
    it('lists the apps that hold a kind from its registry, including items written before the registry existed, without scanning again', async () => {
      const store = new ResourceStore(rt.clients.documents, rt.names.tables.resources);
      const apps = ['app_kind_a', 'app_kind_b', 'app_kind_c'];
      for (const appId of apps) await rt.apps.createOrgWithApp({ orgId: `org_${appId}`, orgName: appId, appId, appName: appId });
      const partition = (appId: string) => `ORG#org_${appId}#APP#${appId}`;
      // An item from before the registry: written straight to the table, as an older version did.
      await rt.clients.documents.send(
        new PutCommand({ TableName: rt.names.tables.resources, Item: { pk: partition('app_kind_a'), sk: 'KINDTEST#0000000000010000cccc', _id: 'old' } }),
      );
      expect(await store.create({ partition: partition('app_kind_b'), prefix: 'KINDTEST' }, '0000000000010000dddd', { _id: 'new' })).toBe(true);
      expect((await store.partitionsHolding('KINDTEST')).sort()).toEqual([partition('app_kind_a'), partition('app_kind_b')]);
      // Registered now: an item written straight to the table again is not seen (no second scan) …
      await rt.clients.documents.send(
        new PutCommand({ TableName: rt.names.tables.resources, Item: { pk: partition('app_kind_c'), sk: 'KINDTEST#0000000000010000eeee', _id: 'unseen' } }),
      );
      expect((await store.partitionsHolding('KINDTEST')).sort()).toEqual([partition('app_kind_a'), partition('app_kind_b')]);
      // … while one created through the store is.
      expect(await store.create({ partition: partition('app_kind_c'), prefix: 'KINDTEST' }, '0000000000010000ffff', { _id: 'created' })).toBe(true);
      expect((await store.partitionsHolding('KINDTEST')).sort()).toEqual(apps.map(partition));
    });
  });

  describe('paging', () => {
    it('25 meters paged by 10 with before_id: newest first, none missing or repeated', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 25; i += 1) {
        const created = await api('POST', '/~/billing/meters', meter({ slug: `paging-${i}` }));
        expect(created.status).toBe(201);
        ids.push(created.body._id);
      }
      const seen: string[] = [];
      let before: string | undefined;
      for (let page = 0; page < 5; page += 1) {
        const answer = await api('GET', `/~/billing/meters?take=10${before ? `&before_id=${before}` : ''}`);
        expect(answer.status).toBe(200);
        seen.push(...answer.body.map((m: any) => m._id));
        const next = answer.headers.get('x-next-before-id');
        if (!next) break;
        expect(next).toBe(answer.body[answer.body.length - 1]._id);
        before = next;
      }
      const ours = seen.filter((id) => ids.includes(id));
      expect(ours).toEqual([...ids].reverse());
      expect(new Set(seen).size).toBe(seen.length);
      expect(fieldsOf(await api('GET', '/~/billing/meters?take=0'))).toEqual(['take']);
      expect(fieldsOf(await api('GET', '/~/billing/meters?take=1001'))).toEqual(['take']);
      expect(fieldsOf(await api('GET', '/~/billing/meters?before_id=%27%20OR%201'))).toEqual(['before_id']);
    });

    it('refuses values DynamoDB cannot store with a 400 naming them, for every kind (checked in the store)', async () => {
      const tiny = await api(
        'POST',
        '/~/billing/meters',
        meter({ slug: 'tiny', billing_plan: { provider_slug: 'stripe', params: { usage_multiplier: 1e-200 } } }),
      );
      expect(tiny.status).toBe(400);
      expect(fieldsOf(tiny)).toEqual(['billing_plan.params.usage_multiplier']);
      const emptyKey = await api(
        'POST',
        '/~/billing/meters',
        meter({ slug: 'empty-key', billing_plan: { provider_slug: 'stripe', params: { stripe_params: { '': 1 } } } }),
      );
      expect(emptyKey.status).toBe(400);
      expect(fieldsOf(emptyKey)).toEqual(['billing_plan.params.stripe_params']);
    });
  });

  describe('governance rules', () => {
    it('validates regexes and cohort references, and the collector serves enabled rules', async () => {
      const { body: users } = await api('POST', '/~/cohorts', userCohort);
      const { body: companies } = await api('POST', '/~/cohorts', { cohort_name: 'Co', cohort_type: 'company', criteria: { match_all: {} } });
      const rule = {
        name: 'Block free tier',
        type: 'user',
        state: 1,
        block: true,
        cohorts: [{ id: users._id }],
        applied_to: 'matching',
        response: { status: 429, headers: { 'x-why': '{{reason}}' }, body: { error: 'quota' } },
        variables: [{ name: 'reason', path: 'user.metadata.reason' }],
      };

      const badRegex = await api('POST', '/~/governance/rules', {
        name: 'r',
        type: 'regex',
        state: 1,
        block: true,
        regex_config: [
          {
            conditions: [
              { path: 'request.route', value: '/a' },
              { path: 'request.verb', value: '(unclosed' },
            ],
          },
        ],
      });
      expect(badRegex.status).toBe(400);
      expect(fieldsOf(badRegex)).toEqual(['regex_config[0].conditions[1].value']);
      expect(fieldsOf(await api('POST', '/~/governance/rules', { ...rule, cohorts: [{ id: '0000000000000000dead' }] }))).toEqual(['cohorts[0].id']);
      expect(fieldsOf(await api('POST', '/~/governance/rules', { ...rule, cohorts: [{ id: companies._id }] }))).toEqual(['cohorts[0].id']);
      expect(fieldsOf(await api('POST', '/~/governance/rules', { ...rule, state: 7 }))).toEqual(['state']);

      const created = await api('POST', '/~/governance/rules', rule);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ ...rule, org_id: rt.credentials.org_id, app_id: rt.credentials.app_id });
      const id = created.body._id;
      const served = await rt.collectorGet('/v1/rules');
      expect(served.body.map((r: any) => r._id)).toContain(id);

      // Changing the type makes the user cohort a mismatch: refused, nothing written.
      expect(fieldsOf(await api('POST', `/~/governance/rules/${id}`, { type: 'company' }))).toEqual(['cohorts[0].id']);
      const disabled = await api('POST', `/~/governance/rules/${id}`, { state: 0 });
      expect(disabled.body).toMatchObject({ state: 0, type: 'user', name: 'Block free tier' });
      expect((await rt.collectorGet('/v1/rules')).body.map((r: any) => r._id)).not.toContain(id);

      // variables and plans are checked member by member on create and update; nothing is written.
      const plan = { provider: 'stripe', plan_id: 'pro', price_ids: ['price_1'] };
      const badBodies: [Record<string, unknown>, string[]][] = [
        [{ variables: [{ path: 'user.metadata.reason' }] }, ['variables[0].name']],
        [{ variables: [{ name: 'reason' }] }, ['variables[0].path']],
        [{ variables: [{ name: 7, path: 'user.metadata.reason' }] }, ['variables[0].name']],
        [{ variables: [{ name: 'reason', path: ['user', 'metadata'] }] }, ['variables[0].path']],
        [{ variables: [{ name: 'reason', path: 'p', default: 'x' }] }, ['variables[0].default']],
        [{ variables: { name: 'reason', path: 'p' } }, ['variables']],
        [{ plans: [{ plan_id: 'pro', price_ids: [] }] }, ['plans[0].provider']],
        [{ plans: [{ provider: 'stripe', price_ids: [] }] }, ['plans[0].plan_id']],
        [{ plans: [{ provider: 'stripe', plan_id: 'pro' }] }, ['plans[0].price_ids']],
        [{ plans: [plan, { ...plan, price_ids: 'price_1' }] }, ['plans[1].price_ids']],
        [{ plans: [{ ...plan, price_ids: [5] }] }, ['plans[0].price_ids[0]']],
        [{ plans: [{ ...plan, provider: '' }] }, ['plans[0].provider']],
        [{ plans: 'stripe' }, ['plans']],
      ];
      const count = async () => (await api('GET', '/~/governance/rules?take=1000')).body.length;
      const rulesBefore = await count();
      const shown = (await api('GET', `/~/governance/rules/${id}`)).body;
      for (const [body, fields] of badBodies) {
        const created = await api('POST', '/~/governance/rules', { ...rule, ...body });
        expect([created.status, fieldsOf(created)]).toEqual([400, fields]);
        const updated = await api('POST', `/~/governance/rules/${id}`, body);
        expect([updated.status, fieldsOf(updated)]).toEqual([400, fields]);
      }
      expect(await count()).toBe(rulesBefore);
      expect((await api('GET', `/~/governance/rules/${id}`)).body).toEqual(shown);
      const withPlans = await api('POST', `/~/governance/rules/${id}`, { plans: [plan], variables: [{ name: 'email', path: 'user.metadata.email' }] });
      expect(withPlans.status).toBe(200);
      expect(withPlans.body).toMatchObject({ plans: [plan], variables: [{ name: 'email', path: 'user.metadata.email' }] });

      expect((await api('DELETE', `/~/governance/rules/${id}`)).status).toBe(204);
      expect((await api('GET', `/~/governance/rules/${id}`)).status).toBe(410);
      expect((await api('GET', '/~/governance/rules/0000000000000000beef')).status).toBe(404);
    });
  });

  describe('billing meters', () => {
    it('takes es_query as an object, JSON text or base64 and stores the same JSON text', async () => {
      const query = meter().es_query;
      const forms = [query, JSON.stringify(query), Buffer.from(JSON.stringify(query)).toString('base64')];
      const stored: string[] = [];
      for (const es_query of forms) {
        const created = await api('POST', '/~/billing/meters', meter({ es_query }));
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({ status: 'active', url_query: '', slug: 'api-calls' });
        stored.push(created.body.es_query);
      }
      expect(new Set(stored).size).toBe(1);
      expect(JSON.parse(stored[0]!)).toEqual(query);

      expect(fieldsOf(await api('POST', '/~/billing/meters', meter({ es_query: 'not json' })))).toEqual(['es_query']);
      expect(fieldsOf(await api('POST', '/~/billing/meters', meter({ es_query: { query: { script: {} } } }))).every((f) => f.startsWith('es_query'))).toBe(
        true,
      );
      expect(fieldsOf(await api('POST', '/~/billing/meters', meter({ status: 'paused' })))).toEqual(['status']);
      expect(fieldsOf(await api('POST', '/~/billing/meters', meter({ billing_plan: { provider_slug: 'paypal' } })))).toEqual(['billing_plan.provider_slug']);
      expect(
        fieldsOf(await api('POST', '/~/billing/meters', meter({ billing_plan: { provider_slug: 'stripe', params: { usage_rounding_mode: 'sideways' } } }))),
      ).toEqual(['billing_plan.params.usage_rounding_mode']);

      const { body: created } = await api('POST', '/~/billing/meters', meter());
      const updated = await api('POST', `/~/billing/meters/${created._id}`, { status: 'inactive', es_query: JSON.stringify({ query: { match_all: {} } }) });
      expect(updated.body).toMatchObject({ status: 'inactive', es_query: '{"query":{"match_all":{}}}', name: 'API calls' });
    });

    it('get, PUT as an alias of POST /{id}, system fields fixed, delete 204 then 410', async () => {
      const { body: created } = await api('POST', '/~/billing/meters', meter({ slug: 'crud' }));
      expect((await api('GET', `/~/billing/meters/${created._id}`)).body).toEqual(created);

      const put = await api('PUT', `/~/billing/meters/${created._id}`, {
        name: 'Renamed',
        billing_plan: { provider_slug: 'stripe', params: { usage_multiplier: 2 } },
      });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({
        _id: created._id,
        name: 'Renamed',
        slug: 'crud',
        billing_plan: { provider_slug: 'stripe', params: { usage_multiplier: 2 } },
        created_at: created.created_at,
      });
      expect((await api('GET', `/~/billing/meters/${created._id}`)).body).toEqual(put.body);
      // The PUT alias validates like POST.
      expect(fieldsOf(await api('PUT', `/~/billing/meters/${created._id}`, { status: 'paused' }))).toEqual(['status']);

      // No meter field of its own is fixed (billing keys everything by _id, not slug or provider); the
      // system fields are: echoed unchanged they pass, changed they are a 409 naming each, nothing written.
      expect((await api('POST', `/~/billing/meters/${created._id}`, { _id: created._id, created_at: created.created_at, slug: 'crud-2' })).body.slug).toBe(
        'crud-2',
      );
      const changed = await api('POST', `/~/billing/meters/${created._id}`, {
        _id: 'another-id',
        created_at: '2000-01-01T00:00:00.000Z',
        org_id: 'org_b',
        name: 'Sneaky',
      });
      expect(changed.status).toBe(409);
      expect(fieldsOf(changed).sort()).toEqual(['_id', 'created_at', 'org_id']);
      expect((await api('GET', `/~/billing/meters/${created._id}`)).body).toMatchObject({ name: 'Renamed', slug: 'crud-2', created_at: created.created_at });

      expect((await api('DELETE', `/~/billing/meters/${created._id}`)).status).toBe(204);
      expect((await api('GET', `/~/billing/meters/${created._id}`)).status).toBe(410);
      expect((await api('PUT', `/~/billing/meters/${created._id}`, { name: 'Back' })).status).toBe(410);
      expect((await api('DELETE', `/~/billing/meters/${created._id}`)).status).toBe(410);
      expect((await api('GET', '/~/billing/meters?take=1000')).body.map((m: any) => m._id)).not.toContain(created._id);
    });
  });

  describe('apps', () => {
    it('create issues a working collector id; update validates; delete stops the collector id', async () => {
      const created = await api('POST', '/~/apps', {
        name: 'Staging',
        time_zone: 'America/New_York',
        week_starts_on: 1,
        custom_app_id: 'stg',
        sample_rate: 50,
      });
      expect(created.status).toBe(201);
      const app = created.body;
      expect(app).toMatchObject({
        name: 'Staging',
        time_zone: 'America/New_York',
        week_starts_on: 1,
        custom_app_id: 'stg',
        sample_rate: 50,
        secure_proxy: false,
        backfill_enabled: false,
      });
      expect(app.search_api_base_url).toBe(`${rt.credentials.management_url}/search/~`);
      expect(app.collector_application_id.length).toBeGreaterThanOrEqual(50);
      const collectorGet = (id: string) => send(`${rt.credentials.collector_url}/v1/config`, { method: 'GET', headers: { 'x-service-application-id': id } });
      expect((await collectorGet(app.collector_application_id)).status).toBe(200);

      const listed = await api('GET', '/~/apps');
      expect(listed.body.map((a: any) => a.id)).toEqual(expect.arrayContaining([app.id, rt.credentials.app_id]));
      // Without create:access_tokens a reader sees the app but not its collector id.
      const reader = await tokenFor(rt.credentials.org_id, rt.credentials.app_id, ['read:apps']);
      const seen = await api('GET', `/~/apps/${app.id}`, undefined, reader);
      expect(seen.body.name).toBe('Staging');
      expect(seen.body.collector_application_id).toBeUndefined();
      expect((await api('GET', `/~/apps/${app.id}`)).body.collector_application_id).toBe(app.collector_application_id);

      expect(fieldsOf(await api('POST', `/~/apps/${app.id}`, { time_zone: 'Nowhere/Land' }))).toEqual(['time_zone']);
      expect(fieldsOf(await api('POST', `/~/apps/${app.id}`, { sample_rate: 101 }))).toEqual(['sample_rate']);
      expect(
        fieldsOf(await api('POST', `/~/apps/${app.id}`, { regex_config: [{ conditions: [{ path: 'request.route', value: '[' }], sample_rate: 5 }] })),
      ).toEqual(['regex_config[0].conditions[0].value']);
      expect(fieldsOf(await api('POST', `/~/apps/${app.id}`, { id: 'other' }))).toEqual(['id']);
      const updated = await api('POST', `/~/apps/${app.id}`, { name: 'Stage', time_zone: 'UTC', backfill_enabled: true, user_sample_rate: { alice: 10 } });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        name: 'Stage',
        time_zone: 'UTC',
        backfill_enabled: true,
        sample_rate: 50,
        user_sample_rate: { alice: 10 },
        custom_app_id: 'stg',
      });
      expect((await rt.apps.getApp(rt.credentials.org_id, app.id))?.settings.backfill_enabled).toBe(true);

      expect((await api('DELETE', `/~/apps/${app.id}`)).status).toBe(204);
      expect((await collectorGet(app.collector_application_id)).status).toBe(401);
      expect((await api('GET', `/~/apps/${app.id}`)).status).toBe(410);
      expect((await api('GET', '/~/apps')).body.map((a: any) => a.id)).not.toContain(app.id);
      expect(fieldsOf(await api('POST', '/~/apps', { time_zone: 'UTC' }))).toEqual(['name']);
    });
  });

  describe('tenancy and routing', () => {
    it('nothing of one org is visible or changeable from another', async () => {
      const { body: cohort } = await api('POST', '/~/cohorts', userCohort);
      const { body: meterDoc } = await api('POST', '/~/billing/meters', meter());
      const { body: app } = await api('POST', '/~/apps', { name: 'Private' });
      for (const [path, update] of [
        [`/~/cohorts/${cohort._id}`, { cohort_type: 'user' }],
        [`/~/billing/meters/${meterDoc._id}`, { name: 'x' }],
        [`/~/apps/${app.id}`, { name: 'x' }],
      ] as const) {
        expect((await api('GET', path, undefined, otherToken)).status).toBe(404);
        expect((await api('POST', path, update, otherToken)).status).toBe(404);
        expect((await api('DELETE', path, undefined, otherToken)).status).toBe(404);
        expect((await api('GET', path)).status).toBe(200);
      }
      expect((await api('GET', '/~/cohorts', undefined, otherToken)).body).toEqual([]);
      expect((await api('GET', '/~/billing/meters', undefined, otherToken)).body).toEqual([]);
      expect((await api('GET', '/~/apps', undefined, otherToken)).body.map((a: any) => a.id)).toEqual(['app_b']);
      const theirs = await api('POST', '/~/cohorts', userCohort, otherToken);
      expect(theirs.body).toMatchObject({ org_id: 'org_b', app_id: 'app_b' });
      expect((await api('GET', '/~/cohorts?take=1000')).body.map((c: any) => c._id)).not.toContain(theirs.body._id);
    });

    it('wrong method 405, unknown id 404, missing scope 401', async () => {
      const wrong = await api('PATCH', '/~/cohorts');
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toContain('POST');
      expect((await api('PATCH', '/~/governance/rules/abc', {})).status).toBe(405);
      expect((await api('GET', '/~/billing/meters/0000000000000000abcd')).status).toBe(404);
      expect((await api('GET', `/~/cohorts/${'x'.repeat(300)}`)).status).toBe(404);
      const reader = await tokenFor(rt.credentials.org_id, rt.credentials.app_id, ['read:cohorts']);
      expect((await api('POST', '/~/cohorts', userCohort, reader)).status).toBe(401);
      expect((await api('GET', '/~/cohorts', undefined, reader)).status).toBe(200);
    });

    it('406 for an Accept that rules JSON out, 404 for an unknown endpoint, 405 with Allow: each in the one error shape', async () => {
      const expectError = (answer: TestResponse, status: number, code: string) => {
        expect(answer.status).toBe(status);
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
        expect(answer.body.error).toMatchObject({ status, code, message: expect.any(String) });
      };
      const before = (await api('GET', '/~/cohorts?take=1000')).body.length;

      for (const accept of ['text/html', 'text/html, application/xhtml+xml', 'application/json;q=0, text/plain']) {
        const refused = await rt.management('POST', '/~/cohorts', { accept }, userCohort);
        expectError(refused, 406, 'not_acceptable');
        expect(refused.body.error.details).toEqual([{ field: 'accept', reason: expect.any(String) }]);
      }
      expect((await api('GET', '/~/cohorts?take=1000')).body.length).toBe(before);
      // Browsers' usual Accept lists */* last: JSON is then fine.
      expect((await rt.management('GET', '/~/cohorts', { accept: 'text/html, */*;q=0.8' })).status).toBe(200);
      expectError(await rt.management('POST', '/search/~/search/events', { accept: 'text/csv' }, {}), 406, 'not_acceptable');
      // A method the path does not have is a 405 whatever the Accept header says (routing comes first).
      expectError(await rt.management('GET', '/search/~/search/events', { accept: 'text/csv' }), 405, 'method_not_allowed');

      for (const path of ['/~/no-such-resource', '/v1/~/cohorts/abc/members', '/search/~/search/nothing']) {
        expectError(await api('GET', path), 404, 'not_found');
      }
      // Unknown is unknown with or without a token: routing comes before authentication.
      const anonymous = await send(`${rt.credentials.management_url}/~/no-such-resource`, { method: 'GET' });
      expectError(anonymous, 404, 'not_found');

      const wrong = await api('DELETE', '/~/cohorts');
      expectError(wrong, 405, 'method_not_allowed');
      expect(wrong.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['GET', 'POST']);
    });
  });
});
