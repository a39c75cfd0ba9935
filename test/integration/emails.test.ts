import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { recordSesEvent, sendTagValue } from '../../functions/emails/ses-events';
import type { EmailSendRecord } from '../../schemas/resources/email-send';
import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/**
 * Behavioural emails against a real SMTP server started here (smtp-server): each active template
 * goes once per period to each member of its cohorts with an address, rendered with the member's
 * profile and dynamic fields; a crash mid-send never sends twice; unsubscribes are honoured; a
 * refusal is recorded; the test endpoint sends one message now.
 */
describe('behavioural emails over SMTP', () => {
  let rt: TestRuntime;
  let smtp: SMTPServer;
  const received: ParsedMail[] = [];
  const hour = 3_600_000;
  const day = 24 * hour;
  // The sender runs "as of" this clock: a day ahead, the day the events fall in is over.
  let clock = () => new Date(Date.now() + day);
  const faults: { beforeSend?: (record: EmailSendRecord) => void; afterSend?: (record: EmailSendRecord) => void } = {};
  const post = (path: string, body: unknown) => rt.management('POST', path, {}, body);
  const to = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address));
  const mailsTo = (address: string) => received.filter((mail) => to(mail).includes(address));
  /** A header as sent (mailparser parses List-* headers into objects). */
  const header = (mail: ParsedMail, name: string) =>
    mail.headerLines
      .find((line) => line.key === name)
      ?.line.replace(/^[^:]+:\s*/, '')
      .replace(/\r?\n\s+/g, '');
  let usage: { _id: string };
  let welcome: { _id: string };

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onRcptTo(address, _session, callback) {
        if (address.address === 'bounce@x.test') return callback(Object.assign(new Error('5.1.1 No such mailbox'), { responseCode: 550 }));
        callback();
      },
      onData(stream, _session, callback) {
        simpleParser(stream).then((mail) => {
          received.push(mail);
          callback();
        }, callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    rt = await startTestRuntime('emails', {
      email: {
        smtpUrl: `smtp://127.0.0.1:${port}`,
        intervalMs: 0,
        settings: { staleClaimMs: 0, concurrency: 1 },
        now: () => clock(),
        hooks: { beforeSend: (r) => faults.beforeSend?.(r), afterSend: (r) => faults.afterSend?.(r) },
      },
    });
    const users = [
      { user_id: 'u1', metadata: { email: 'ann@x.test', name: 'Ann <b>Bold</b>', first_name: 'Ann' } },
      { user_id: 'u2', metadata: { email: 'bob@x.test', first_name: 'Bob' } },
      { user_id: 'u3', metadata: { first_name: 'No address' } },
      { user_id: 'u5', metadata: { email: 'bounce@x.test', first_name: 'Gone' } },
      { user_id: 'u4', company_id: 'acme', metadata: { email: 'dee@acme.test', first_name: 'Dee' } },
    ];
    for (const user of users) expect((await rt.collect('/v1/users', user)).status).toBe(201);
    const at = new Date(Date.now() - 10_000);
    const call = (n: number, userId: string, route: string, companyId?: string) =>
      apiCall(
        {
          transaction_id: uuid(n),
          user_id: userId,
          ...(companyId ? { company_id: companyId } : {}),
          request: { time: at.toISOString(), uri: `https://api.example.com${route}`, verb: 'GET', headers: {} },
          response: { time: new Date(at.getTime() + 100).toISOString(), status: 200, headers: {} },
        },
        at,
      );
    const events = [
      call(1, 'u1', '/orders'),
      call(2, 'u1', '/orders'),
      call(3, 'u1', '/items'),
      call(4, 'u2', '/items'),
      call(5, 'u4', '/reports', 'acme'),
      call(6, 'u4', '/reports', 'acme'),
    ];
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed();

    const people = (await post('/~/cohorts', { cohort_name: 'People', cohort_type: 'user', criteria: { terms: { 'user_id.raw': ['u1', 'u2', 'u3', 'u5'] } } }))
      .body;
    const acme = (await post('/~/cohorts', { cohort_name: 'Acme', cohort_type: 'company', criteria: { term: { 'company_id.raw': 'acme' } } })).body;
    await rt.collect('/v1/companies', { company_id: 'acme', metadata: { name: 'Acme' } });
    await rt.waitUntilConsumed();
    const template = (name: string, cohorts: unknown[], html: string, extra: Record<string, unknown>) =>
      post('/~/emails/templates', {
        name,
        state: 1,
        addresses: { from: 'reports@service.test', cc: [], bcc: [] },
        cohorts,
        template: { subject: 'Your usage, {{user.metadata.first_name}}', editor: 'html', design: {} },
        content: { html, chunks: {} },
        ...extra,
      });
    usage = (
      await template(
        'Daily usage',
        [{ id: people._id, type: 'user' }],
        '<p>Hi {{user.metadata.name}}</p><p>calls: {{calls}}</p><p>avg: {{avg_ms}} ms</p><p>routes: {{routes}}</p><a href="{{unsubscribe_url}}">stop</a>',
        {
          period: '1d',
          dynamic_fields: [
            { token: 'calls', field: 'weight', aggregator: 'sum' },
            { token: 'avg_ms', field: 'duration_ms', aggregator: 'avg' },
            { token: 'routes', field: 'request.route.raw', aggregator: 'terms' },
          ],
        },
      )
    ).body;
    welcome = (
      await template('Welcome', [{ id: acme._id, type: 'company' }], '<p>Your team made {{calls}} calls.</p>', {
        dynamic_fields: [{ token: 'calls', field: 'weight', aggregator: 'sum' }],
      })
    ).body;
    expect(typeof usage._id).toBe('string');
    expect(typeof welcome._id).toBe('string');
  }, 120_000);

  afterAll(async () => {
    await rt?.dispose();
    await new Promise<void>((resolve) => (smtp ? smtp.close(resolve) : resolve()));
  });

  const sends = async (templateId: string) => (await rt.management('GET', `/~/emails/templates/${templateId}/sends?take=100`)).body as EmailSendRecord[];

  it('sends each member one message rendered with its profile and its events, and none twice after a crash mid-send', async () => {
    // The first run stops right after Ann's message was accepted and before it was recorded.
    faults.afterSend = (record) => {
      if (record.user_id === 'u1') {
        faults.afterSend = undefined;
        throw new Error('simulated crash after the SMTP server accepted the message');
      }
    };
    const first = await rt.emails.runOnce();
    expect(first.problems.map((p) => p.message)).toContain('simulated crash after the SMTP server accepted the message');
    // The next runs settle what the crash left and send the rest, never Ann's again.
    await rt.emails.runOnce();
    const third = await rt.emails.runOnce();
    expect(third.sent).toBe(0);
    // Everyone is settled for the period: read in one query and skipped, nobody claimed again.
    expect(third).toMatchObject({ recipients: 4, alreadyDone: 4, unconfirmed: 0, failed: 0 });

    expect(mailsTo('ann@x.test')).toHaveLength(1);
    expect(mailsTo('bob@x.test')).toHaveLength(1);
    expect(mailsTo('dee@acme.test')).toHaveLength(1);
    expect(received.filter((mail) => to(mail).some((a) => a === 'bounce@x.test'))).toHaveLength(0);

    const ann = mailsTo('ann@x.test')[0]!;
    expect(ann.subject).toBe('Your usage, Ann');
    expect(ann.from?.value[0]?.address).toBe('reports@service.test');
    expect(ann.html).toContain('Hi Ann &lt;b&gt;Bold&lt;/b&gt;');
    expect(ann.html).toContain('calls: 3');
    expect(ann.html).toContain('avg: 100 ms');
    expect(ann.html).toMatch(/routes: \/orders, \/items/);
    expect(ann.html).toMatch(/href="http:\/\/127\.0\.0\.1:\d+\/console\/unsubscribe\/us1\./);
    expect(header(ann, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(header(ann, 'list-unsubscribe')).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/public\/emails\/unsubscribe\/us1\.[^>]+>$/);
    expect(mailsTo('bob@x.test')[0]!.html).toContain('calls: 1');
    // A company cohort's member: its users with an address, filled with the company's events; a footer link added.
    const dee = mailsTo('dee@acme.test')[0]!;
    expect(dee.html).toContain('Your team made 2 calls.');
    expect(dee.html).toMatch(/\/console\/unsubscribe\/us1\./);

    const log = await sends(usage._id);
    const byUser = Object.fromEntries(log.map((r) => [r.user_id, r]));
    expect(Object.keys(byUser).sort()).toEqual(['u1', 'u2', 'u5']);
    expect(byUser['u1']).toMatchObject({ status: 'unconfirmed', error_code: 'sender_stopped', to: 'ann@x.test', period_key: expect.stringMatching(/\/1d$/) });
    expect(byUser['u2']).toMatchObject({ status: 'sent', subject: 'Your usage, Bob', message_id: expect.any(String) });
    expect(byUser['u5']).toMatchObject({ status: 'failed', error_code: 'smtp_550' });
    expect((await sends(welcome._id)).map((r) => [r.user_id, r.status, r.period_key])).toEqual([['u4', 'sent', 'once']]);
    expect((await rt.management('GET', `/~/emails/templates/${usage._id}/sends?status=sent`)).body.map((r: EmailSendRecord) => r.user_id)).toEqual(['u2']);
  }, 60_000);

  it('never sends a message whose sender stopped before sending it, and sends the next period', async () => {
    clock = () => new Date(Date.now() + 2 * day);
    faults.beforeSend = (record) => {
      if (record.user_id === 'u2') {
        faults.beforeSend = undefined;
        throw new Error('simulated crash before sending');
      }
    };
    const before = received.length;
    await rt.emails.runOnce();
    await rt.emails.runOnce();
    const nextDay = new Date(Math.floor((Date.now() + day) / day) * day).toISOString();
    const next = (await sends(usage._id)).filter((r) => r.period_start === nextDay);
    expect(Object.fromEntries(next.map((r) => [r.user_id, r.status]))).toEqual({ u1: 'sent', u2: 'unconfirmed', u5: 'failed' });
    expect(received.slice(before).flatMap(to).sort()).toEqual(['ann@x.test']);
  }, 60_000);

  it('honours one-click unsubscribes from a template, and unsubscribes from every email', async () => {
    const link = header(mailsTo('ann@x.test')[0]!, 'list-unsubscribe')!.replace(/^<|>$/g, '');
    expect(link).toMatch(/\/public\/emails\/unsubscribe\/us1\./);
    const oneClick = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.json()).toMatchObject({ email: 'ann@x.test', unsubscribed: 'template' });
    const shown = await fetch(link);
    expect(await shown.json()).toMatchObject({ email: 'ann@x.test', template_name: 'Daily usage', unsubscribed_from_template: true });
    // A forged link (another address under the same signature) is refused.
    const [prefix, claims, signature] = decodeURIComponent(link.split('/').pop()!).split('.') as [string, string, string];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')), email: 'bob@x.test' })).toString('base64url');
    expect((await fetch(link.replace(/[^/]+$/, encodeURIComponent(`${prefix}.${forged}.${signature}`)), { method: 'POST' })).status).toBe(401);

    // Dee leaves every email of the app through her link's "all" choice.
    const deeLink = header(mailsTo('dee@acme.test')[0]!, 'list-unsubscribe')!.replace(/^<|>$/g, '');
    const all = await fetch(deeLink, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ all: true }) });
    expect(await all.json()).toMatchObject({ email: 'dee@acme.test', unsubscribed: 'all' });

    clock = () => new Date(Date.now() + 3 * day);
    const before = received.length;
    const run = await rt.emails.runOnce();
    expect(run.suppressed).toBe(1);
    expect(received.slice(before).flatMap(to).sort()).toEqual(['bob@x.test']);
  }, 60_000);

  it("sends a test message to one address now, with sample values or a user's own", async () => {
    const sample = await post(`/~/emails/templates/${usage._id}/test`, { to: 'ops@service.test' });
    expect(sample.status).toBe(200);
    expect(sample.body).toMatchObject({ status: 'sent', transport: 'smtp', subject: '[Test] Your usage, Sample' });
    const asAnn = await post(`/~/emails/templates/${usage._id}/test`, { to: 'ops@service.test', user_id: 'u1' });
    expect(asAnn.body).toMatchObject({ status: 'sent', subject: '[Test] Your usage, Ann' });
    const tests = mailsTo('ops@service.test');
    expect(tests).toHaveLength(2);
    expect(tests[0]!.html).toContain('calls: [calls]');
    expect((await post(`/~/emails/templates/${usage._id}/test`, { to: 'not an address' })).body.error.details[0].field).toBe('to');
    expect((await post(`/~/emails/templates/${usage._id}/test`, { to: 'ops@service.test', user_id: 'nobody' })).body.error.details[0].field).toBe('user_id');
  }, 30_000);

  it('records a bounce or complaint SES reports later, and mails the address no more', async () => {
    const tenant = { orgId: rt.credentials.org_id, appId: rt.credentials.app_id };
    const bob = (await sends(usage._id)).find((r) => r.user_id === 'u2' && r.status === 'sent')!;
    const key = { templateId: bob.template_id, periodKey: bob.period_key, userId: bob.user_id };
    const event = {
      source: 'aws.ses',
      'detail-type': 'Email Bounced',
      detail: {
        eventType: 'Bounce',
        bounce: {
          bounceType: 'Permanent',
          bounceSubType: 'General',
          bouncedRecipients: [{ emailAddress: 'bob@x.test', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
        },
        mail: { tags: { send: [sendTagValue(tenant, key)] } },
      },
    };
    expect(await recordSesEvent(rt.stores.emailSends, event, new Date())).toBe('recorded');
    expect(
      await recordSesEvent(rt.stores.emailSends, { source: 'aws.ses', detail: { eventType: 'Bounce', mail: { tags: { send: ['not ours'] } } } }, new Date()),
    ).toBe('not-ours');
    const after = (await sends(usage._id)).find((r) => r._id === bob._id)!;
    expect(after).toMatchObject({ status: 'bounced', error_code: 'bounce_permanent', error_message: 'smtp; 550 5.1.1 user unknown' });
    expect(await rt.stores.emailSends.isSuppressed(tenant, 'any-template', 'BOB@x.test')).toBe(true);
  });

  it('refuses a template that does not compile, naming the member', async () => {
    const answer = await post('/~/emails/templates', {
      name: 'Broken',
      state: 0,
      addresses: { from: 'a@service.test', cc: [], bcc: [] },
      cohorts: [],
      template: { subject: 'ok', editor: 'html', design: {} },
      content: { html: '<p>{{#if}}</p>', chunks: {} },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details[0].field).toBe('content.html');
  });
});
