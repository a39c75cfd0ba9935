import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCall, send, uuid, type TestResponse } from './support/runtime';
import { freePort, startService, waitForProbe, waitUntilNoProcessMentions, type ServiceProcess } from './support/service-process';
import { startSmtpReceiver } from './support/smtp-receiver';

/**
 * `kill -9` of `npm start` while an alert's firing is being delivered: the Slack message is on the
 * wire when the process dies. After the restart nothing is sent twice — what went out before is
 * not sent again, the Slack message claimed before sending is held (never resent; after 10
 * minutes it is marked unconfirmed), what was not reached yet is sent once — and the resolve then
 * reaches every channel once.
 */
describe('an alert does not notify twice after kill -9 mid-delivery', () => {
  let dataDir: string;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let receiver: Server;
  const requests: { path: string; body: string }[] = [];
  let holdSlack = true;
  let slackHeld: () => void = () => {};
  const slackArrived = new Promise<void>((resolve) => (slackHeld = resolve));

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'uab-alert-kill-'));
    smtp = await startSmtpReceiver();
    receiver = createServer((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        requests.push({ path: request.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
        // The first Slack message never gets its answer: the sender dies waiting for it.
        if (request.url === '/slack' && holdSlack) {
          holdSlack = false;
          slackHeld();
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await smtp.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('sends each channel one firing and one resolve across the kill and the restart', async () => {
    const collectorPort = await freePort();
    const managementPort = await freePort();
    const collectorUrl = `http://127.0.0.1:${collectorPort}`;
    const env = { ALERT_INTERVAL_MS: '500', SMTP_URL: smtp.url, BILLING_INTERVAL_MS: '0', GOVERNANCE_REFRESH_MS: '0', EMAIL_INTERVAL_MS: '0' };
    const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const start = async (): Promise<ServiceProcess> => {
      const service = startService(dataDir, collectorPort, managementPort, env);
      await waitForProbe(collectorUrl, service);
      return service;
    };
    let service = await start();
    const credentials = JSON.parse(await readFile(join(dataDir, 'local.json'), 'utf8')) as {
      collector_application_id: string;
      management_url: string;
      management_token: string;
    };
    const management = (method: string, path: string, body?: unknown): Promise<TestResponse> =>
      send(`${credentials.management_url}${path}`, {
        method,
        headers: { authorization: `Bearer ${credentials.management_token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const history = async (id: string) =>
      (await management('GET', `/~/alerts/${id}/history`)).body as { events: { kind: string; channels: Record<string, { status: string }> }[] };
    const slackMessages = () => requests.filter((r) => r.path === '/slack');
    const webhookIds = () => new Set(requests.filter((r) => r.path === '/hooks').map((r) => (JSON.parse(r.body) as { id: string }).id));

    try {
      // Two minutes old: a scheduled evaluation's window ends at the last whole minute.
      const at = new Date(Date.now() - 2 * 60_000);
      const calls = Array.from({ length: 5 }, (_, i) =>
        apiCall({ transaction_id: uuid(9100 + i), response: { time: at.toISOString(), status: 500, headers: {} } }, at),
      );
      const sent = await send(`${collectorUrl}/v1/events/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-application-id': credentials.collector_application_id },
        body: JSON.stringify(calls),
      });
      expect(sent.status).toBe(201);
      for (let counted = 0; counted < 5; ) {
        counted = (await management('POST', '/search/~/count/events?from=-1h&to=now', {})).body.count as number;
        if (counted < 5) await new Promise((r) => setTimeout(r, 200));
      }
      const channel = await management('POST', '/~/billing/channels', { name: 'On-call hook', url: `${base}/hooks` });
      expect(channel.status).toBe(201);
      const created = await management('POST', '/~/alerts', {
        name: 'Errors',
        state: 1,
        metric: 'count',
        query: { range: { 'response.status': { gte: 500 } } },
        window_minutes: 60,
        interval_minutes: 60,
        condition: { type: 'static', operator: 'above', threshold: 2 },
        channels: { emails: ['oncall@x.test'], slack_urls: [`${base}/slack`], webhook_channel_ids: [channel.body._id] },
      });
      expect(created.status).toBe(201);
      const alertId = String(created.body._id);

      // The timer fires the alert: the email goes out, then the Slack message hangs, and the process dies.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        slackArrived,
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no Slack message after 30 s: ${JSON.stringify(requests)}, ${smtp.mails.length} mails\n${service.output()}`)),
            30_000,
          );
        }),
      ]).finally(() => clearTimeout(timer));
      service.child.kill('SIGKILL');
      expect(await service.exited).toBeNull();
      await waitUntilNoProcessMentions(dataDir);
      // The channels are worked through one at a time, in no set order: some may have been sent before the kill.
      const sentBefore = { mails: smtp.mails.length, webhooks: webhookIds().size };
      expect(sentBefore.mails).toBeLessThanOrEqual(1);

      service = await start();
      // The restarted timer finishes the firing: what was not sent yet goes once; the Slack message never again.
      for (let tries = 0; (webhookIds().size === 0 || smtp.mails.length === 0) && tries < 100; tries++) await new Promise((r) => setTimeout(r, 200));
      await new Promise((r) => setTimeout(r, 2_000));
      expect(webhookIds().size).toBe(1);
      expect(smtp.mails).toHaveLength(1);
      expect(slackMessages()).toHaveLength(1);
      const [fired] = (await history(alertId)).events;
      expect(fired).toMatchObject({ kind: 'fired' });
      expect(
        Object.values(fired!.channels)
          .map((outcome) => outcome.status)
          .sort(),
      ).toEqual(['sending', 'sent', 'sent']);

      // Back under the threshold: resolved, once on every channel.
      expect((await management('POST', `/~/alerts/${alertId}`, { condition: { type: 'static', operator: 'above', threshold: 100 } })).status).toBe(200);
      expect((await management('POST', `/~/alerts/${alertId}/evaluate`, {})).status).toBe(200);
      await new Promise((r) => setTimeout(r, 2_000));
      expect(slackMessages()).toHaveLength(2);
      expect(webhookIds().size).toBe(2);
      expect(smtp.mails.map((mail) => mail.subject?.split(' ')[0])).toEqual(['[Alert]', '[Resolved]']);
      expect((await history(alertId)).events.map((event) => event.kind)).toEqual(['resolved', 'fired']);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await waitUntilNoProcessMentions(dataDir);
  }, 180_000);
});
