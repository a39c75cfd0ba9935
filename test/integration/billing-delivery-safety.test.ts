import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createServer as createNetServer } from 'node:net';
import { channelKey } from '../../functions/billing/channels/channel-reader';
import { DELIVERY_UNCONFIRMED } from '../../functions/billing/run/deliver-reports';
import { runBilling, type BillingRunDeps } from '../../functions/billing/run/billing-run';
import { newResourceId } from '../../functions/resources/resource-store';
import type { BillingReport } from '../../schemas/billing/report';
import { FakeWebhookReceiver } from '../support/fake-providers';
import { apiCall, startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Delivery safety end to end on the emulators, in a deployment that does NOT allow private webhook
 * targets (WEBHOOK_ALLOW_PRIVATE_TARGETS=false, as on AWS): channels naming loopback/private/metadata
 * addresses are refused, a channel stored earlier with such a URL is never delivered to (test
 * delivery and billing run record `forbidden_target`), and a destination that never answers ends
 * `failed` / `delivery_unconfirmed`, visible through GET /~/billing/reports?status=failed.
 */
describe('billing delivery safety', () => {
  let rt: TestRuntime;
  let planId: string;
  const HOUR = 3_600_000;
  const window = new Date(Math.floor(Date.now() / HOUR) * HOUR - 4 * HOUR);
  const tenant = () => ({ orgId: rt.credentials.org_id, appId: rt.credentials.app_id });
  const receivers: FakeWebhookReceiver[] = [];

  beforeAll(async () => {
    rt = await startTestRuntime('billing-delivery-safety', {
      webhookAllowPrivateTargets: false,
      managementAuth: { rateLimitPerMinute: 100_000 },
      governanceRefreshMs: 0,
    });
    const plan = await rt.management('POST', '/~/billing/catalog/plans', {}, { name: 'API calls' });
    expect(plan.status).toBe(201);
    planId = plan.body.id ?? plan.body._id;
    expect(
      (
        await rt.collect('/v1/subscriptions/batch', [
          { subscription_id: 'sub-a', company_id: 'acme', status: 'active', items: [{ plan_id: planId }], created_at: '2026-01-01T00:00:00Z' },
        ])
      ).status,
    ).toBe(201);
    const events = Array.from({ length: 3 }, (_, i) =>
      apiCall(
        { company_id: 'acme', subscription_id: 'sub-a', transaction_id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}` },
        new Date(window.getTime() + (i + 1) * 60_000),
      ),
    );
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.stop()));
    await rt?.dispose();
  });

  async function receiver(channelId: string, secret: string): Promise<FakeWebhookReceiver> {
    const fake = await new FakeWebhookReceiver({ secrets: { [channelId]: secret } }).start();
    receivers.push(fake);
    return fake;
  }

  /** A channel stored as it was before the deployment refused private targets (the API would refuse it now). */
  async function storedChannel(url: string, secret: string): Promise<string> {
    const id = newResourceId();
    const now = new Date().toISOString();
    await rt.clients.documents.send(
      new PutCommand({
        TableName: rt.names.tables.resources,
        Item: {
          ...channelKey(rt.credentials.org_id, rt.credentials.app_id, id),
          _id: id,
          org_id: rt.credentials.org_id,
          app_id: rt.credentials.app_id,
          name: 'legacy',
          url,
          secret,
          status: 'active',
          created_at: now,
          modified_at: now,
        },
      }),
    );
    return id;
  }

  async function webhookMeter(name: string, channelId: string): Promise<string> {
    const created = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name,
        slug: name,
        es_query: { query: { match_all: {} } },
        billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: [channelId], custom_plan: { plan_id: planId } } } },
      },
    );
    expect(created.status).toBe(201);
    return created.body._id;
  }

  function deps(extra: Partial<BillingRunDeps>): BillingRunDeps {
    return { ...rt.billingDeps, tenants: async () => [tenant()], ...extra };
  }

  const failedReports = async (meterId: string): Promise<BillingReport[]> => {
    const answer = await rt.management('GET', `/~/billing/reports?status=failed&billing_meter_id=${meterId}&from=-31d`);
    expect(answer.status).toBe(200);
    return answer.body;
  };

  it('channel create/update refuse loopback, private and metadata addresses on `url` (400), public hosts are accepted', async () => {
    for (const url of [
      'http://localhost:8080/hooks',
      'http://127.0.0.1:9000/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://2130706433/hooks',
      'https://[::ffff:10.0.0.1]/hooks',
      'https://[fd00:ec2::254]/',
    ]) {
      const refused = await rt.management('POST', '/~/billing/channels', {}, { name: 'internal', url });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'url', reason: expect.stringMatching(/WEBHOOK_ALLOW_PRIVATE_TARGETS/) })]);
    }
    const created = await rt.management('POST', '/~/billing/channels', {}, { name: 'public', url: 'https://hooks.example.com/usage' });
    expect(created.status).toBe(201);
    const moved = await rt.management('PUT', `/~/billing/channels/${created.body._id}`, {}, { url: 'https://192.168.1.20/usage' });
    expect(moved.status).toBe(400);
    expect(moved.body.error.details[0]).toMatchObject({ field: 'url' });
    expect((await rt.management('GET', `/~/billing/channels/${created.body._id}`)).body.url).toBe('https://hooks.example.com/usage');
  });

  it("alert Slack URLs must be Slack's https webhook hosts and public (400 on save), and PagerDuty keys their documented form", async () => {
    const alert = (channels: Record<string, unknown>) => ({
      name: 'Errors',
      state: 1,
      metric: 'count',
      window_minutes: 5,
      interval_minutes: 1,
      condition: { type: 'static', operator: 'above', threshold: 1 },
      channels,
    });
    for (const url of [
      'https://169.254.169.254/latest/meta-data',
      'https://127.0.0.1/services/x',
      'https://[::1]/services/x',
      'http://hooks.slack.com/services/T0/B0/x',
      'https://hooks.example.com/services/T0/B0/x',
      'https://localhost/services/x',
    ]) {
      const refused = await rt.management('POST', '/~/alerts', {}, alert({ slack_urls: [url] }));
      expect([url, refused.status, refused.body.error.details.map((d: { field: string }) => d.field)]).toEqual([url, 400, ['channels.slack_urls[0]']]);
    }
    const badKey = await rt.management('POST', '/~/alerts', {}, alert({ pagerduty_routing_keys: ['pd-key-1'] }));
    expect([badKey.status, badKey.body.error.details[0].field]).toEqual([400, 'channels.pagerduty_routing_keys[0]']);
    const created = await rt.management(
      'POST',
      '/~/alerts',
      {},
      alert({ slack_urls: ['https://hooks.slack.com/services/T0/B0/abc'], pagerduty_routing_keys: ['0123456789abcdef0123456789abcdef'] }),
    );
    expect(created.status).toBe(201);
  });

  it('a stored loopback channel is never delivered to: the test delivery and the billing run record forbidden_target (failed, listed)', async () => {
    const fake = await receiver('legacy', 'whsec_legacy_channel_secret');
    const channelId = await storedChannel(fake.channelUrl('legacy'), 'whsec_legacy_channel_secret');
    const meterId = await webhookMeter('calls-forbidden', channelId);

    const test = await rt.management('POST', `/~/billing/meters/${meterId}/webhooks/channels/test`);
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({
      success: false,
      channel_requests: [{ channel_id: channelId, success: false, provider_requests: [{ success: false, status_code: 0, error_code: 'forbidden_target' }] }],
    });

    const summary = await runBilling({ now: new Date(), deps: deps({ webhookOptions: { allowPrivateTargets: false } }) });
    expect(summary.errors).toEqual([]);
    const failed = await failedReports(meterId);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ subscription_id: 'sub-a', status: 'failed', success: false, error_code: 'forbidden_target' });
    expect(failed[0]!.error_message).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(fake.requests()).toHaveLength(0);
  }, 60_000);

  it('a destination that never answers stays retrying, then ends failed / delivery_unconfirmed (FailedReports counts it)', async () => {
    // A deployment that allows local targets, delivering to a port nothing listens on.
    const channelId = await storedChannel(`http://127.0.0.1:${await closedPort()}/hooks`, 'whsec_unreachable_secret_1');
    const meterId = await webhookMeter('calls-unreachable', channelId);
    const run = () =>
      runBilling({
        now: new Date(),
        deps: deps({ webhookOptions: { allowPrivateTargets: true, retry: { maxAttempts: 1, timeoutMs: 500 } } }),
        settings: { maxDeliveryRuns: 2 },
      });
    const first = await run();
    expect(first.retrying).toBeGreaterThanOrEqual(1);
    const retrying = await rt.management('GET', `/~/billing/reports?status=retrying&billing_meter_id=${meterId}&from=-31d`);
    expect(retrying.body).toEqual([expect.objectContaining({ status: 'retrying', success: false, delivery_runs: 1 })]);
    expect(retrying.body[0].error_code).toBeUndefined();

    const second = await run();
    expect(second.failed).toBe(1);
    const failed = await failedReports(meterId);
    expect(failed).toEqual([
      expect.objectContaining({ status: 'failed', success: false, error_code: DELIVERY_UNCONFIRMED, delivery_runs: 2, last_success_time: null }),
    ]);
    expect(failed[0]!.error_message).toMatch(new RegExp(`webhook:${channelId}`));
    // Every attempt went out under the same key.
    expect(new Set(failed[0]!.provider_requests.map((r) => r.job_id))).toEqual(new Set([failed[0]!.idempotency_key]));
    // Settled: later runs send nothing more.
    const third = await run();
    expect(third.failed + third.retrying + third.delivered).toBe(0);
  }, 60_000);
});

async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
