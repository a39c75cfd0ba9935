import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { messageIdOf, type EmailTransport, type OutgoingEmail, type SendOutcome } from './email-transport';

/**
 * The local transports, which compose MIME themselves (nodemailer): an SMTP server, or an outbox
 * folder of .eml files. The Lambdas send through SES (email-transport.ts) and do not bundle these.
 */

/**
 * The message as RFC 5322 bytes (nodemailer's composer, no network). `withBcc`: keep the Bcc header
 * (an outbox copy shows who was blind-copied; a message for anyone else must not carry it).
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
  if (code === 'ECONNECTION' || code === 'EDNS' || /ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(text))
    return { status: 'retrying', code: code ?? 'connection', message: text };
  return { status: 'unconfirmed', code: code ?? 'unknown', message: text };
}
