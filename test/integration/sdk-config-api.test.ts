import { send, startTestRuntime, type TestResponse, type TestRuntime } from './support/runtime';

/**
 * What management changes do to the collector's GET /v1/config: cohort sample rates (dynamic
 * sampling) and app settings, end to end over HTTP on the local runtime.
 */
describe('GET /v1/config follows the management API', () => {
  let rt: TestRuntime;

  beforeAll(async () => {
    // No schedule: every refresh here is the one the management change triggers.
    rt = await startTestRuntime('sdk-config', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
    for (const user of [
      { user_id: 'sampled-user', metadata: { plan: 'noisy' } },
      { user_id: 'quiet-user', metadata: { plan: 'free' } },
    ]) {
      expect((await rt.collect('/v1/users', user)).status).toBe(201);
    }
    expect((await rt.collect('/v1/companies', { company_id: 'noisy-co', metadata: { tier: 'noisy' } })).status).toBe(201);
    await rt.waitUntilConsumed();
  });
  afterAll(() => rt?.dispose());

  const api = (method: string, path: string, body?: unknown) => rt.management(method, path, {}, body);
  const etagOf = (response: TestResponse) => response.headers.get('x-moesif-config-etag');

  describe('cohort sample rates', () => {
    it('a user cohort’s sample_rate reaches user_sample_rate; DELETE …/sample_rate removes it', async () => {
      const before = await rt.collectorGet('/v1/config');
      expect(before.body.user_sample_rate).toEqual({});

      const cohort = await api('POST', '/~/cohorts', { cohort_name: 'Noisy users', cohort_type: 'user', criteria: { term: { 'metadata.plan.raw': 'noisy' } } });
      expect(cohort.status).toBe(201);
      // A cohort without a rate samples nobody.
      expect((await rt.collectorGet('/v1/config')).body.user_sample_rate).toEqual({});

      expect((await api('POST', `/~/cohorts/${cohort.body._id}`, { cohort_type: 'user', sample_rate: 10 })).status).toBe(200);
      const sampled = await rt.collectorGet('/v1/config');
      expect(sampled.body.user_sample_rate).toEqual({ 'sampled-user': 10 });
      expect(sampled.body.company_sample_rate).toEqual({});
      expect(etagOf(sampled)).not.toBe(etagOf(before));

      expect((await api('DELETE', `/~/cohorts/${cohort.body._id}/sample_rate`)).status).toBe(200);
      const unsampled = await rt.collectorGet('/v1/config');
      expect(unsampled.body.user_sample_rate).toEqual({});
      expect(etagOf(unsampled)).toBe(etagOf(before));
      expect((await api('DELETE', `/~/cohorts/${cohort.body._id}`)).status).toBe(204);
    });

    it('a company cohort’s members reach company_sample_rate, and leave it when the cohort is deleted', async () => {
      const cohort = await api('POST', '/~/cohorts', {
        cohort_name: 'Noisy companies',
        cohort_type: 'company',
        criteria: { query: { term: { 'metadata.tier.raw': 'noisy' } } },
      });
      expect(cohort.status).toBe(201);
      expect((await api('POST', `/~/cohorts/${cohort.body._id}`, { cohort_type: 'company', sample_rate: 0 })).status).toBe(200);
      const sampled = await rt.collectorGet('/v1/config');
      expect(sampled.body.company_sample_rate).toEqual({ 'noisy-co': 0 });
      expect(sampled.body.user_sample_rate).toEqual({});

      expect((await api('DELETE', `/~/cohorts/${cohort.body._id}`)).status).toBe(204);
      const after = await rt.collectorGet('/v1/config');
      expect(after.body.company_sample_rate).toEqual({});
      expect(etagOf(after)).not.toBe(etagOf(sampled));
    });
  });

  describe('app settings', () => {
    it('POST /~/apps/{id} reaches GET /v1/config of that app’s collector id with a new ETag, and no other app’s', async () => {
      const created = await api('POST', '/~/apps', { name: 'Settings app' });
      expect(created.status).toBe(201);
      const { id, collector_application_id: collectorId } = created.body;
      const configOf = (applicationId: string) => send(`${rt.credentials.collector_url}/v1/config`, { headers: { 'x-service-application-id': applicationId } });

      const before = await configOf(collectorId);
      expect(before.status).toBe(200);
      expect(before.body).toMatchObject({ app_id: id, sample_rate: 100, user_sample_rate: {}, company_sample_rate: {}, regex_config: [] });
      const otherBefore = await rt.collectorGet('/v1/config');

      const updated = await api('POST', `/~/apps/${id}`, {
        time_zone: 'America/New_York',
        week_starts_on: 1,
        sample_rate: 40,
        user_sample_rate: { vip: 100 },
        company_sample_rate: { 'big-co': 5 },
        regex_config: [{ conditions: [{ path: 'request.route', value: '^/health' }], sample_rate: 0 }],
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ time_zone: 'America/New_York', week_starts_on: 1, sample_rate: 40 });

      const after = await configOf(collectorId);
      expect(after.body).toMatchObject({
        app_id: id,
        sample_rate: 40,
        user_sample_rate: { vip: 100 },
        company_sample_rate: { 'big-co': 5 },
        regex_config: [{ conditions: [{ path: 'request.route', value: '^/health' }], sample_rate: 0 }],
      });
      expect(etagOf(after)).toMatch(/^[0-9a-f]{32}$/);
      expect(etagOf(after)).not.toBe(etagOf(before));
      expect(after.headers.get('x-config-etag')).toBe(etagOf(after));
      // The ingest answer of that app agrees with its config.
      const ingest = await send(`${rt.credentials.collector_url}/v1/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-application-id': collectorId },
        body: JSON.stringify({ user_id: 'vip' }),
      });
      expect(ingest.status).toBe(201);
      expect(etagOf(ingest)).toBe(etagOf(after));

      // Another app of the org is untouched.
      const otherAfter = await rt.collectorGet('/v1/config');
      expect(otherAfter.body.sample_rate).toBe(otherBefore.body.sample_rate);
      expect(etagOf(otherAfter)).toBe(etagOf(otherBefore));
    });
  });
});
