import type { DeliveryChannel } from '../../functions/billing/channels/channel-delivery';
import { ReportStore } from '../../functions/billing/reports/report-store';
import { runBilling } from '../../functions/billing/run/billing-run';
import type { BillingReport } from '../../schemas/billing/report';
import { providerClients } from '../../functions/billing/run/provider-registry';
import { FakeStripe, FakeWebhookReceiver } from '../support/fake-providers';
import { billingDeps, HOUR, numberedCalls, settledWindows, type RunSetup } from './support/billing-scenario';
import { searchBackends, startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * The billing run end to end on the real emulators: events through the collector, subscriptions as
 * profiles, meters and catalog prices through the management API, reports in the billing table and
 * deliveries to a fake webhook receiver that verifies signatures and dedupes by event id. Every
 * scenario ends with each subscription billed exactly the right total at the receiver. Once on
 * DuckDB and once on OpenSearch: the run's usage queries read either as the same totals.
 */
describe.each(searchBackends())('billing run on $name', ({ search }) => {
  let rt: TestRuntime;
  let planId: string;
  const { w1, w2, at } = settledWindows();
  const base = w1;
  const tenant = () => ({ orgId: rt.credentials.org_id, appId: rt.credentials.app_id });
  const receivers: FakeWebhookReceiver[] = [];
  const call = numberedCalls();

  async function receiver(channelId: string): Promise<{ fake: FakeWebhookReceiver; channel: DeliveryChannel }> {
    const fake = await new FakeWebhookReceiver({ secrets: { [channelId]: `whsec_${channelId}` } }).start();
    receivers.push(fake);
    return {
      fake,
      channel: { id: channelId, name: `channel ${channelId}`, url: fake.channelUrl(channelId), status: 'active', headers: {}, secrets: [`whsec_${channelId}`] },
    };
  }

  function deps(channel: DeliveryChannel, extra: Parameters<typeof billingDeps>[2] = {}): RunSetup {
    return billingDeps(rt, (ids) => new Map(ids.filter((id) => id === channel.id).map((id) => [id, channel])), extra);
  }

  async function createMeter(name: string, channelId: string, extra: Record<string, unknown> = {}): Promise<string> {
    const created = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name,
        slug: name,
        es_query: { query: { match_all: {} } },
        billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: [channelId], custom_plan: { plan_id: planId } } } },
        ...extra,
      },
    );
    expect(created.status).toBe(201);
    return created.body._id;
  }

  const run = (setup: RunSetup) => runBilling({ now: new Date(), ...setup });

  async function reportsOf(meterId: string): Promise<BillingReport[]> {
    const { windows } = await new ReportStore(rt.clients.documents, rt.names.tables.billing).listWindows(tenant(), {
      from: new Date(base.getTime() - 31 * 86_400_000),
      to: new Date(Date.now() + HOUR),
      meterId,
      maxWindows: 1000,
    });
    return windows.flatMap((w) => [...w.reports]);
  }

  beforeAll(async () => {
    rt = await startTestRuntime('billing-run', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0, search: search() });
    const plan = await rt.management('POST', '/~/billing/catalog/plans', {}, { name: 'API calls' });
    expect(plan.status).toBe(201);
    planId = plan.body.id ?? plan.body._id;
    const price = await rt.management(
      'POST',
      '/~/billing/catalog/prices',
      {},
      {
        name: 'graduated',
        plan_id: planId,
        pricing_model: 'tiered_graduated',
        currency: 'USD',
        tiers: [
          { up_to: 10, unit_price_in_decimal: '0.1' },
          { up_to: 'inf', unit_price_in_decimal: '0.05' },
        ],
      },
    );
    expect(price.status).toBe(201);
    const month = {
      current_period_start: new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), 1)).toISOString(),
      current_period_end: new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, 1)).toISOString(),
    };
    expect(
      (
        await rt.collect('/v1/subscriptions/batch', [
          { subscription_id: 'sub-a', company_id: 'acme', status: 'active', items: [{ plan_id: planId }], created_at: '2026-01-01T00:00:00Z', ...month },
          // A second acme subscription without the meter's plan: company usage must not go to it.
          {
            subscription_id: 'sub-a-other',
            company_id: 'acme',
            status: 'active',
            items: [{ plan_id: 'another-plan' }],
            created_at: '2025-01-01T00:00:00Z',
            ...month,
          },
          // sub-b names its provider invoice of the current period (reports carry it as usage.invoice.id).
          {
            subscription_id: 'sub-b',
            company_id: 'globex',
            status: 'active',
            items: [{ plan_id: planId }],
            metadata: { current_invoice_id: 'in_globex_1' },
            ...month,
          },
          { subscription_id: 'sub-x', company_id: 'initech', status: 'cancelled', items: [{ plan_id: planId }], ...month },
        ])
      ).status,
    ).toBe(201);
    const events = [
      // acme, no subscription_id: 6 calls + one sampled call of weight 3 in w1 = 9; 5 in w2.
      ...Array.from({ length: 6 }, (_, i) => call({ company_id: 'acme' }, at(w1, i + 1))),
      call({ company_id: 'acme', weight: 3 }, at(w1, 30)),
      ...Array.from({ length: 5 }, (_, i) => call({ company_id: 'acme' }, at(w2, i + 1))),
      // globex names its subscription: 4 in w1; one exactly on the w1/w2 boundary belongs to w2.
      ...Array.from({ length: 4 }, (_, i) => call({ company_id: 'globex', subscription_id: 'sub-b' }, at(w1, 10 + i))),
      call({ company_id: 'globex', subscription_id: 'sub-b' }, w2),
      // A cancelled subscription and a company without any subscription: recorded, never sent.
      call({ company_id: 'initech', subscription_id: 'sub-x' }, at(w1, 5)),
      call({ company_id: 'hooli', user_id: 'u-h' }, at(w1, 6)),
    ];
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.stop()));
    await rt?.dispose();
  });

  it('bills each subscription exactly once per window, attributes company usage, records unattributed usage, prices tiers exactly', async () => {
    const { fake, channel } = await receiver('main');
    const meterId = await createMeter('calls', 'main');
    const summary = await run(deps(channel));
    expect(summary.errors).toEqual([]);
    expect(fake.totals()).toEqual({ 'sub-a': 14n, 'sub-b': 5n });

    const reports = await reportsOf(meterId);
    const byKey = (sub: string | null, company: string | null, window: Date) =>
      reports.find((r) => r.subscription_id === sub && (sub !== null || r.company_id === company) && r.usage_start_time === window.toISOString());
    expect(byKey('sub-a', 'acme', w1)).toMatchObject({
      status: 'success',
      success: true,
      meter_usage: 9,
      report_total_usage: 9,
      amount: 0.9,
      currency: 'usd',
      report_version: 1,
      attribution: 'company',
      company_id: 'acme',
    });
    // 14 units: 10 × 0.10 + 4 × 0.05 = 1.20 for the period, so w2 bills 0.30.
    expect(byKey('sub-a', 'acme', w2)).toMatchObject({ status: 'success', meter_usage: 5, report_total_usage: 14, amount: 0.3 });
    expect(byKey('sub-b', 'globex', w1)).toMatchObject({ status: 'success', meter_usage: 4, attribution: 'subscription_id' });
    expect(byKey('sub-b', 'globex', w2)).toMatchObject({ meter_usage: 1, report_total_usage: 5 });
    expect(byKey('sub-x', 'initech', w1)).toMatchObject({ status: 'unattributed', success: false, meter_usage: 1, provider_requests: [] });
    expect(byKey(null, 'hooli', w1)).toMatchObject({ status: 'unattributed', success: false, meter_usage: 1, subscription_id: null });
    expect(reports.every((r) => r.subscription_id !== 'sub-a-other')).toBe(true);
    const received = fake.events();
    expect(received).toHaveLength(4);
    // Batched: one signed POST per window to the channel.
    expect(fake.requests().filter((r) => r.method === 'POST')).toHaveLength(2);
    expect(new Set(received.map((e) => e.id)).size).toBe(4);

    // A second run finds nothing new and sends nothing.
    const again = await run(deps(channel));
    expect(again.windowsEvaluated).toBe(0);
    expect(fake.events()).toHaveLength(4);
    const store = new ReportStore(rt.clients.documents, rt.names.tables.billing);
    const one = byKey('sub-a', 'acme', w1)!;
    expect(await store.getReport(tenant(), one._id)).toMatchObject({ _id: one._id, meter_usage: 9 });
  }, 60_000);

  it('retries 500s, timeouts and 429s in later runs with the same key; a 4xx fails with the provider message', async () => {
    const { fake, channel } = await receiver('flaky');
    const meterId = await createMeter('calls-flaky', 'flaky');
    // One POST per report here (batch size 1), so each injected failure hits one report.
    const d = deps(channel, {
      deps: { webhookOptions: { retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 500 }, allowPrivateTargets: true } },
      settings: { deliveryConcurrency: 1, webhookBatchSize: 1 },
    });
    fake.failNext(1, 500).failNext(1, { kind: 'timeout', processFirst: true }).failNext(1, { kind: 'status', status: 429, retryAfterSeconds: 0 });
    const first = await run(d);
    expect(first.errors).toEqual([]);
    expect(first.retrying).toBe(3);
    const retrying = (await reportsOf(meterId)).filter((r) => r.status === 'retrying');
    expect(retrying).toHaveLength(3);
    const second = await run(d);
    expect(second.delivered).toBe(3);
    expect(fake.totals()).toEqual({ 'sub-a': 14n, 'sub-b': 5n });
    const reports = (await reportsOf(meterId)).filter((r) => r.status !== 'unattributed');
    expect(reports.every((r) => r.status === 'success')).toBe(true);
    // The timed-out request had reached the receiver: the resend carried the same key and was a duplicate.
    const keysSent = fake
      .requests()
      .filter((r) => r.method === 'POST')
      .map((r) => JSON.parse(r.body).id);
    expect(new Set(keysSent).size).toBe(4);

    // Batched delivery: a batch that timed out after the receiver processed it is resent whole; its events are duplicates.
    const batched = await receiver('flaky-batch');
    const batchedMeter = await createMeter('calls-flaky-batch', 'flaky-batch');
    batched.fake.failNext(1, { kind: 'timeout', processFirst: true });
    await run(
      deps(batched.channel, {
        deps: { webhookOptions: { retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 500 }, allowPrivateTargets: true } },
      }),
    );
    expect((await reportsOf(batchedMeter)).filter((r) => r.status === 'retrying').length).toBeGreaterThan(0);
    await run(deps(batched.channel));
    expect(batched.fake.totals()).toEqual({ 'sub-a': 14n, 'sub-b': 5n });
    expect((await reportsOf(batchedMeter)).filter((r) => r.status === 'success')).toHaveLength(4);

    const refused = await receiver('refusing');
    const meter2 = await createMeter('calls-refused', 'refusing');
    refused.fake.failNext(100, { kind: 'status', status: 400, message: 'plan is archived', code: 'plan_archived' });
    await run(deps(refused.channel));
    const failed = (await reportsOf(meter2)).filter((r) => r.status !== 'unattributed');
    expect(failed.length).toBe(4);
    for (const report of failed) {
      expect(report).toMatchObject({ status: 'failed', success: false });
      expect(report.provider_requests.at(-1)).toMatchObject({ success: false, status_code: 400, error_message: 'plan is archived' });
    }
    const sentBefore = refused.fake.requests().length;
    await run(deps(refused.channel));
    expect(refused.fake.requests().length).toBe(sentBefore);
  }, 90_000);

  it('resumes after a crash after the window commit and after delivery, billing exactly once', async () => {
    for (const point of ['afterWindowCommit', 'afterDelivery'] as const) {
      const { fake, channel } = await receiver(`crash-${point}`);
      await createMeter(`calls-crash-${point.toLowerCase()}`, `crash-${point}`);
      let crashed = false;
      const crashing = deps(channel, {
        hooks: {
          faults: {
            [point]: () => {
              if (!crashed) {
                crashed = true;
                throw new Error(`injected crash ${point}`);
              }
            },
          },
        },
      });
      const first = await run(crashing);
      expect(first.errors.map((e) => e.message)).toEqual([`injected crash ${point}`]);
      await run(deps(channel));
      expect(fake.totals()).toEqual({ 'sub-a': 14n, 'sub-b': 5n });
    }
  }, 90_000);

  it('two concurrent runs bill each window once', async () => {
    const { fake, channel } = await receiver('concurrent');
    const meterId = await createMeter('calls-concurrent', 'concurrent');
    const summaries = await Promise.all([run(deps(channel)), run(deps(channel))]);
    await run(deps(channel));
    expect(summaries.flatMap((s) => s.errors)).toEqual([]);
    expect(fake.totals()).toEqual({ 'sub-a': 14n, 'sub-b': 5n });
    expect(fake.requests().filter((r) => r.method === 'POST')).toHaveLength(2);
    expect((await reportsOf(meterId)).filter((r) => r.status === 'success')).toHaveLength(4);
  }, 60_000);

  it('reports through a provider connection (Stripe meter events): a 500 is resent next run with the same identifier', async () => {
    const stripe = await new FakeStripe({ apiKey: 'sk_test_billing' }).start();
    try {
      const created = await rt.management(
        'POST',
        '/~/billing/meters',
        {},
        {
          name: 'calls-stripe',
          slug: 'calls-stripe',
          es_query: JSON.stringify({ query: { match_all: {} } }),
          billing_plan: { provider_slug: 'stripe', params: { stripe_params: { event_name: 'api_calls', price_id: planId } } },
        },
      );
      expect(created.status).toBe(201);
      const providerClient = providerClients(
        { connections: [{ provider: 'stripe', api_key: 'sk_test_billing', base_url: stripe.url }] },
        { retry: { maxAttempts: 1, timeoutMs: 2_000 } },
      );
      const { channel } = await receiver('unused');
      stripe.failNext(1, 500);
      const first = await run(deps(channel, { deps: { providerClient }, settings: { deliveryConcurrency: 1 } }));
      expect(first.retrying).toBe(1);
      await run(deps(channel, { deps: { providerClient } }));
      // Customers are the companies (no stripe_customer_id in the subscriptions' metadata).
      expect(stripe.totals()).toEqual({ acme: 14n, globex: 5n });
      const reports = (await reportsOf(created.body._id)).filter((r) => r.status !== 'unattributed');
      expect(reports.map((r) => r.status)).toEqual(['success', 'success', 'success', 'success']);
      expect(reports.every((r) => r.amount === undefined)).toBe(true);
    } finally {
      await stripe.stop();
    }
  }, 60_000);

  it('evaluates a placeholder meter per subscription ({{company_id}}), with the same exact totals', async () => {
    const { fake, channel } = await receiver('placeholder');
    const created = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name: 'calls-per-company',
        slug: 'calls-per-company',
        es_query: { query: { term: { company_id: '{{company_id}}' } } },
        billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: ['placeholder'], custom_plan: { plan_id: planId } } } },
      },
    );
    expect(created.status).toBe(201);
    await run(deps(channel));
    expect(fake.totals()).toEqual({ 'sub-a': 14n, 'sub-b': 5n });
    expect((await reportsOf(created.body._id)).every((r) => r.status === 'success')).toBe(true);
  }, 60_000);

  it('draws report amounts from the balance of subscriptions that have one', async () => {
    const credit = await rt.management(
      'POST',
      '/~/billing/reports/balance_transactions',
      {},
      { company_id: 'globex', subscription_id: 'sub-b', transaction_id: 'run-credit-1', amount: '10', type: 'credit' },
    );
    expect(credit.status).toBe(204);
    const { fake, channel } = await receiver('balance');
    const meterId = await createMeter('calls-balance', 'balance');
    await run(deps(channel));
    expect(fake.totals()).toEqual({ 'sub-a': 14n, 'sub-b': 5n });
    const reports = (await reportsOf(meterId))
      .filter((r) => r.subscription_id === 'sub-b')
      .sort((a, b) => a.usage_start_time.localeCompare(b.usage_start_time));
    // sub-b: 4 units (0.40) then 1 unit (0.10), drawn from a 10.00 credit.
    expect(reports.map((r) => [r.amount, r.balance_changes, r.ending_balance?.current_balance])).toEqual([
      [0.4, [{ amount: -0.4 }], 9.6],
      [0.1, [{ amount: -0.1 }], 9.5],
    ]);
    // sub-a has no balance: nothing drawn.
    expect((await reportsOf(meterId)).filter((r) => r.subscription_id === 'sub-a').every((r) => r.ending_balance === undefined)).toBe(true);
  }, 60_000);

  it('re-evaluates a window that received late events: a new version with the delta, totals adjusted', async () => {
    const { fake, channel } = await receiver('late');
    const meterId = await createMeter('calls-late', 'late');
    await run(deps(channel));
    expect(fake.totals()).toEqual({ 'sub-a': 14n, 'sub-b': 5n });
    // Two late calls for acme in w1 (hours old when indexed: marked late by the consumer).
    expect((await rt.collect('/v1/events/batch', [call({ company_id: 'acme' }, at(w1, 50)), call({ company_id: 'acme' }, at(w1, 51))])).status).toBe(201);
    await rt.waitUntilConsumed();
    const summary = await run(deps(channel));
    expect(summary.corrections).toBeGreaterThanOrEqual(1);
    expect(fake.totals()).toEqual({ 'sub-a': 16n, 'sub-b': 5n });
    const corrected = (await reportsOf(meterId)).find((r) => r.subscription_id === 'sub-a' && r.usage_start_time === w1.toISOString())!;
    expect(corrected).toMatchObject({ report_version: 2, meter_usage: 11, status: 'success' });
    expect(corrected.versions.map((v) => [v.report_version, v.meter_usage, v.delta])).toEqual([
      [1, 9, 9],
      [2, 11, 2],
    ]);
    // 16 units in the period now: the w1 correction bills price(16) − price(14) = 0.10.
    expect(corrected.versions[1]!.amount_exact).toBe('0.1');
    // Nothing more to correct: a further run sends nothing.
    const sent = fake.requests().length;
    await run(deps(channel));
    expect(fake.requests().length).toBe(sent);
  }, 90_000);

  it('a refused version is carried by the next correction: the receiver ends with the corrected windows whole, amounts included', async () => {
    const { fake, channel } = await receiver('refused-then-corrected');
    const meterId = await createMeter('calls-refused-corrected', 'refused-then-corrected');
    // Both windows' batches are refused (4xx): every version 1 ends failed, nothing reached the receiver.
    fake.failNext(2, { kind: 'status', status: 400, message: 'unknown plan', code: 'unknown_plan' });
    await run(deps(channel));
    const before = (await reportsOf(meterId)).filter((r) => r.status !== 'unattributed');
    expect(before.map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect(fake.totals()).toEqual({});

    // Late events correct sub-a's w1 and sub-b's w2: each correction must carry its window's whole usage.
    expect(
      (await rt.collect('/v1/events/batch', [call({ company_id: 'acme' }, at(w1, 52)), call({ company_id: 'globex', subscription_id: 'sub-b' }, at(w2, 20))]))
        .status,
    ).toBe(201);
    await rt.waitUntilConsumed();
    await run(deps(channel));
    const after = await reportsOf(meterId);
    const subA = after.find((r) => r.subscription_id === 'sub-a' && r.usage_start_time === w1.toISOString())!;
    const subB = after.find((r) => r.subscription_id === 'sub-b' && r.usage_start_time === w2.toISOString())!;
    expect(subA).toMatchObject({ report_version: 2, status: 'success' });
    expect(subB).toMatchObject({ report_version: 2, meter_usage: 2, status: 'success' });
    expect(fake.totals()).toEqual({ 'sub-a': BigInt(subA.meter_usage), 'sub-b': 2n });
    // The amount sent is what the refused version billed plus the correction's own change.
    const sentA = fake.events().find((e) => (e.data.subscription as { id: string }).id === 'sub-a')!;
    expect(sentA.data).toMatchObject({ previous_quantity: 0, quantity: subA.meter_usage, delta: subA.meter_usage });
    expect(Number(sentA.data.amount)).toBeCloseTo(
      subA.versions.reduce((sum, v) => sum + Number(v.amount_exact ?? 0), 0),
      9,
    );
    expect(subA.versions.every((v) => v.amount_exact !== undefined && Number(v.amount_exact) > 0)).toBe(true);
    // Windows without a correction stay failed (an operator's matter), and nothing is resent.
    expect(after.filter((r) => r.status === 'failed')).toHaveLength(2);
    const sent = fake.requests().length;
    await run(deps(channel));
    expect(fake.requests().length).toBe(sent);
  }, 90_000);

  it("honours a webhook meter's reporting.reporting_period and sets usage.invoice from the subscription period", async () => {
    const invalid = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name: 'bad-period',
        slug: 'bad-period',
        es_query: { query: { match_all: {} } },
        billing_plan: {
          provider_slug: 'webhook',
          params: {
            webhook_params: { channel_ids: ['x'], custom_plan: { plan_id: planId }, reporting: { report_when: ['period_closed'], reporting_period: '7m' } },
          },
        },
      },
    );
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(invalid.body.error.details)).toContain('reporting_period');

    const { fake, channel } = await receiver('two-hourly');
    const meterId = await createMeter('calls-2h', 'two-hourly', {
      billing_plan: {
        provider_slug: 'webhook',
        params: {
          webhook_params: {
            channel_ids: ['two-hourly'],
            custom_plan: { plan_id: planId },
            reporting: { report_when: ['period_closed'], reporting_period: '2h' },
          },
        },
      },
    });
    const summary = await run(deps(channel));
    expect(summary.errors).toEqual([]);
    const reports = (await reportsOf(meterId)).filter((r) => r.status !== 'unattributed');
    expect(reports.length).toBeGreaterThan(0);
    for (const report of reports) {
      expect(Date.parse(report.usage_end_time) - Date.parse(report.usage_start_time)).toBe(2 * HOUR);
      expect(Date.parse(report.usage_start_time) % (2 * HOUR)).toBe(0);
    }
    // Every event of the fixture, the late ones of the earlier tests included, is billed once:
    // sub-a 9 + 2 + 1 in w1 and 5 in w2, sub-b 4 in w1 and 1 + 1 in w2.
    expect(fake.totals()).toEqual({ 'sub-a': 17n, 'sub-b': 6n });
    const monthStart = new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), 1));
    const monthEnd = new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, 1)).toISOString();
    const a = reports.find((r) => r.subscription_id === 'sub-a')!;
    expect(a.usage).toEqual({
      aggregator: expect.any(String),
      invoice: { id: `sub-a:${monthStart.toISOString()}`, period_start: monthStart.toISOString(), period_end: monthEnd },
    });
    const b = reports.find((r) => r.subscription_id === 'sub-b')!;
    expect(b.usage.invoice).toEqual({ id: 'in_globex_1', period_start: monthStart.toISOString(), period_end: monthEnd });
  }, 90_000);
});
