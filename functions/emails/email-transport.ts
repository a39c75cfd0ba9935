import { createHash } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import nodemailer from 'nodemailer';

/**
 * Where behavioural emails go: Amazon SES v2 on AWS; locally an SMTP server (SMTP_URL) or, by
 * default, an outbox folder of .eml files so that nothing leaves the machine unasked.
 */

export interface OutgoingEmail {
  /** The send's key: the Message-ID and the outbox file are derived from it, so a resend is recognisable. */
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly cc: readonly string[];
  readonly bcc: readonly string[];
  readonly subject: string;
  readonly html: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Provider message tags (SES reports them back with bounces and complaints). */
  readonly tags?: Readonly<Record<string, string>>;
}

/**
 * What the transport did: `sent`; `retrying` (refused before it was accepted: safe to send again);
 * `failed` (refused for good); `unconfirmed` (the answer was lost: it may have gone out).
 */
export type SendOutcome =
  | { readonly status: 'sent'; readonly messageId: string }
  | { readonly status: 'retrying' | 'failed' | 'unconfirmed'; readonly code: string; readonly message: string };

export interface EmailTransport {
  readonly name: 'outbox' | 'smtp' | 'ses';
  send(email: OutgoingEmail): Promise<SendOutcome>;
  /** Whether a message of this id certainly went out (the outbox can tell; SMTP and SES cannot). */
  delivered?(id: string): Promise<boolean>;
}

/** A stable Message-ID per send: receivers and operators can match a resend to the first attempt. */
export const messageIdOf = (id: string) => `<${createHash('sha256').update(id).digest('hex').slice(0, 40)}@usage-analytics.local>`;

/**
 * The message as RFC 5322 bytes (nodemailer's composer, no network). `withBcc`: keep the Bcc header
 * (an outbox copy shows who was blind-copied; a message handed to SES must not carry it, SES takes
 * the blind copies from its Destination).
 */
export async function composeMessage(email: OutgoingEmail, options: { withBcc: boolean }): Promise<Buffer> {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await composer.sendMail(options.withBcc ? mailOptions(email) : mailOptions({ ...email, bcc: [] }));
  return info.message as Buffer;
}

function mailOptions(email: OutgoingEmail) {
  return {
    messageId: messageIdOf(email.id),
    from: email.from,
    to: email.to,
    ...(email.cc.length > 0 ? { cc: [...email.cc] } : {}),
    ...(email.bcc.length > 0 ? { bcc: [...email.bcc] } : {}),
    subject: email.subject,
    html: email.html,
    headers: { ...email.headers },
  };
}

/** Writes each message to `<dir>/<id>.eml` (written whole, then renamed into place). */
export function outboxTransport(dir: string): EmailTransport {
  const fileOf = (id: string) => join(dir, `${id.replace(/[^A-Za-z0-9._-]/g, '_')}.eml`);
  return {
    name: 'outbox',
    async send(email) {
      await mkdir(dir, { recursive: true });
      const file = fileOf(email.id);
      await writeFile(`${file}.partial`, await composeMessage(email, { withBcc: true }));
      await rename(`${file}.partial`, file);
      return { status: 'sent', messageId: file };
    },
    async delivered(id) {
      try {
        return (await stat(fileOf(id))).isFile();
      } catch {
        return false;
      }
    },
  };
}

/** An SMTP server (`smtp://user:pass@host:port`, `smtps://…`). */
export function smtpTransport(url: string): EmailTransport {
  const transport = nodemailer.createTransport(url);
  return {
    name: 'smtp',
    async send(email) {
      try {
        const info = await transport.sendMail(mailOptions(email));
        return { status: 'sent', messageId: String(info.messageId) };
      } catch (error) {
        return smtpFailure(error);
      }
    },
  };
}

/** SMTP answers: 5xx refuses for good, 4xx for now; a connection never made is safe to retry; a lost answer is not. */
export function smtpFailure(error: unknown): SendOutcome {
  const { responseCode, code, message } = (error ?? {}) as { responseCode?: number; code?: string; message?: string };
  const text = String(message ?? error).slice(0, 500);
  if (typeof responseCode === 'number' && responseCode >= 500) return { status: 'failed', code: `smtp_${responseCode}`, message: text };
  if (typeof responseCode === 'number' && responseCode >= 400) return { status: 'retrying', code: `smtp_${responseCode}`, message: text };
  if (code === 'ECONNECTION' || code === 'EDNS' || /ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(text)) return { status: 'retrying', code: code ?? 'connection', message: text };
  return { status: 'unconfirmed', code: code ?? 'unknown', message: text };
}

/** Amazon SES v2 (raw MIME, so headers such as List-Unsubscribe go as written). */
export function sesTransport(client: SESv2Client, configurationSet?: string): EmailTransport {
  return {
    name: 'ses',
    async send(email) {
      const raw = await composeMessage(email, { withBcc: false });
      try {
        const answer = await client.send(new SendEmailCommand({
          FromEmailAddress: email.from,
          Destination: { ToAddresses: [email.to], CcAddresses: [...email.cc], BccAddresses: [...email.bcc] },
          Content: { Raw: { Data: raw } },
          ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
          ...(email.tags ? { EmailTags: Object.entries(email.tags).map(([Name, Value]) => ({ Name, Value })) } : {}),
        }));
        return { status: 'sent', messageId: answer.MessageId ?? messageIdOf(email.id) };
      } catch (error) {
        return sesFailure(error);
      }
    },
  };
}

/** SES refusals (a rejected message, an unverified sender) are final; throttling and 5xx were not sent; anything else is unknown. */
export function sesFailure(error: unknown): SendOutcome {
  const { name, message, $metadata } = (error ?? {}) as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const text = String(message ?? error).slice(0, 500);
  const code = name ?? 'unknown';
  const status = $metadata?.httpStatusCode;
  if (['MessageRejected', 'MailFromDomainNotVerifiedException', 'AccountSuspendedException', 'SendingPausedException', 'BadRequestException', 'NotFoundException'].includes(code)) return { status: 'failed', code, message: text };
  if (code === 'TooManyRequestsException' || code === 'LimitExceededException' || (typeof status === 'number' && status >= 500)) return { status: 'retrying', code, message: text };
  return { status: 'unconfirmed', code, message: text };
}
