import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ParsedMail } from 'mailparser';
import { EVENT_ID_HEADER } from '../../functions/billing/providers/webhook-client';
import { SIGNATURE_HEADER, verifyWebhook } from '../../functions/billing/providers/webhook-signature';
import { startTestRuntime, type TestRuntime } from './support/runtime';
import { startSmtpReceiver } from './support/smtp-receiver';

/**
 * Cohort notifications with a real webhook receiver and a real SMTP server: members entering and
 * leaving a cohort whose rule asks for it are sent to the cohort's channels (a signed webhook, an
 * email), each change once, at most once per the rule's period.
 */
describe('cohort notifications', () => {
  let rt: TestRuntime;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>> | undefined;
  let receiver: Server;
  let mails: ParsedMail[] = [];
  const hooks: { body: string; headers: IncomingMessage['headers'] }[] = [];
  let secret = '';
  let clock = () => new Date();
  const hour = 3_600_000;

  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  const events = () =>
    hooks.map(
      (hook) =>
        JSON.parse(hook.body) as {
          id: string;
          type: string;
          data: { cohort: { name: string }; added: { id: string; fields: Record<string, unknown> }[]; removed: { id: string }[] };
        },
    );
  const upsert = async (user: Record<string, unknown>) => {
    expect((await rt.collect('/v1/users', user)).status).toBe(201);
    await rt.waitUntilConsumed();
  };

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    mails = smtp.mails;
    receiver = createServer((request, response) => {
      void read(request).then((body) => {
        hooks.push({ body, headers: request.headers });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    rt = await startTestRuntime('cohort-notifications', {
      email: { smtpUrl: smtp.url, intervalMs: 0 },
      cohortNotifications: { intervalMs: 0, emailFrom: 'alerts@service.test', now: () => clock() },
    });
    const channel = await rt.management(
      'POST',
      '/~/billing/channels',
      {},
      { name: 'CRM', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks` },
    );
    expect(channel.status).toBe(201);
    secret = channel.body.secret;
    await upsert({ user_id: 'ann', metadata: { plan: 'pro', email: 'ann@x.test' } });
    await upsert({ user_id: 'bob', metadata: { plan: 'free', email: 'bob@x.test' } });
    const cohort = await rt.management(
      'POST',
      '/~/cohorts',
      {},
      {
        cohort_name: 'Pro users',
        cohort_type: 'user',
        criteria: { term: { 'metadata.plan.raw': 'pro' } },
        channels: [channel.body._id, 'sales@x.test'],
        notification_rule: { send_on_addition: true, send_on_removal: true, period: '1h', fields: ['metadata.email', 'user.metadata.plan'] },
      },
    );
    expect(cohort.status).toBe(201);
    // A cohort that asks for nothing is not watched.
    await rt.management(
      'POST',
      '/~/cohorts',
      {},
      {
        cohort_name: 'Quiet',
        cohort_type: 'user',
        criteria: { match_all: {} },
        channels: ['sales@x.test'],
        notification_rule: { send_on_addition: false, send_on_removal: false },
      },
    );
  }, 120_000);

  afterAll(async () => {
    await rt?.dispose();
    await smtp?.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  });

  it('takes the first look without telling anyone, then sends who joined to every channel, once', async () => {
    const first = await rt.cohortNotifications.runOnce();
    expect(first).toMatchObject({ cohorts: 1, added: 0, notifications: 0 });
    expect(hooks).toHaveLength(0);

    await upsert({ user_id: 'bob', metadata: { plan: 'pro', email: 'bob@x.test' } });
    const second = await rt.cohortNotifications.runOnce();
    expect(second).toMatchObject({ added: 1, removed: 0, notifications: 1, delivered: 2, failed: 0 });
    expect(events()).toEqual([
      expect.objectContaining({
        type: 'cohort.members_changed',
        data: expect.objectContaining({
          cohort: expect.objectContaining({ name: 'Pro users' }),
          added: [expect.objectContaining({ id: 'bob', fields: { 'metadata.email': 'bob@x.test', 'user.metadata.plan': 'pro' } })],
          removed: [],
        }),
      }),
    ]);
    const [hook] = hooks;
    expect(verifyWebhook(hook!.body, hook!.headers[SIGNATURE_HEADER] as string, secret, Math.floor(Date.now() / 1000))).toMatchObject({ valid: true });
    expect(hook!.headers[EVENT_ID_HEADER]).toBe(events()[0]!.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Cohort “Pro users”: 1 joined, 0 left');
    expect(mails[0]!.html).toContain('<td>bob</td><td>bob@x.test</td><td>pro</td>');

    // Nothing changed: nothing is sent again.
    expect(await rt.cohortNotifications.runOnce()).toMatchObject({ added: 0, removed: 0, notifications: 0 });
    expect(hooks).toHaveLength(1);
  });

  it("holds changes until the rule's period has passed, then sends them together", async () => {
    await upsert({ user_id: 'ann', metadata: { plan: 'free', email: 'ann@x.test' } });
    await upsert({ user_id: 'cy', metadata: { plan: 'pro', email: 'cy@x.test' } });
    const early = await rt.cohortNotifications.runOnce();
    expect(early).toMatchObject({ added: 1, removed: 1, notifications: 0 });
    expect(hooks).toHaveLength(1);

    clock = () => new Date(Date.now() + hour + 60_000);
    const later = await rt.cohortNotifications.runOnce();
    expect(later).toMatchObject({ added: 0, removed: 0, notifications: 1, delivered: 2 });
    const last = events().at(-1)!;
    expect(last.data.added.map((m) => m.id)).toEqual(['cy']);
    expect(last.data.removed.map((m) => m.id)).toEqual(['ann']);
    expect(mails.at(-1)!.subject).toBe('Cohort “Pro users”: 1 joined, 1 left');
  });

  it('finishes a notification a stopped sender left, resending the webhook (same id) but never the email', async () => {
    const tenant = { orgId: rt.credentials.org_id, appId: rt.credentials.app_id };
    const cohorts = (await rt.management('GET', '/~/cohorts')).body as { _id: string; cohort_name: string }[];
    const cohortId = cohorts.find((c) => c.cohort_name === 'Pro users')!._id;
    await upsert({ user_id: 'dee', metadata: { plan: 'pro', email: 'dee@x.test' } });
    clock = () => new Date(Date.now() + 3 * hour);
    // A sender that claimed the notification and stopped while its email was going out.
    const watched = await rt.cohortNotifications.runOnce();
    expect(watched.notifications).toBe(1);
    const [pendingChange] = await rt.stores.cohortWatch.pendingChanges(tenant, cohortId);
    expect(pendingChange).toBeUndefined();
    const before = { hooks: hooks.length, mails: mails.length };
    const stopped = await rt.stores.cohortWatch.claimBatch(
      tenant,
      cohortId,
      'cohort_stopped_sender',
      [],
      ['sales@x.test', (await rt.management('GET', '/~/billing/channels')).body[0]._id],
      new Date(),
    );
    expect(
      await rt.stores.cohortWatch.setChannel(tenant, stopped, 'sales@x.test', 'pending', {
        status: 'sending',
        attempts: 1,
        updated_at: new Date().toISOString(),
      }),
    ).toBe(true);
    // And one whose email another run is sending right now: left to that run.
    const busy = await rt.stores.cohortWatch.claimBatch(tenant, cohortId, 'cohort_busy_sender', [], ['sales@x.test'], new Date());
    expect(
      await rt.stores.cohortWatch.setChannel(tenant, busy, 'sales@x.test', 'pending', { status: 'sending', attempts: 1, updated_at: clock().toISOString() }),
    ).toBe(true);
    const recovery = await rt.cohortNotifications.runOnce();
    expect(recovery).toMatchObject({ delivered: 1, failed: 1 });
    expect(mails.length).toBe(before.mails);
    expect(hooks.length).toBe(before.hooks + 1);
    expect(events().at(-1)!.id).toBe('cohort_stopped_sender');
    const closed = await rt.stores.cohortWatch.batch(tenant, stopped.sk);
    expect(closed).toMatchObject({ status: 'done', channels: { 'sales@x.test': { status: 'unconfirmed' } } });
    expect(await rt.stores.cohortWatch.batch(tenant, busy.sk)).toMatchObject({ status: 'open', channels: { 'sales@x.test': { status: 'sending' } } });
  });

  it('refuses a rule whose period is not a count and a unit', async () => {
    const answer = await rt.management(
      'POST',
      '/~/cohorts',
      {},
      {
        cohort_name: 'Bad',
        cohort_type: 'user',
        criteria: { match_all: {} },
        notification_rule: { send_on_addition: true, send_on_removal: false, period: 'hourly' },
      },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.details[0].field).toBe('notification_rule.period');
  });
});
