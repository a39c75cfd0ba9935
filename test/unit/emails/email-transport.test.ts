import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messageIdOf, sesFailure } from '../../../functions/emails/email-transport';
import { composeMessage, outboxTransport, smtpFailure } from '../../../functions/emails/mime-transports';
import { sendOfTag, sendTagValue } from '../../../functions/emails/ses-events';

const email = {
  id: 't1/2026-11-24T00:00:00.000Z/1d/u1',
  from: 'reports@service.test',
  to: 'ann@x.test',
  cc: [],
  bcc: ['audit@service.test'],
  subject: 'Ünïcode usage',
  html: '<p>3 calls</p>',
  headers: { 'List-Unsubscribe': '<https://x.test/u>' },
};

describe('email transports', () => {
  it('compose one RFC 5322 message with a stable Message-ID, the headers given, and no Bcc header', async () => {
    const text = (await composeMessage(email, { withBcc: false })).toString('utf8');
    expect(text).toMatch(new RegExp(`^Message-ID:\\s+${messageIdOf(email.id)}`, 'm'));
    expect(text).toContain('List-Unsubscribe: <https://x.test/u>');
    expect(text).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(text).not.toMatch(/^Bcc:/im);
    expect(messageIdOf(email.id)).toBe(messageIdOf(email.id));
    // The outbox's copy shows who was blind-copied.
    expect((await composeMessage(email, { withBcc: true })).toString('utf8')).toMatch(/^Bcc: audit@service.test$/m);
  });

  it('writes the outbox file whole, and knows afterwards that it was sent', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'outbox-'));
    try {
      const outbox = outboxTransport(dir);
      expect(await outbox.delivered!(email.id)).toBe(false);
      const sent = await outbox.send(email);
      expect(sent.status).toBe('sent');
      expect(await outbox.delivered!(email.id)).toBe(true);
      expect(await readFile((sent as { messageId: string }).messageId, 'utf8')).toContain('3 calls');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('tells a final refusal from one for now, and both from a lost answer (SMTP)', () => {
    expect(smtpFailure({ responseCode: 550, message: 'No such mailbox' })).toMatchObject({ status: 'failed', code: 'smtp_550' });
    expect(smtpFailure({ responseCode: 451, message: 'Try later' })).toMatchObject({ status: 'retrying', code: 'smtp_451' });
    expect(smtpFailure({ code: 'ECONNECTION', message: 'connect ECONNREFUSED 127.0.0.1:25' })).toMatchObject({ status: 'retrying' });
    expect(smtpFailure({ code: 'ETIMEDOUT', message: 'Timeout' })).toMatchObject({ status: 'unconfirmed' });
  });

  it('tells a final refusal from one for now, and both from a lost answer (SES)', () => {
    expect(sesFailure({ name: 'MessageRejected', message: 'Email address is not verified' })).toMatchObject({ status: 'failed', code: 'MessageRejected' });
    expect(sesFailure({ name: 'TooManyRequestsException', message: 'slow down' })).toMatchObject({ status: 'retrying' });
    expect(sesFailure({ name: 'InternalFailure', $metadata: { httpStatusCode: 500 } })).toMatchObject({ status: 'retrying' });
    expect(sesFailure({ name: 'TimeoutError', message: 'socket hang up' })).toMatchObject({ status: 'unconfirmed' });
  });

  it('names the send in a message tag SES can report back, in the characters tags allow', () => {
    const tenant = { orgId: 'org_1', appId: 'app_1' };
    const key = { templateId: 't1', periodKey: '2026-11-24T00:00:00.000Z/1d', userId: 'user#7 ü' };
    const tag = sendTagValue(tenant, key);
    expect(tag).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(tag.length).toBeLessThanOrEqual(256);
    expect(sendOfTag(tag)).toEqual({ tenant, key });
    expect(sendOfTag('garbage')).toBeUndefined();
  });
});
