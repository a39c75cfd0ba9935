import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ParsedMail } from 'mailparser';
import { evaluateAlert, emptySummary, type AlertRunDeps } from '../../functions/alerts/alert-runner';
import { alertRunDeps } from '../../functions/composition-root/email-services';
import { SIGNATURE_HEADER, verifyWebhook } from '../../functions/billing/providers/webhook-signature';
import { apiCall, searchBackends, startTestRuntime, uuid, type TestRuntime } from './support/runtime';
import { startSmtpReceiver } from './support/smtp-receiver';

/**
 * Alerts against the local runtime with real receivers: an SMTP server, and an HTTP server standing
 * in for a webhook channel, Slack and PagerDuty. An alert fires once and resolves once on every
 * channel; a receiver's error is retried with the same id; a sender stopped mid-delivery never
 * sends a claimed message twice.
 */
describe.each(searchBackends())('alerts on $name', ({ search }) => {
  let rt: TestRuntime;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>> | undefined;
  let receiver: Server;
  let base = '';
  let secret = '';
  let channelId = '';
  let mails: ParsedMail[] = [];
  const requests: { path: string; body: string; headers: IncomingMessage['headers'] }[] = [];
  /** Answers the next requests to a path with this status, then 200. */
  const failNext = new Map<string, number[]>();
  let clock = () => new Date();
  const minute = 60_000;

  const received = (path: string) => requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as Record<string, any>);
  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  const createAlert = async (alert: Record<string, unknown>) => {
    const created = await rt.management('POST', '/~/alerts', {}, { state: 1, interval_minutes: 1, ...alert });
    expect(created.status).toBe(201);
    return String(created.body._id);
  };
  const history = async (id: string) => (await rt.management('GET', `/~/alerts/${id}/history`)).body.events as Record<string, any>[];

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    mails = smtp.mails;
    receiver = createServer((request, response) => {
      void read(request).then((body) => {
        const path = request.url ?? '';
        requests.push({ path, body, headers: request.headers });
        const status = failNext.get(path)?.shift() ?? 200;
        response.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? '{"status":"success"}' : '{"error":"busy"}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    rt = await startTestRuntime('alerts', {
      search: search(),
      email: { smtpUrl: smtp.url, intervalMs: 0 },
      cohortNotifications: { intervalMs: 0, emailFrom: 'alerts@service.test' },
      alerts: { intervalMs: 0, pagerDutyUrl: `${base}/pagerduty`, now: () => clock() },
    });
    const channel = await rt.management('POST', '/~/billing/channels', {}, { name: 'On-call hook', url: `${base}/hooks` });
    expect(channel.status).toBe(201);
    channelId = channel.body._id;
    secret = channel.body.secret;
    // 30 calls in the last half hour: acme's 10 of them failed with 500.
    const now = Date.now();
    const calls = Array.from({ length: 30 }, (_, i) =>
      apiCall(
        {
          transaction_id: uuid(7000 + i),
          company_id: i < 10 ? 'acme' : 'globex',
          request: { time: new Date(now - (i + 1) * minute).toISOString(), uri: 'https://api.example.com/orders', verb: 'GET', headers: {} },
          response: { time: new Date(now - (i + 1) * minute + 20).toISOString(), status: i < 10 ? 500 : 200, headers: {} },
        },
        new Date(now - (i + 1) * minute),
      ),
    );
    expect((await rt.collect('/v1/events/batch', calls)).status).toBe(201);
    await rt.waitUntilConsumed();
  }, 120_000);

  afterAll(async () => {
    await rt?.dispose();
    await smtp?.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  });

  it('fires once on every channel, keeps quiet while firing, and resolves once', async () => {
    const id = await createAlert({
      name: 'Traffic spike',
      metric: 'count',
      window_minutes: 60,
      condition: { type: 'static', operator: 'above', threshold: 20 },
      channels: {
        emails: ['oncall@x.test'],
        webhook_channel_ids: [channelId],
        slack_urls: [`${base}/slack`],
        pagerduty_routing_keys: ['pdkey1pdkey1pdkey1pdkey1pdkey1p1'],
      },
    });
    const first = await rt.alerts.runOnce();
    expect(first).toMatchObject({ fired: 1, resolved: 0, delivered: 4, failed: 0 });
    const [hook] = received('/hooks');
    expect(hook).toMatchObject({ type: 'alert.fired', data: { series: '*', value: 30, threshold: 20, alert: { id, name: 'Traffic spike' } } });
    const signed = requests.find((r) => r.path === '/hooks')!;
    expect(verifyWebhook(signed.body, signed.headers[SIGNATURE_HEADER] as string, secret, Math.floor(Date.now() / 1000))).toMatchObject({ valid: true });
    expect(received('/slack')).toEqual([{ text: expect.stringContaining('Traffic spike fired for all events: count 30 (threshold 20)') }]);
    const [trigger] = received('/pagerduty');
    expect(trigger).toMatchObject({ routing_key: 'pdkey1pdkey1pdkey1pdkey1pdkey1p1', event_action: 'trigger', payload: { severity: 'error' } });
    expect(mails.filter((m) => m.subject === '[Alert] Traffic spike — all events')).toHaveLength(1);

    // Still over the threshold a minute later: no new firing, nothing sent.
    const later = new Date(Date.now() + minute);
    clock = () => later;
    expect(await rt.alerts.runOnce()).toMatchObject({ fired: 0, resolved: 0, delivered: 0 });
    expect(requests).toHaveLength(3);

    // Two hours on, the window holds none of those calls: resolved, once, with the firing's PagerDuty key.
    const quiet = new Date(Date.now() + 120 * minute);
    clock = () => quiet;
    expect(await rt.alerts.runOnce()).toMatchObject({ fired: 0, resolved: 1, delivered: 4 });
    expect(received('/hooks').map((h) => h.type)).toEqual(['alert.fired', 'alert.resolved']);
    expect(received('/slack')).toHaveLength(2);
    expect(received('/pagerduty')[1]).toEqual({ routing_key: 'pdkey1pdkey1pdkey1pdkey1pdkey1p1', event_action: 'resolve', dedup_key: trigger!.dedup_key });
    expect(mails.filter((m) => m.subject?.startsWith('[Resolved] Traffic spike'))).toHaveLength(1);
    expect(await rt.alerts.runOnce()).toMatchObject({ fired: 0, resolved: 0, delivered: 0 });

    const events = await history(id);
    expect(events.map((e) => e.kind)).toEqual(['resolved', 'fired']);
    for (const event of events) for (const outcome of Object.values(event.channels)) expect(outcome).toMatchObject({ status: 'sent', attempts: 1 });
    // Slack URLs and PagerDuty keys are secrets: the history names them by a hash.
    expect(Object.keys(events[0]!.channels).sort()).toEqual([
      'email:oncall@x.test',
      expect.stringMatching(/^pagerduty:[0-9a-f]{12}$/),
      expect.stringMatching(/^slack:[0-9a-f]{12}$/),
      `webhook:${channelId}`,
    ]);
    expect((await rt.management('DELETE', `/~/alerts/${id}`)).status).toBe(204);
  });

  it('fires per company, retries a refused PagerDuty event with the same key, and never resends a Slack message a stopped sender claimed', async () => {
    clock = () => new Date();
    const before = requests.length;
    const id = await createAlert({
      name: 'Error rate',
      metric: 'error_rate',
      group_by: 'company_id',
      window_minutes: 60,
      condition: { type: 'static', operator: 'above', threshold: 50 },
      channels: { slack_urls: [`${base}/slack`], pagerduty_routing_keys: ['pdkey2pdkey2pdkey2pdkey2pdkey2p2'] },
    });
    // The run stops after recording the firing and claiming its Slack message (the state a kill leaves).
    const deps: AlertRunDeps = alertRunDeps(rt.stores, { index: rt.index, transport: rt.emailTransport, pagerDutyUrl: `${base}/pagerduty`, now: clock });
    const rule = { ...(await rt.management('GET', `/~/alerts/${id}`)).body, _id: id };
    const summary = emptySummary();
    await evaluateAlert(deps, { orgId: rt.credentials.org_id, appId: rt.credentials.app_id }, rule, summary, { force: false });
    expect(summary.fired).toBe(1);
    const tenant = { orgId: rt.credentials.org_id, appId: rt.credentials.app_id };
    const [open] = await rt.stores.alerts.openEvents(tenant, id);
    expect(open).toMatchObject({ series: 'acme', value: 100, kind: 'fired' });
    const slackKey = Object.keys(open!.channels).find((key) => key.startsWith('slack:'))!;
    expect(await rt.stores.alerts.setChannel(tenant, open!, slackKey, 'pending', { status: 'sending', attempts: 1, updated_at: clock().toISOString() })).toBe(
      true,
    );

    // The next run, past the stale-sending time: Slack is unconfirmed, never sent; PagerDuty is refused once, then sent with the same key.
    const afterStop = new Date(Date.now() + 11 * minute);
    clock = () => afterStop;
    failNext.set('/pagerduty', [503]);
    const retry = await rt.alerts.runOnce();
    expect(retry).toMatchObject({ fired: 0, failed: 1 });
    const second = await rt.alerts.runOnce();
    expect(second).toMatchObject({ fired: 0, delivered: 1 });
    const sent = requests.slice(before);
    expect(sent.filter((r) => r.path === '/slack')).toHaveLength(0);
    const pagerDuty = sent.filter((r) => r.path === '/pagerduty').map((r) => JSON.parse(r.body) as Record<string, any>);
    expect(pagerDuty).toHaveLength(2);
    expect(new Set(pagerDuty.map((e) => e.dedup_key)).size).toBe(1);
    expect(pagerDuty[0]!.payload.custom_details).toMatchObject({ series: 'acme', value: 100 });

    const [event] = await history(id);
    expect(event!.channels[slackKey]).toMatchObject({ status: 'unconfirmed', error: expect.stringContaining('may or may not have gone out') });
    expect(Object.entries(event!.channels).find(([key]) => key.startsWith('pagerduty:'))![1]).toMatchObject({ status: 'sent', attempts: 2 });
    expect(await rt.alerts.runOnce()).toMatchObject({ fired: 0, delivered: 0, failed: 0 });
  });

  it('counts late events by when they arrived, beyond the 5-minute threshold', async () => {
    clock = () => new Date();
    // Of the 30 calls sent at the start (1 to 30 minutes old), those 5 minutes old or more when received (26) were late.
    const id = await createAlert({
      name: 'Late events',
      metric: 'late_events',
      window_minutes: 60,
      condition: { type: 'static', operator: 'above', threshold: 20 },
      channels: { emails: ['billing@x.test'] },
    });
    const now = await rt.management('POST', `/~/alerts/${id}/evaluate`);
    expect(now.body).toMatchObject({ fired: 1, series: [{ series: '*', value: 26, threshold: 20, breaching: true }] });
    const preview = await rt.management(
      'POST',
      '/~/alerts/preview',
      {},
      { metric: 'late_events', window_minutes: 60, windows: 3, condition: { type: 'static', operator: 'above', threshold: 20 } },
    );
    expect(preview.body.points.map((p: { value: number }) => p.value)).toEqual([0, 0, 26]);
  });

  it('stops a rule whose reading outlasts its own budget, so the run goes on to the next', async () => {
    clock = () => new Date();
    const id = await createAlert({
      name: 'Budgeted',
      metric: 'count',
      window_minutes: 60,
      condition: { type: 'static', operator: 'above', threshold: 1 },
      channels: { emails: ['oncall@x.test'] },
    });
    const rule = { ...(await rt.management('GET', `/~/alerts/${id}`)).body, _id: id };
    const tenant = { orgId: rt.credentials.org_id, appId: rt.credentials.app_id };
    const deps = (ruleBudgetMs: number): AlertRunDeps => ({
      ...alertRunDeps(rt.stores, { index: rt.index, transport: rt.emailTransport, now: clock }),
      ruleBudgetMs,
    });
    await expect(evaluateAlert(deps(0), tenant, rule, emptySummary(), { force: true })).rejects.toMatchObject({ status: 504 });
    const summary = emptySummary();
    await evaluateAlert(deps(20_000), tenant, rule, summary, { force: true });
    expect(summary.fired).toBe(1);
  });

  it('runs now, previews the metric with its threshold, and refuses a bad rule naming the member', async () => {
    clock = () => new Date();
    const id = await createAlert({
      name: 'Slow',
      metric: 'p99_latency',
      window_minutes: 60,
      interval_minutes: 60,
      condition: { type: 'dynamic', operator: 'above', factor: 3, weeks: 2 },
      channels: { emails: ['oncall@x.test'] },
    });
    const now = await rt.management('POST', `/~/alerts/${id}/evaluate`);
    expect(now.status).toBe(200);
    // No past weeks to compare with: a value, no threshold, nothing fired.
    expect(now.body).toMatchObject({ fired: 0, series: [{ series: '*', value: 20, threshold: null, breaching: null }] });

    const preview = await rt.management(
      'POST',
      '/~/alerts/preview',
      {},
      {
        metric: 'count',
        group_by: 'company_id',
        series: 'acme',
        window_minutes: 30,
        windows: 4,
        condition: { type: 'static', operator: 'above', threshold: 5 },
      },
    );
    expect(preview.status).toBe(200);
    expect(preview.body.points).toHaveLength(4);
    expect(preview.body.points.reduce((sum: number, p: { value: number }) => sum + p.value, 0)).toBe(10);
    expect(preview.body.points.every((p: { threshold: number }) => p.threshold === 5)).toBe(true);

    const refused = async (body: Record<string, unknown>) => (await rt.management('POST', '/~/alerts', {}, body)).body.error.details;
    const valid = {
      name: 'x',
      state: 1,
      metric: 'count',
      window_minutes: 5,
      interval_minutes: 1,
      condition: { type: 'static', operator: 'above', threshold: 1 },
    };
    expect(await refused({ ...valid, channels: {} })).toEqual([{ field: 'channels', reason: expect.stringContaining('at least one') }]);
    expect(await refused({ ...valid, channels: { webhook_channel_ids: ['nope'] } })).toEqual([
      { field: 'channels.webhook_channel_ids[0]', reason: expect.any(String) },
    ]);
    expect(await refused({ ...valid, query: { nope: {} }, channels: { emails: ['a@x.test'] } })).toEqual([{ field: 'query', reason: expect.any(String) }]);
    // Checked on save as a search checks it: a range over virtual event type names is refused there too.
    expect(await refused({ ...valid, query: { range: { virtual_event_types: { gte: 'a' } } }, channels: { emails: ['a@x.test'] } })).toEqual([
      { field: 'query', reason: expect.stringContaining('virtual_event_types takes term') },
    ]);
    expect(await refused({ ...valid, metric: 'median', channels: { emails: ['a@x.test'] } })).toEqual([
      { field: 'metric', reason: expect.stringContaining('must be count') },
    ]);
    // Alerts have scopes of their own: a token without read:alerts is refused, naming it.
    const token = await rt.issueToken({ scopes: ['read:events'] });
    const listed = await rt.management('GET', '/~/alerts', { authorization: `Bearer ${token}` });
    expect(listed.status).toBe(401);
    expect(listed.body.error.message).toContain('read:alerts');
  });
});
