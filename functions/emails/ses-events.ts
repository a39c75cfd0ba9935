import type { SendKey, EmailSendStore, EmailTenant } from './email-send-store';

/**
 * Bounces and complaints SES reports after it accepted a message (its configuration set sends them
 * to EventBridge): the send is recorded as `bounced`, and an address that bounced for good or
 * complained gets no more email from the app (an unsubscribe from every template).
 *
 * SES knows which send a message was through the `send` message tag the transport sets: the org,
 * app, template, period and user, in base64url (tag values allow only a few characters).
 */

export const SEND_TAG = 'send';

export function sendTagValue(tenant: EmailTenant, key: SendKey): string {
  return Buffer.from(JSON.stringify({ o: tenant.orgId, a: tenant.appId, t: key.templateId, p: key.periodKey, u: key.userId }), 'utf8').toString('base64url');
}

export function sendOfTag(value: string): { tenant: EmailTenant; key: SendKey } | undefined {
  try {
    const { o, a, t, p, u } = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Record<string, unknown>;
    if ([o, a, t, p, u].every((part) => typeof part === 'string' && part !== ''))
      return { tenant: { orgId: o as string, appId: a as string }, key: { templateId: t as string, periodKey: p as string, userId: u as string } };
  } catch {
    // not one of ours
  }
  return undefined;
}

/** An EventBridge event from SES (detail-type "Email Bounced" or "Email Complained"). */
export interface SesEvent {
  readonly source?: string;
  readonly 'detail-type'?: string;
  readonly detail?: {
    readonly eventType?: string;
    readonly bounce?: {
      readonly bounceType?: string;
      readonly bounceSubType?: string;
      readonly bouncedRecipients?: readonly { readonly emailAddress?: string; readonly diagnosticCode?: string }[];
    };
    readonly complaint?: { readonly complainedRecipients?: readonly { readonly emailAddress?: string }[]; readonly complaintFeedbackType?: string };
    readonly mail?: { readonly tags?: Readonly<Record<string, readonly string[]>> };
  };
}

export type SesEventOutcome = 'recorded' | 'not-ours' | 'ignored';

export async function recordSesEvent(sends: EmailSendStore, event: SesEvent, now: Date): Promise<SesEventOutcome> {
  const detail = event.detail;
  const tag = detail?.mail?.tags?.[SEND_TAG]?.[0];
  const send = tag ? sendOfTag(tag) : undefined;
  if (!detail || !send) return 'not-ours';
  if (detail.eventType === 'Bounce' && detail.bounce) {
    const permanent = detail.bounce.bounceType === 'Permanent';
    const recipients = detail.bounce.bouncedRecipients ?? [];
    const reason =
      recipients.map((r) => r.diagnosticCode).find((code) => code) ??
      `${detail.bounce.bounceType ?? 'Unknown'} bounce (${detail.bounce.bounceSubType ?? 'no subtype'})`;
    await sends.markBounced(send.tenant, send.key, permanent ? 'bounce_permanent' : 'bounce_transient', reason, now);
    if (permanent) for (const r of recipients) if (r.emailAddress) await sends.unsubscribe(send.tenant, '*', r.emailAddress, now);
    return 'recorded';
  }
  if (detail.eventType === 'Complaint' && detail.complaint) {
    await sends.markBounced(
      send.tenant,
      send.key,
      'complaint',
      `The recipient marked the message as spam (${detail.complaint.complaintFeedbackType ?? 'no feedback type'})`,
      now,
    );
    for (const r of detail.complaint.complainedRecipients ?? []) if (r.emailAddress) await sends.unsubscribe(send.tenant, '*', r.emailAddress, now);
    return 'recorded';
  }
  return 'ignored';
}
