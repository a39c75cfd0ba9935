import { managementScopes } from '../../schemas/scopes';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Profiles written with a management token take the collector's path: the same validation and
 * limits, the same stream and merge, the same answer, searchable the same way.
 */
describe('profile writes through the management API', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime('profile-writes', { managementAuth: { rateLimitPerMinute: 100_000 } });
  });
  afterAll(() => rt?.dispose());

  const post = (path: string, body: unknown, token?: string) => rt.management('POST', path, token ? { authorization: `Bearer ${token}` } : {}, body);

  it('creates and merges users, companies and subscriptions, one or in batches, answering as the collector does', async () => {
    expect(await post('/search/~/users', { user_id: 'mu-1', metadata: { plan: 'free', email: 'a@example.com' } })).toMatchObject({
      status: 201,
      body: { accepted: 1 },
    });
    expect(
      await post('/search/~/users/batch', [
        { user_id: 'mu-1', metadata: { plan: 'pro' } },
        { user_id: 'mu-2', company_id: 'mc-1' },
      ]),
    ).toMatchObject({ status: 201, body: { accepted: 2 } });
    expect(await post('/v1/search/~/companies', { company_id: 'mc-1', company_domain: 'mc.example' })).toMatchObject({ status: 201, body: { accepted: 1 } });
    expect(await post('/search/~/companies/batch', [{ company_id: 'mc-2' }])).toMatchObject({ status: 201, body: { accepted: 1 } });
    expect(await post('/search/~/subscriptions', { subscription_id: 'ms-1', company_id: 'mc-1', status: 'active' })).toMatchObject({
      status: 201,
      body: { accepted: 1 },
    });
    expect(await post('/search/~/subscriptions/batch', [{ subscription_id: 'ms-2', company_id: 'mc-1', status: 'trialing' }])).toMatchObject({
      status: 201,
      body: { accepted: 1 },
    });
    // Sent through the collector too: one merge path.
    expect((await rt.collect('/v1/users', { user_id: 'mu-1', metadata: { seats: 3 } })).status).toBe(201);
    await rt.waitUntilConsumed();

    const user = await rt.management('GET', '/search/~/users/mu-1');
    expect(user.body._source.metadata).toEqual({ plan: 'pro', email: 'a@example.com', seats: 3 });
    expect((await rt.management('GET', '/search/~/users/mu-2')).body._source.company_id).toBe('mc-1');
    expect((await rt.management('GET', '/search/~/companies/mc-1')).body._source.company_domain).toBe('mc.example');
    expect((await rt.management('GET', '/search/~/companies/mc-2')).status).toBe(200);
    const subscriptions = await rt.management('GET', '/search/~/companies/mc-1/subscriptions');
    expect(subscriptions.body.hits.hits.map((h: { _id: string }) => h._id).sort()).toEqual(['ms-1', 'ms-2']);
  });

  it('refuses what the collector refuses, with the same error, and writes nothing', async () => {
    const single = await post('/search/~/users', { metadata: {} });
    expect(single.status).toBe(400);
    expect(single.body.error.details).toEqual([expect.objectContaining({ field: 'user_id' })]);
    const batch = await post('/search/~/companies/batch', [{ company_id: 'ok' }, { company_id: 'x'.repeat(300) }]);
    expect(batch.status).toBe(400);
    expect(batch.body.error.details).toEqual([expect.objectContaining({ index: 1, field: 'company_id' })]);
    const reserved = await rt.management(
      'POST',
      '/search/~/users',
      { 'content-type': 'application/json' },
      JSON.parse('{"user_id":"mu-9","__proto__":{"x":1}}'),
    );
    expect(reserved.status).toBe(400);
    await rt.waitUntilConsumed();
    expect((await rt.management('GET', '/search/~/companies/ok')).status).toBe(404);
    expect((await rt.management('GET', '/search/~/users/mu-9')).status).toBe(404);
  });

  it('needs create:users for users and create:companies for companies and subscriptions', async () => {
    const readOnly = await rt.issueToken({ scopes: managementScopes.filter((s) => s !== 'create:users' && s !== 'create:companies') });
    for (const path of ['/search/~/users', '/search/~/users/batch', '/search/~/companies', '/search/~/subscriptions/batch']) {
      const answer = await post(path, path.endsWith('batch') ? [] : {}, readOnly);
      expect(answer.status).toBe(401);
      expect(answer.body.error.message).toContain(path.includes('users') ? 'create:users' : 'create:companies');
    }
  });
});
