import { runBilling } from '../../functions/billing/run/billing-run';
import type { BillingReport } from '../../schemas/billing/report';
import { FakeWebhookReceiver } from '../support/fake-providers';
import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/**
 * The read API over reports the billing run itself wrote: channels from the channel resources
 * (secret rotated before the run, the receiver still holding the old one), reports listed and
 * summed by metrics, and every report's usage explained by the events behind it.
 */
describe('billing read API over a real billing run', () => {
  const HOUR = 3_600_000;
  const OLD_SECRET = 'whsec_the-receivers-configured-secret';
  const base = Math.floor(Date.now() / HOUR) * HOUR - 4 * HOUR;
  const at = (hour: number, minute: number) => new Date(base + hour * HOUR + minute * 60_000);
  let rt: TestRuntime;
  let receiver: FakeWebhookReceiver;
  let meterId: string;
  let channelId: string;

  beforeAll(async () => {
    rt = await startTestRuntime('billing-api-run', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
    receiver = await new FakeWebhookReceiver({ secrets: { e2e: OLD_SECRET } }).start();
    const channel = await rt.management('POST', '/~/billing/channels', {}, { name: 'Finance', url: receiver.channelUrl('e2e'), secret: OLD_SECRET });
    expect(channel.status).toBe(201);
    channelId = channel.body._id;
    // Rotated before the run: the receiver has not been told the new secret yet.
    const rotated = await rt.management('POST', `/~/billing/channels/${channelId}`, {}, { rotate_secret: true });
    expect(rotated.body.secret).not.toBe(OLD_SECRET);

    const meter = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name: 'Calls',
        slug: 'calls',
        es_query: { query: { match_all: {} } },
        billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: [channelId], custom_plan: { plan_id: 'plan-e2e' } } } },
      },
    );
    expect(meter.status).toBe(201);
    meterId = meter.body._id;

    expect(
      (
        await rt.collect('/v1/subscriptions/batch', [
          { subscription_id: 'sub-1', company_id: 'c1', status: 'active', items: [{ plan_id: 'plan-e2e' }] },
          { subscription_id: 'sub-2', company_id: 'c2', status: 'active', items: [{ plan_id: 'plan-e2e' }] },
        ])
      ).status,
    ).toBe(201);
    let n = 0;
    const call = (fields: Record<string, unknown>, time: Date) => apiCall({ transaction_id: uuid((n += 1)), ...fields }, time);
    expect(
      (
        await rt.collect('/v1/events/batch', [
          call({ company_id: 'c1', subscription_id: 'sub-1' }, at(0, 1)),
          call({ company_id: 'c1', subscription_id: 'sub-1' }, at(0, 2)),
          call({ company_id: 'c1' }, at(0, 3)),
          call({ company_id: 'c1', weight: 4 }, at(1, 10)),
          call({ company_id: 'c2', subscription_id: 'sub-2' }, at(1, 20)),
          call({ company_id: 'nobody' }, at(1, 30)),
        ])
      ).status,
    ).toBe(201);
    await rt.waitUntilConsumed();

    const summary = await runBilling({
      now: new Date(),
      deps: {
        ...rt.billingDeps,
        tenants: async () => [{ orgId: rt.credentials.org_id, appId: rt.credentials.app_id }],
        webhookOptions: { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2, timeoutMs: 2_000 }, allowPrivateTargets: true },
      },
      settings: { backfillMs: 6 * HOUR },
    });
    expect(summary.errors).toEqual([]);
  }, 120_000);

  afterAll(async () => {
    await receiver?.stop();
    await rt?.dispose();
  });

  it('delivered through the channel resource, verifiable with the pre-rotation secret', () => {
    expect(receiver.totals()).toEqual({ 'sub-1': 7n, 'sub-2': 1n });
  });

  it("lists the run's reports with their channel requests, and metrics add up to what was delivered", async () => {
    const listed = await rt.management('GET', `/~/billing/reports?billing_meter_id=${meterId}&from=${new Date(base).toISOString()}`);
    expect(listed.status).toBe(200);
    const reports: BillingReport[] = listed.body;
    const summary = reports.map((r) => [r.usage_start_time, r.subscription_id ?? `company:${r.company_id}`, r.meter_usage, r.status]);
    expect(summary).toEqual(
      expect.arrayContaining([
        [at(0, 0).toISOString(), 'sub-1', 3, 'success'],
        [at(1, 0).toISOString(), 'sub-1', 4, 'success'],
        [at(1, 0).toISOString(), 'sub-2', 1, 'success'],
        [at(1, 0).toISOString(), 'company:nobody', 1, 'unattributed'],
      ]),
    );
    expect(reports).toHaveLength(4);
    for (const report of reports.filter((r) => r.status === 'success')) {
      expect(report.channel_requests).toEqual([
        expect.objectContaining({ channel_id: channelId, provider_requests: [expect.objectContaining({ success: true, status_code: 200 })] }),
      ]);
    }
    const delivered = await rt.management(
      'GET',
      `/~/billing/reports/metrics?billing_meter_id=${meterId}&status=success&from=${new Date(base).toISOString()}&interval=1h&group_by=subscription_id`,
    );
    expect(delivered.status).toBe(200);
    const totals = Object.fromEntries(
      delivered.body.series.map((s: { key: string; buckets: { metric: number }[] }) => [s.key, s.buckets.reduce((t, b) => t + b.metric, 0)]),
    );
    expect(totals).toEqual({ 'sub-1': 7, 'sub-2': 1 });
  });

  it('explains every report with the events it billed', async () => {
    const reports: BillingReport[] = (await rt.management('GET', `/~/billing/reports?billing_meter_id=${meterId}`)).body;
    const expected: Record<string, { events: number; usage: number }> = {
      [`${at(0, 0).toISOString()}|sub-1`]: { events: 3, usage: 3 },
      [`${at(1, 0).toISOString()}|sub-1`]: { events: 1, usage: 4 },
      [`${at(1, 0).toISOString()}|sub-2`]: { events: 1, usage: 1 },
      [`${at(1, 0).toISOString()}|null`]: { events: 1, usage: 1 },
    };
    for (const report of reports) {
      const explained = await rt.management('GET', `/~/billing/reports/${report._id}/explain`);
      expect(explained.status).toBe(200);
      const want = expected[`${report.usage_start_time}|${report.subscription_id}`];
      expect([report._id, explained.body.matches, explained.body.event_count, explained.body.recomputed_usage]).toEqual([
        report._id,
        true,
        want?.events,
        report.meter_usage,
      ]);
      expect(explained.body.sample_event_ids).toHaveLength(want!.events);
    }
  });
});
