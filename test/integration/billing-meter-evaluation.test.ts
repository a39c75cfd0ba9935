import type { DeliveryChannel } from '../../functions/billing/channels/channel-delivery';
import { ReportStore } from '../../functions/billing/reports/report-store';
import { runBilling } from '../../functions/billing/run/billing-run';
import { providerClients } from '../../functions/billing/run/provider-registry';
import type { BillingReport } from '../../schemas/billing/report';
import { FakeChargebee, FakeRecurly, FakeWebhookReceiver, FakeZuora, type FakeProviderServer } from '../support/fake-providers';
import { billingDeps, HOUR, numberedCalls, settledWindows, type RunSetup } from './support/billing-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * What meters count, through the real billing run on the emulators: distinct users (exact across
 * events with and without subscription_id), sums of a numeric metadata field, usage_multiplier with
 * each rounding mode, and the Chargebee, Recurly and Zuora clients against their fakes, each ending
 * with exactly the right total and its own idempotency field, across failed and retried runs.
 */
describe('billing run: meter evaluation and providers', () => {
  let rt: TestRuntime;
  let planId: string;
  const { w1, w2, at } = settledWindows();
  const base = w1;
  const tenant = () => ({ orgId: rt.credentials.org_id, appId: rt.credentials.app_id });
  const channels = new Map<string, DeliveryChannel>();
  const receivers: FakeWebhookReceiver[] = [];
  const webhookMeters = new Map<string, string>();
  const providers: {
    chargebee?: FakeChargebee;
    recurly?: FakeRecurly;
    zuora?: FakeZuora;
    meterIds: Record<'chargebee' | 'recurly' | 'zuora', string>;
    client?: ReturnType<typeof providerClients>;
  } = { meterIds: { chargebee: '', recurly: '', zuora: '' } };
  const call = numberedCalls();

  function deps(extra: Parameters<typeof billingDeps>[2] = {}): RunSetup {
    return billingDeps(rt, (ids) => new Map(ids.flatMap((id) => (channels.has(id) ? [[id, channels.get(id)!] as const] : []))), extra);
  }

  const run = (setup: RunSetup = deps()) => runBilling({ now: new Date(), ...setup });

  /** A webhook meter with its own channel and receiver. */
  async function webhookMeter(name: string, esQuery: unknown, params: Record<string, unknown> = {}): Promise<{ meterId: string; fake: FakeWebhookReceiver }> {
    const fake = await new FakeWebhookReceiver({ secrets: { [name]: `whsec_${name}` } }).start();
    receivers.push(fake);
    channels.set(name, { id: name, name, url: fake.channelUrl(name), status: 'active', headers: {}, secrets: [`whsec_${name}`] });
    const created = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name,
        slug: name,
        es_query: esQuery,
        billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: [name], custom_plan: { plan_id: planId } }, ...params } },
      },
    );
    expect(created.status).toBe(201);
    webhookMeters.set(name, created.body._id);
    return { meterId: created.body._id, fake };
  }

  async function reportsOf(meterId: string): Promise<BillingReport[]> {
    const { windows } = await new ReportStore(rt.clients.documents, rt.names.tables.billing).listWindows(tenant(), {
      from: new Date(base.getTime() - 31 * 86_400_000),
      to: new Date(Date.now() + HOUR),
      meterId,
      maxWindows: 1000,
    });
    return windows.flatMap((w) => [...w.reports]);
  }

  /** [subscription or C:company, window start] → the report's fields named. */
  const summary = (reports: BillingReport[], fields: (keyof BillingReport)[]) =>
    Object.fromEntries(
      reports.map((r) => [`${r.subscription_id ?? `C:${r.company_id}`}@${r.usage_start_time === w1.toISOString() ? 'w1' : 'w2'}`, fields.map((f) => r[f])]),
    );

  beforeAll(async () => {
    rt = await startTestRuntime('billing-meters', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
    const plan = await rt.management('POST', '/~/billing/catalog/plans', {}, { name: 'API calls' });
    expect(plan.status).toBe(201);
    planId = plan.body.id ?? plan.body._id;
    const month = {
      current_period_start: new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), 1)).toISOString(),
      current_period_end: new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, 1)).toISOString(),
    };
    // The items carry the ids the provider meters bill (Chargebee item price, Recurly add-on, Zuora charge),
    // so acme's events without subscription_id are attributed to sub-a for every meter.
    const items = [{ plan_id: planId }, { price_id: 'cb-calls' }, { price_id: 'calls-addon' }, { price_id: 'C-001' }];
    expect(
      (
        await rt.collect('/v1/subscriptions/batch', [
          { subscription_id: 'sub-a', company_id: 'acme', status: 'active', items, created_at: '2026-01-01T00:00:00Z', ...month },
          { subscription_id: 'sub-b', company_id: 'globex', status: 'active', items, created_at: '2026-01-01T00:00:00Z', ...month },
        ])
      ).status,
    ).toBe(201);
    const events = [
      // w1, sub-a: u1 and u2 name the subscription; u2 and u3 come through acme without one (u2 in both).
      call({ company_id: 'acme', subscription_id: 'sub-a', user_id: 'u1', metadata: { tokens: 10 } }, at(w1, 1)),
      call({ company_id: 'acme', subscription_id: 'sub-a', user_id: 'u2', metadata: { tokens: 20 } }, at(w1, 2)),
      call({ company_id: 'acme', user_id: 'u2', metadata: { tokens: 5 } }, at(w1, 3)),
      call({ company_id: 'acme', user_id: 'u3', metadata: { tokens: 7 } }, at(w1, 4)),
      call({ company_id: 'acme', user_id: 'u3' }, at(w1, 5)),
      // w1, sub-b: only events naming it; fractional token counts.
      call({ company_id: 'globex', subscription_id: 'sub-b', user_id: 'u4', metadata: { tokens: 1.5 } }, at(w1, 6)),
      call({ company_id: 'globex', subscription_id: 'sub-b', user_id: 'u4', metadata: { tokens: 2.25 } }, at(w1, 7)),
      call({ company_id: 'globex', subscription_id: 'sub-b', user_id: 'u5' }, at(w1, 8)),
      // A company without a subscription: recorded unattributed, never sent.
      call({ company_id: 'hooli', user_id: 'u6', metadata: { tokens: 0.1 } }, at(w1, 9)),
      call({ company_id: 'hooli', user_id: 'u6', metadata: { tokens: 0.2 } }, at(w1, 10)),
      // w2, sub-a: u1 both with and without subscription_id (one distinct user, two events).
      call({ company_id: 'acme', subscription_id: 'sub-a', user_id: 'u1', metadata: { tokens: 4 } }, at(w2, 1)),
      call({ company_id: 'acme', user_id: 'u1', metadata: { tokens: 3 } }, at(w2, 2)),
      call({ company_id: 'globex', subscription_id: 'sub-b', user_id: 'u5', metadata: { tokens: 0.75 } }, at(w2, 3)),
    ];
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed();
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...receivers, providers.chargebee, providers.recurly, providers.zuora].map((r) => r?.stop()));
    await rt?.dispose();
  });

  it('distinct users: a subscription with users on events with and without subscription_id counts each user once', async () => {
    const { meterId, fake } = await webhookMeter('unique-users', { aggs: { users: { cardinality: { field: 'user_id' } } } });
    const result = await run();
    expect(result.errors).toEqual([]);
    const reports = await reportsOf(meterId);
    // sub-a: {u1, u2} ∪ {u2, u3} = 3 in w1 (not 2 + 2), {u1} ∪ {u1} = 1 in w2 (not 1 + 1).
    expect(summary(reports, ['meter_metric_exact', 'meter_usage', 'report_total_usage', 'attribution', 'status'])).toEqual({
      'sub-a@w1': ['3', 3, 3, 'both', 'success'],
      'sub-a@w2': ['1', 1, 4, 'both', 'success'],
      'sub-b@w1': ['2', 2, 2, 'subscription_id', 'success'],
      'sub-b@w2': ['1', 1, 3, 'subscription_id', 'success'],
      'C:hooli@w1': ['1', 1, 1, 'company', 'unattributed'],
    });
    expect(reports.every((r) => r.usage.aggregator === 'cardinality')).toBe(true);
    // report_total_usage of a distinct meter is the sum of per-window distinct counts (u1 counts in both windows).
    expect(fake.totals()).toEqual({ 'sub-a': 4n, 'sub-b': 3n });
    // The explanation counts the same union, so the billed number traces to its events.
    const subA = reports.find((r) => r.subscription_id === 'sub-a' && r.usage_start_time === w1.toISOString())!;
    const explained = await rt.management('GET', `/~/billing/reports/${encodeURIComponent(subA._id)}/explain`);
    expect(explained.status).toBe(200);
    expect(explained.body).toMatchObject({ recomputed_metric: '3', recomputed_usage: 3, matches: true, company_usage_included: true, event_count: 5 });
  }, 60_000);

  it('sums a numeric metadata field exactly (events without it add nothing)', async () => {
    const { meterId, fake } = await webhookMeter('tokens', { aggs: { u: { sum: { field: 'metadata.tokens' } } } });
    const result = await run();
    expect(result.errors).toEqual([]);
    const reports = await reportsOf(meterId);
    // sub-a w1: 10 + 20 + 5 + 7 (+ nothing for the event without tokens); sub-b w1: 1.5 + 2.25 → 4 (nearest).
    expect(summary(reports, ['meter_metric_exact', 'meter_usage', 'report_total_usage'])).toEqual({
      'sub-a@w1': ['42', 42, 42],
      'sub-a@w2': ['7', 7, 49],
      'sub-b@w1': ['3.75', 4, 4],
      'sub-b@w2': ['0.75', 1, 5],
      // 0.1 + 0.2 is 0.3, not the float 0.30000000000000004.
      'C:hooli@w1': ['0.3', 0, 0],
    });
    expect(reports.every((r) => r.usage.aggregator === 'sum')).toBe(true);
    expect(fake.totals()).toEqual({ 'sub-a': 49n, 'sub-b': 5n });

    // × 10, rounded up: hooli's 0.1 + 0.2 is 3 units, not 4 (the backend's float sum is 0.30000000000000004).
    const tenfold = await webhookMeter(
      'tokens-x10-up',
      { aggs: { u: { sum: { field: 'metadata.tokens' } } } },
      { usage_multiplier: 10, usage_rounding_mode: 'up' },
    );
    await run();
    expect(summary(await reportsOf(tenfold.meterId), ['meter_usage', 'report_total_usage'])).toEqual({
      'sub-a@w1': [420, 420],
      'sub-a@w2': [70, 490],
      'sub-b@w1': [38, 38],
      'sub-b@w2': [8, 46],
      'C:hooli@w1': [3, 3],
    });
  }, 60_000);

  it('applies usage_multiplier exactly, then rounds each window up, down or to nearest', async () => {
    // Weighted event counts: sub-a 5 then 2, sub-b 3 then 1; × 0.3 → sub-a 1.5, 0.6; sub-b 0.9, 0.3.
    const meters = {
      up: await webhookMeter('calls-x03-up', { query: { match_all: {} } }, { usage_multiplier: 0.3, usage_rounding_mode: 'up' }),
      down: await webhookMeter('calls-x03-down', { query: { match_all: {} } }, { usage_multiplier: 0.3, usage_rounding_mode: 'down' }),
      nearest: await webhookMeter('calls-x03-nearest', { query: { match_all: {} } }, { usage_multiplier: 0.3, usage_rounding_mode: 'nearest' }),
    };
    const result = await run();
    expect(result.errors).toEqual([]);
    const usage = async (meterId: string) =>
      summary(
        (await reportsOf(meterId)).filter((r) => r.status !== 'unattributed'),
        ['meter_metric_exact', 'meter_usage', 'report_total_usage'],
      );
    expect(await usage(meters.up.meterId)).toEqual({ 'sub-a@w1': ['5', 2, 2], 'sub-a@w2': ['2', 1, 3], 'sub-b@w1': ['3', 1, 1], 'sub-b@w2': ['1', 1, 2] });
    // down: sub-b's windows round to 0 — recorded (success, nothing to send), never billed.
    expect(await usage(meters.down.meterId)).toEqual({ 'sub-a@w1': ['5', 1, 1], 'sub-a@w2': ['2', 0, 1], 'sub-b@w1': ['3', 0, 0], 'sub-b@w2': ['1', 0, 0] });
    // nearest is half away from zero: 1.5 → 2, 0.6 → 1, 0.9 → 1, 0.3 → 0.
    expect(await usage(meters.nearest.meterId)).toEqual({ 'sub-a@w1': ['5', 2, 2], 'sub-a@w2': ['2', 1, 3], 'sub-b@w1': ['3', 1, 1], 'sub-b@w2': ['1', 0, 1] });
    // Rounding is per window: the period total is the sum of rounded windows (up: 2 + 1, not ⌈2.1⌉ = 3 by chance; sub-b 1 + 1 = 2, not ⌈1.2⌉).
    expect(meters.up.fake.totals()).toEqual({ 'sub-a': 3n, 'sub-b': 2n });
    expect(meters.down.fake.totals()).toEqual({ 'sub-a': 1n });
    expect(meters.nearest.fake.totals()).toEqual({ 'sub-a': 3n, 'sub-b': 1n });
    const down = await reportsOf(meters.down.meterId);
    const zero = down.filter((r) => r.meter_usage === 0 && r.status !== 'unattributed');
    expect(zero).toHaveLength(3);
    expect(zero.every((r) => r.status === 'success' && r.success && r.provider_requests.length === 0)).toBe(true);
  }, 60_000);

  it('Chargebee, Recurly and Zuora through the run: a 500 and a lost answer are resent next run with the same key, each ends with the exact total', async () => {
    const chargebee = (providers.chargebee = await new FakeChargebee({
      apiKey: 'cb_test',
      subscriptions: { 'sub-a': ['cb-calls'], 'sub-b': ['cb-calls'] },
    }).start());
    const recurly = (providers.recurly = await new FakeRecurly({
      apiKey: 'rk_test',
      subscriptions: { 'sub-a': ['calls-addon'], 'sub-b': ['calls-addon'] },
    }).start());
    const zuora = (providers.zuora = await new FakeZuora({ clientId: 'zu_client', clientSecret: 'zu_secret' }).start());
    const fakes: FakeProviderServer[] = [chargebee, recurly, zuora];
    const meterIds = providers.meterIds;
    const params = {
      chargebee: { chargebee_params: { item_price_id: 'cb-calls' } },
      recurly: { recurly_params: { add_on_id: 'calls-addon' } },
      zuora: { zuora_params: { unit_of_measure: 'API Calls', charge_number: 'C-001' } },
    };
    for (const provider of ['chargebee', 'recurly', 'zuora'] as const) {
      const created = await rt.management(
        'POST',
        '/~/billing/meters',
        {},
        {
          name: `calls-${provider}`,
          slug: `calls-${provider}`,
          es_query: { query: { match_all: {} } },
          billing_plan: { provider_slug: provider, params: params[provider] },
        },
      );
      expect(created.status).toBe(201);
      meterIds[provider] = created.body._id;
    }
    const providerClient = (providers.client = providerClients(
      {
        connections: [
          { provider: 'chargebee', api_key: 'cb_test', base_url: chargebee.url },
          { provider: 'recurly', api_key: 'rk_test', base_url: recurly.url },
          { provider: 'zuora', client_id: 'zu_client', client_secret: 'zu_secret', base_url: zuora.url },
        ],
      },
      { retry: { maxAttempts: 1, timeoutMs: 1_000 } },
    ));
    // Each provider: the first usage request gets a 500, the second is recorded but its answer is lost.
    for (const fake of fakes) fake.failNext(1, 500).failNext(1, { kind: 'timeout', processFirst: true });
    const first = await run(deps({ deps: { providerClient }, settings: { deliveryConcurrency: 1 } }));
    expect(first.errors).toEqual([]);
    for (const provider of ['chargebee', 'recurly', 'zuora'] as const) {
      expect((await reportsOf(meterIds[provider])).filter((r) => r.status === 'retrying')).toHaveLength(2);
    }
    const second = await run(deps({ deps: { providerClient } }));
    expect(second.errors).toEqual([]);

    // sub-a: 5 + 2 calls, sub-b: 3 + 1 — once each, although one request per provider got through twice.
    expect(chargebee.totals()).toEqual({ 'sub-a': 7n, 'sub-b': 4n });
    expect(recurly.totals()).toEqual({ 'sub-a': 7n, 'sub-b': 4n });
    expect(zuora.totals()).toEqual({ 'sub-a': 7n, 'sub-b': 4n });
    const keysOf = async (provider: keyof typeof meterIds) => {
      const reports = (await reportsOf(meterIds[provider])).filter((r) => r.status !== 'unattributed');
      expect(reports.map((r) => r.status)).toEqual(['success', 'success', 'success', 'success']);
      return reports.map((r) => r.idempotency_key).sort();
    };

    // Chargebee: one usage per subscription, item price and window, dedupe_option=skip, the key as id and header.
    const cbKeys = await keysOf('chargebee');
    expect(
      chargebee
        .usageRecords()
        .map((u) => u.id)
        .sort(),
    ).toEqual(cbKeys);
    const cbPosts = chargebee.requests().filter((r) => r.method === 'POST');
    expect(cbPosts).toHaveLength(6);
    for (const request of cbPosts) {
      const form = new URLSearchParams(request.body);
      expect(form.get('dedupe_option')).toBe('skip');
      expect(request.headers['chargebee-idempotency-key']).toBe(form.get('id'));
    }
    const resent = (posts: { body: string }[], keyOf: (body: string) => string | null) => {
      const counts = new Map<string | null, number>();
      for (const post of posts) counts.set(keyOf(post.body), (counts.get(keyOf(post.body)) ?? 0) + 1);
      return [...counts.values()].sort();
    };
    // The 500 and the lost answer were each resent once with the same key.
    expect(resent(cbPosts, (body) => new URLSearchParams(body).get('id'))).toEqual([1, 1, 2, 2]);

    // Recurly: merchant_tag is the key; the lost answer is found by its merchant_tag before posting again.
    const rcKeys = await keysOf('recurly');
    expect(
      recurly
        .usageRecords()
        .map((u) => u.merchant_tag)
        .sort(),
    ).toEqual(rcKeys);
    const rcPosts = recurly.requests().filter((r) => r.method === 'POST');
    expect(resent(rcPosts, (body) => JSON.parse(body).merchant_tag)).toEqual([1, 1, 1, 2]);
    expect(recurly.requests().some((r) => r.method === 'GET' && r.query.get('begin_time') !== null)).toBe(true);

    // Zuora: UniqueKey in the body and the Idempotency-Key header; the resent lost answer is replayed.
    const zuKeys = await keysOf('zuora');
    expect(
      zuora
        .usageRecords()
        .map((u) => u.UniqueKey)
        .sort(),
    ).toEqual(zuKeys);
    const zuPosts = zuora.requests().filter((r) => r.method === 'POST' && r.path === '/v1/object/usage');
    for (const request of zuPosts) expect(request.headers['idempotency-key']).toBe(JSON.parse(request.body).UniqueKey);
    expect(resent(zuPosts, (body) => JSON.parse(body).UniqueKey)).toEqual([1, 1, 2, 2]);
    expect(zuora.usageRecords().every((u) => u.UOM === 'API Calls' && u.ChargeNumber === 'C-001')).toBe(true);

    // A third run sends nothing to any of them.
    const before = fakes.map((f) => f.requests().length);
    await run(deps({ deps: { providerClient } }));
    expect(fakes.map((f) => f.requests().length)).toEqual(before);
  }, 90_000);

  it('a late event corrects each meter once: a distinct count that does not change sends nothing, providers get the change their way', async () => {
    const { chargebee, recurly, zuora, client } = providers;
    if (!chargebee || !recurly || !zuora || !client) throw new Error('runs after the provider test');
    // u1 again, through acme without subscription_id, in w1 (hours old when indexed: marked late).
    expect((await rt.collect('/v1/events/batch', [call({ company_id: 'acme', user_id: 'u1', metadata: { tokens: 2 } }, at(w1, 50))])).status).toBe(201);
    await rt.waitUntilConsumed();
    const result = await run(deps({ deps: { providerClient: client } }));
    expect(result.errors).toEqual([]);
    expect(result.corrections).toBeGreaterThan(0);

    // Distinct users: sub-a's w1 union is still {u1, u2, u3} — no new version (adding the groups would say 2 + 3).
    const users = (await reportsOf(webhookMeters.get('unique-users')!)).find((r) => r.subscription_id === 'sub-a' && r.usage_start_time === w1.toISOString())!;
    expect(users).toMatchObject({ report_version: 1, meter_usage: 3, meter_metric_exact: '3' });
    // Tokens: 42 + 2 in w1, a version 2 with delta 2; its report_total_usage is the period total after it (51).
    const tokens = (await reportsOf(webhookMeters.get('tokens')!)).filter((r) => r.subscription_id === 'sub-a');
    expect(summary(tokens, ['report_version', 'meter_usage', 'report_total_usage'])).toEqual({ 'sub-a@w1': [2, 44, 51], 'sub-a@w2': [1, 7, 49] });
    expect(tokens.find((r) => r.report_version === 2)!.versions.map((v) => v.delta)).toEqual([42, 2]);

    // Providers: sub-a's w1 is 6 calls now, 8 in all — Chargebee replaces the window's usage, Recurly and Zuora add the delta.
    for (const fake of [chargebee, recurly, zuora]) expect(fake.totals()).toEqual({ 'sub-a': 8n, 'sub-b': 4n });
    const corrected = (await reportsOf(providers.meterIds.chargebee)).find((r) => r.subscription_id === 'sub-a' && r.usage_start_time === w1.toISOString())!;
    expect(corrected).toMatchObject({ report_version: 2, meter_usage: 6, status: 'success' });
    const update = chargebee
      .requests()
      .filter((r) => r.method === 'POST')
      .map((r) => new URLSearchParams(r.body))
      .find((form) => form.get('id') === corrected.idempotency_key)!;
    expect([update.get('dedupe_option'), update.get('quantity')]).toEqual(['update_existing', '6']);
    expect(chargebee.usageRecords()).toHaveLength(4);
    // Recurly and Zuora: one more record each, the +1 under version 2's key.
    const v2Key = async (provider: 'recurly' | 'zuora') =>
      (await reportsOf(providers.meterIds[provider])).find(
        (r) => r.subscription_id === 'sub-a' && r.usage_start_time === w1.toISOString() && r.report_version === 2,
      )!.idempotency_key;
    const recurlyKey = await v2Key('recurly');
    expect(
      recurly
        .usageRecords()
        .filter((u) => u.subscription_id === 'sub-a')
        .map((u) => [u.amount, u.merchant_tag === recurlyKey])
        .sort(),
    ).toEqual([
      [1, true],
      [2, false],
      [5, false],
    ]);
    const zuoraKey = await v2Key('zuora');
    expect(
      zuora
        .usageRecords()
        .filter((u) => u.SubscriptionNumber === 'sub-a')
        .map((u) => [u.Quantity, u.UniqueKey === zuoraKey])
        .sort(),
    ).toEqual([
      [1, true],
      [2, false],
      [5, false],
    ]);
  }, 90_000);
});
