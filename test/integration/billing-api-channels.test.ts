import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { channelWebhookClient, readDeliveryChannels } from '../../functions/billing/channels/channel-reader';
import { idempotencyKey, type ReportIdentity } from '../../functions/billing/providers/idempotency-key';
import { SIGNATURE_HEADER, verifyWebhook } from '../../functions/billing/providers/webhook-signature';
import { startTestRuntime, type TestRuntime } from './support/runtime';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local webhook receiver: records deliveries and answers with the status the test asks for. */
async function startReceiver(): Promise<{ url: string; received: Received[]; answer: { status: number; text: string }; close(): Promise<void> }> {
  const received: Received[] = [];
  const answer = { status: 200, text: '{"ok":true}' };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, received, answer, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('billing webhook channels (/~/billing/channels) and the meter test delivery', () => {
  let rt: TestRuntime;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    rt = await startTestRuntime('billing-api-channels');
    await rt.apps.createOrgWithApp({ orgId: 'org_other', orgName: 'Other', appId: 'app_other', appName: 'Other' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await rt?.dispose();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.answer.status = 200;
    receiver.answer.text = '{"ok":true}';
  });

  const createChannel = (body: Record<string, unknown>) => rt.management('POST', '/~/billing/channels', {}, body);
  const createMeter = (channelIds: string[]) =>
    rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name: 'API calls',
        slug: `calls-${Math.random().toString(36).slice(2, 8)}`,
        es_query: { query: { match_all: {} } },
        billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: channelIds, custom_plan: { plan_id: 'plan-1' } } } },
      },
    );

  it('shows a generated secret once, then only its hint; lists, gets, deletes (410 after)', async () => {
    const created = await createChannel({ name: 'Finance', url: receiver.url, headers: { 'X-Team': 'billing' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ _id: expect.any(String), name: 'Finance', url: receiver.url, status: 'active', headers: { 'X-Team': 'billing' } });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.body.secret_hint).toBe(`…${created.body.secret.slice(-4)}`);

    const got = await rt.management('GET', `/~/billing/channels/${created.body._id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('secret');
    expect(got.body).not.toHaveProperty('previous_secret');
    expect(got.body.secret_hint).toBe(created.body.secret_hint);

    const listed = await rt.management('GET', '/v1/~/billing/channels?status=active');
    expect(listed.status).toBe(200);
    expect(listed.body.map((c: { _id: string }) => c._id)).toContain(created.body._id);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);

    // An update that does not touch the secret does not show it.
    const renamed = await rt.management('POST', `/~/billing/channels/${created.body._id}`, {}, { ...got.body, name: 'Finance team' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Finance team', secret_hint: created.body.secret_hint });
    expect(renamed.body).not.toHaveProperty('secret');

    expect((await rt.management('DELETE', `/~/billing/channels/${created.body._id}`)).status).toBe(204);
    expect((await rt.management('GET', `/~/billing/channels/${created.body._id}`)).status).toBe(410);
    expect((await rt.management('GET', '/~/billing/channels/0123456789abcdef01234567')).status).toBe(404);
  });

  it('refuses bad channels with 400s naming the field, writing nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', url: 'http://example.com/hook' }, 'url'],
      [{ name: 'x', url: 'ftp://localhost/hook' }, 'url'],
      [{ name: 'x', url: 'not a url' }, 'url'],
      [{ url: 'https://example.com/hook' }, 'name'],
      [{ name: 'x', url: 'https://example.com/hook', secret: 'short' }, 'secret'],
      [{ name: 'x', url: 'https://example.com/hook', status: 'paused' }, 'status'],
      [{ name: 'x', url: 'https://example.com/hook', headers: { 'X-Usage-Signature': 'forged' } }, 'headers.X-Usage-Signature'],
      [{ name: 'x', url: 'https://example.com/hook', headers: { 'X-A': 'a\r\nX-B: b' } }, 'headers.X-A'],
      [{ name: 'x', url: 'https://example.com/hook', colour: 'red' }, 'colour'],
    ];
    const before = (await rt.management('GET', '/~/billing/channels?take=1000')).body.length;
    for (const [body, field] of cases) {
      const answer = await createChannel(body);
      expect([answer.status, body]).toEqual([400, body]);
      expect(answer.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await rt.management('GET', '/~/billing/channels?take=1000')).body.length).toBe(before);
    expect((await rt.management('GET', '/~/billing/channels?status=paused')).status).toBe(400);
  });

  it('sends a signed test event to each channel of the meter and answers each request record', async () => {
    const good = await createChannel({ name: 'Good', url: receiver.url, secret: 'a-secret-of-sufficient-length', headers: { 'X-Team': 'billing' } });
    const dead = await createChannel({ name: 'Dead', url: 'http://127.0.0.1:9/unreachable' });
    const meter = await createMeter([good.body._id, dead.body._id, 'no-such-channel']);
    expect(meter.status).toBe(201);

    const test = await rt.management('POST', `/~/billing/meters/${meter.body._id}/webhooks/channels/test`);
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ billing_meter_id: meter.body._id, event_id: expect.stringMatching(/^test_/), success: false });
    const byId = Object.fromEntries(test.body.channel_requests.map((r: { channel_id: string }) => [r.channel_id, r]));
    expect(byId[good.body._id]).toMatchObject({
      channel_name: 'Good',
      success: true,
      provider_requests: [{ job_id: test.body.event_id, success: true, status_code: 200, error_code: null, error_message: null }],
    });
    expect(byId[dead.body._id]).toMatchObject({ success: false, provider_requests: [{ success: false, status_code: 0, error_code: 'network_error' }] });
    expect(byId['no-such-channel']).toMatchObject({ success: false, channel_name: null, provider_requests: [{ error_code: 'channel_not_found' }] });

    // The receiver verifies the signature over the exact raw body with the channel's secret.
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    expect(verifyWebhook(delivery!.body, delivery!.headers[SIGNATURE_HEADER] as string, 'a-secret-of-sufficient-length', nowSeconds())).toMatchObject({
      valid: true,
    });
    expect(verifyWebhook(delivery!.body, delivery!.headers[SIGNATURE_HEADER] as string, 'another-secret-entirely', nowSeconds())).toMatchObject({
      valid: false,
    });
    expect(delivery!.headers['x-team']).toBe('billing');
    expect(JSON.parse(delivery!.body)).toMatchObject({ id: test.body.event_id, type: 'billing.test', data: { meter: { id: meter.body._id } } });
  });

  it('tests one named channel, records a receiver refusal, and answers 404 / 400 for what does not exist', async () => {
    const channel = await createChannel({ name: 'Strict', url: receiver.url });
    const meter = await createMeter([channel.body._id]);
    receiver.answer.status = 403;
    receiver.answer.text = 'forbidden by policy';
    const refused = await rt.management('POST', `/~/billing/meters/${meter.body._id}/webhooks/channels/test`, {}, { channel_id: channel.body._id });
    expect(refused.status).toBe(200);
    expect(refused.body.channel_requests).toEqual([
      expect.objectContaining({
        channel_id: channel.body._id,
        success: false,
        provider_requests: [expect.objectContaining({ status_code: 403, error_code: 'http_403', error_message: 'forbidden by policy' })],
      }),
    ]);

    expect((await rt.management('POST', '/~/billing/meters/0123456789abcdef01234567/webhooks/channels/test')).status).toBe(404);
    const unknownChannel = await rt.management('POST', `/~/billing/meters/${meter.body._id}/webhooks/channels/test`, {}, { channel_id: 'nope' });
    expect(unknownChannel.status).toBe(404);
    expect(unknownChannel.body.error.details[0].field).toBe('channel_id');
    const stripe = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name: 'S',
        slug: 'stripe-meter',
        es_query: { query: { match_all: {} } },
        billing_plan: { provider_slug: 'stripe', params: { stripe_params: { event_name: 'calls' } } },
      },
    );
    const noChannels = await rt.management('POST', `/~/billing/meters/${stripe.body._id}/webhooks/channels/test`);
    expect(noChannels.status).toBe(400);
    expect(noChannels.body.error.details[0].field).toBe('channel_id');
    const badBody = await rt.management('POST', `/~/billing/meters/${meter.body._id}/webhooks/channels/test`, {}, { channel: 'x' });
    expect(badBody.status).toBe(400);
    expect(badBody.body.error.details[0].field).toBe('channel');
  });

  it('rotation: the update answer shows the new secret once; the old one keeps signing for 24 h; the billing run reader signs with both', async () => {
    const created = await createChannel({ name: 'Rotating', url: receiver.url, secret: 'the-original-secret-value' });
    const rotated = await rt.management('PUT', `/~/billing/channels/${created.body._id}`, {}, { rotate_secret: true });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect((await rt.management('GET', `/~/billing/channels/${created.body._id}`)).body).not.toHaveProperty('secret');

    const meter = await createMeter([created.body._id]);
    expect((await rt.management('POST', `/~/billing/meters/${meter.body._id}/webhooks/channels/test`)).body.success).toBe(true);
    const [delivery] = receiver.received;
    const header = delivery!.headers[SIGNATURE_HEADER] as string;
    expect(verifyWebhook(delivery!.body, header, rotated.body.secret, nowSeconds())).toMatchObject({ valid: true });
    expect(verifyWebhook(delivery!.body, header, 'the-original-secret-value', nowSeconds())).toMatchObject({ valid: true });

    // The billing run's reader: after 24 h only the new secret signs; other apps' channels are invisible.
    const deps = { resources: rt.stores.resources };
    const { org_id: org, app_id: app } = rt.credentials;
    const today = await readDeliveryChannels(deps, org, app, [created.body._id, 'missing'], new Date());
    expect(today.get(created.body._id)?.secrets).toEqual([rotated.body.secret, 'the-original-secret-value']);
    expect(today.has('missing')).toBe(false);
    const later = await readDeliveryChannels(deps, org, app, [created.body._id], new Date(Date.now() + 25 * 3600_000));
    expect(later.get(created.body._id)?.secrets).toEqual([rotated.body.secret]);
    expect((await readDeliveryChannels(deps, org, 'another-app', [created.body._id], new Date())).size).toBe(0);

    // A usage delivery through the run's client carries both signatures and the channel's URL.
    receiver.received.length = 0;
    const identity: ReportIdentity = {
      orgId: org,
      appId: app,
      meterId: meter.body._id,
      subscriptionId: 'sub-1',
      windowStart: new Date('2026-11-01T00:00:00Z'),
      windowEnd: new Date('2026-11-01T01:00:00Z'),
      reportVersion: 1,
      destination: `webhook:${created.body._id}`,
    };
    const outcome = await channelWebhookClient(today.get(created.body._id)!, { allowPrivateTargets: true }).report({
      identity,
      idempotencyKey: idempotencyKey(identity),
      meter: { id: meter.body._id },
      subscription: { subscriptionId: 'sub-1', companyId: 'company-1' },
      window: { start: identity.windowStart, end: identity.windowEnd },
      quantity: 5n,
      previousQuantity: 0n,
      reportTotalUsage: 5n,
      params: { channel_ids: [created.body._id], custom_plan: { plan_id: 'plan-1' } },
    });
    expect(outcome.success).toBe(true);
    const usage = receiver.received[0]!;
    expect(verifyWebhook(usage.body, usage.headers[SIGNATURE_HEADER] as string, 'the-original-secret-value', nowSeconds())).toMatchObject({ valid: true });
    expect(verifyWebhook(usage.body, usage.headers[SIGNATURE_HEADER] as string, rotated.body.secret, nowSeconds())).toMatchObject({ valid: true });
  });

  it('keeps tenants apart and enforces the reports scopes', async () => {
    const channel = await createChannel({ name: 'Mine', url: receiver.url });
    const other = await rt.issueToken({ org_id: 'org_other', app_id: 'app_other' });
    const asOther = { authorization: `Bearer ${other}` };
    expect((await rt.management('GET', `/~/billing/channels/${channel.body._id}`, asOther)).status).toBe(404);
    expect((await rt.management('GET', '/~/billing/channels', asOther)).body).toEqual([]);
    expect((await rt.management('DELETE', `/~/billing/channels/${channel.body._id}`, asOther)).status).toBe(404);

    const readOnly = { authorization: `Bearer ${await rt.issueToken({ scopes: ['read:reports'] })}` };
    expect((await rt.management('GET', '/~/billing/channels', readOnly)).status).toBe(200);
    expect((await rt.management('POST', '/~/billing/channels', readOnly, { name: 'x', url: receiver.url })).status).toBe(401);
    expect((await rt.management('DELETE', `/~/billing/channels/${channel.body._id}`, readOnly)).status).toBe(401);
  });
});
