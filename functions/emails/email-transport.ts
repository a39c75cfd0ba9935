import { createHash } from 'node:crypto';
import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';

/**
 * Where behavioural emails go: Amazon SES v2 on AWS (here); locally an SMTP server (SMTP_URL) or, by
 * default, an outbox folder of .eml files so that nothing leaves the machine unasked
 * (mime-transports.ts, which the Lambdas do not bundle).
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
 * Amazon SES v2, with SES's own MIME (Simple content): the subject and HTML body, and our headers
 * (List-Unsubscribe) as SES message headers. SES sets the Message-ID itself (its MessageId is
 * recorded); message tags name the send for its bounce and complaint events.
 */
export function sesTransport(client: SESv2Client, configurationSet?: string): EmailTransport {
  return {
    name: 'ses',
    async send(email) {
      try {
        const answer = await client.send(
          new SendEmailCommand({
            FromEmailAddress: email.from,
            Destination: { ToAddresses: [email.to], CcAddresses: [...email.cc], BccAddresses: [...email.bcc] },
            Content: {
              Simple: {
                Subject: { Data: email.subject, Charset: 'UTF-8' },
                Body: { Html: { Data: email.html, Charset: 'UTF-8' } },
                Headers: Object.entries(email.headers).map(([Name, Value]) => ({ Name, Value })),
              },
            },
            ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
            ...(email.tags ? { EmailTags: Object.entries(email.tags).map(([Name, Value]) => ({ Name, Value })) } : {}),
          }),
        );
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
  if (
    [
      'MessageRejected',
      'MailFromDomainNotVerifiedException',
      'AccountSuspendedException',
      'SendingPausedException',
      'BadRequestException',
      'NotFoundException',
    ].includes(code)
  )
    return { status: 'failed', code, message: text };
  if (code === 'TooManyRequestsException' || code === 'LimitExceededException' || (typeof status === 'number' && status >= 500))
    return { status: 'retrying', code, message: text };
  return { status: 'unconfirmed', code, message: text };
}
