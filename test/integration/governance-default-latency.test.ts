import { startMoesifApp } from './support/moesif-app';
import { eventually, send, startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * How soon a quota bites with `npm start`'s defaults (a governance refresh every 10 s), through the
 * real moesif-nodejs: from the call that reaches the quota to the first 429, within 20 s, as
 * docs/governance.md says. The crossing call lands at a random point of the refresh cycle.
 */
const DAY = 86_400_000;
const QUOTA = 3;
const DEFAULT_REFRESH_MS = 10_000;

describe('a quota with the default refresh', () => {
  let rt: TestRuntime;
  let app: Awaited<ReturnType<typeof startMoesifApp>> | undefined;
  beforeAll(async () => {
    rt = await startTestRuntime('governance-default-latency', { governanceRefreshMs: DEFAULT_REFRESH_MS });
    const start = new Date(Date.now() - DAY);
    expect((await rt.collect('/v1/companies', { company_id: 'busy-co' })).status).toBe(201);
    const subscription = {
      subscription_id: 'sub-busy',
      company_id: 'busy-co',
      status: 'active',
      current_period_start: start.toISOString(),
      current_period_end: new Date(start.getTime() + 30 * DAY).toISOString(),
      items: [{ plan_id: 'starter' }],
    };
    expect((await rt.collect('/v1/subscriptions', subscription)).status).toBe(201);
    await rt.waitUntilConsumed();
    const rule = {
      name: 'Starter quota',
      state: 1,
      block: true,
      type: 'company',
      model: 'quota',
      plans: [{ provider: 'webhook', plan_id: 'starter', price_ids: [] }],
      quota: { limit: QUOTA },
    };
    expect((await rt.management('POST', '/~/governance/rules', {}, rule)).status).toBe(201);
    app = await startMoesifApp({
      applicationId: rt.credentials.collector_application_id,
      baseUri: rt.credentials.collector_url,
      identifyCompany: (req: { headers: Record<string, string | undefined> }) => req.headers['x-company-id'],
    });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await rt?.dispose();
  });

  it('blocks within 20 s of the call that reached it', async () => {
    const call = () => send(`${app!.url}/widgets`, { headers: { 'x-company-id': 'busy-co' } });
    for (let i = 0; i < QUOTA; i++) expect((await call()).status).toBe(200);
    const crossedAt = Date.now();
    const blocked = await eventually(call, (r) => r.status === 429, 30_000);
    const latencyMs = Date.now() - crossedAt;
    console.log(`defaults: crossing call → first blocked call: ${latencyMs} ms`);
    expect(blocked.status).toBe(429);
    expect(latencyMs).toBeLessThan(20_000);
  }, 60_000);
});
