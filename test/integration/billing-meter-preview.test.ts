import { runBilling } from '../../functions/billing/run/billing-run';
import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/**
 * A meter whose subscriptions do not carry its plan says so before it is saved (preview), in the
 * billing run's summary, and on its saved preview; once a subscription carries the plan's id, the
 * preview shows that subscription billed, with the amount at the catalog price.
 */
describe('billing meter preview and setup warnings', () => {
  const HOUR = 3_600_000;
  let rt: TestRuntime;
  let planId: string;
  let meterBody: Record<string, unknown>;

  beforeAll(async () => {
    // The preview reads the window in progress: start clear of an hour's end, so the events stay in it.
    const intoHour = Date.now() % HOUR;
    if (intoHour > HOUR - 60_000) await new Promise((done) => setTimeout(done, HOUR - intoHour + 1_000));
    rt = await startTestRuntime('billing-meter-preview', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
    const plan = await rt.management('POST', '/~/billing/catalog/plans', {}, { name: 'API calls' });
    planId = plan.body.id ?? plan.body._id;
    expect(
      (
        await rt.management(
          'POST',
          '/~/billing/catalog/prices',
          {},
          { name: 'Per call', plan_id: planId, currency: 'usd', pricing_model: 'per_unit', price_in_decimal: '0.01' },
        )
      ).status,
    ).toBe(201);
    const channel = await rt.management('POST', '/~/billing/channels', {}, { name: 'Finance', url: 'https://billing.example.com/usage' });
    meterBody = {
      name: 'Calls',
      slug: 'calls',
      es_query: { query: { match_all: {} } },
      billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: [channel.body._id], custom_plan: { plan_id: planId } } } },
    };
    expect(
      (await rt.collect('/v1/subscriptions', { subscription_id: 'sub-x', company_id: 'acme', status: 'active', items: [{ plan_id: 'another-plan' }] })).status,
    ).toBe(201);
    const calls = [1, 2, 3].map((n) => apiCall({ transaction_id: uuid(n), company_id: 'acme', user_id: 'u1' }));
    expect((await rt.collect('/v1/events/batch', calls)).status).toBe(201);
    await rt.waitUntilConsumed();
  }, 120_000);
  afterAll(() => rt?.dispose());

  it('warns before the meter is saved, names the id subscriptions must carry, and shows the usage left unattributed', async () => {
    const preview = await rt.management('POST', '/~/billing/meters/preview', {}, meterBody);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ billed_ids: [planId], per_subscription: false, subscriptions: { billable: 1, matching: 0, matching_ids: [] } });
    expect(preview.body.warnings).toEqual([{ code: 'no_matching_subscription', message: expect.stringContaining(`"${planId}"`) }]);
    expect(preview.body.lines).toEqual([
      { subscription_id: null, company_id: 'acme', status: 'unattributed', metric: '3', quantity: 3, amount: null, currency: null, price_id: null },
    ]);

    // Per-subscription meters query nothing without a matching subscription: the warning says so.
    const perSubscription = await rt.management(
      'POST',
      '/~/billing/meters/preview',
      {},
      { ...meterBody, es_query: { query: { term: { company_id: '{{company_id}}' } } } },
    );
    expect(perSubscription.body.lines).toEqual([]);
    expect(perSubscription.body.warnings[0].message).toMatch(/nothing is queried or billed/);
  });

  it('refuses a meter it cannot evaluate with the field and the reason', async () => {
    const refused = await rt.management('POST', '/~/billing/meters/preview', {}, { ...meterBody, es_query: { query: { range: { time: 'soon' } } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].field).toMatch(/^es_query/);
  });

  it('lists the warning in the billing run summary and on the saved meter, and clears it once a subscription carries the plan', async () => {
    const meter = await rt.management('POST', '/~/billing/meters', {}, meterBody);
    expect(meter.status).toBe(201);
    const summary = await runBilling({
      now: new Date(),
      deps: { ...rt.billingDeps, tenants: async () => [{ orgId: rt.credentials.org_id, appId: rt.credentials.app_id }] },
    });
    expect(summary.warnings).toEqual([expect.objectContaining({ meterId: meter.body._id, meterName: 'Calls', code: 'no_matching_subscription' })]);
    const saved = await rt.management('GET', `/~/billing/meters/${meter.body._id}/preview`);
    expect(saved.body.warnings.map((w: { code: string }) => w.code)).toEqual(['no_matching_subscription']);

    expect(
      (await rt.collect('/v1/subscriptions', { subscription_id: 'sub-x', company_id: 'acme', status: 'active', items: [{ plan_id: planId }] })).status,
    ).toBe(201);
    await rt.waitUntilConsumed();
    const fixed = await rt.management('GET', `/~/billing/meters/${meter.body._id}/preview`);
    expect(fixed.body.warnings).toEqual([]);
    expect(fixed.body.subscriptions).toEqual({ billable: 1, matching: 1, matching_ids: ['sub-x'], matching_by_metadata: 0 });
    expect(fixed.body.lines).toEqual([
      {
        subscription_id: 'sub-x',
        company_id: 'acme',
        status: 'billed',
        metric: '3',
        quantity: 3,
        amount: '0.03',
        currency: 'usd',
        price_id: expect.any(String),
      },
    ]);
    expect((await rt.management('GET', '/~/billing/meters/no-such-meter/preview')).status).toBe(404);
  });
});
