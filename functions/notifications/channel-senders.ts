import type { DeliveryChannel } from '../billing/channels/channel-delivery';
import { sendHttp, type FetchLike } from '../billing/providers/attempts';
import { webhookTransport, type ClientOptions } from '../billing/providers/client-options';
import { ForbiddenTargetError } from '../billing/providers/guarded-fetch';
import { sendWebhookBatch } from '../billing/run/webhook-batch';
import type { EmailTransport } from '../emails/email-transport';
import type { ChannelSender, SenderOrProblem, SendResult } from './channel-outcomes';
import { slackUrlProblem } from './slack-target';

/** The senders of each kind of channel a notification may go to (channel-outcomes.ts says which are resendable). */

/** An email: claimed before sending (SMTP and SES cannot tell a resend from a new message). */
export function emailSender(
  transport: EmailTransport,
  from: string | undefined,
  message: { id: string; to: string; subject: string; html: string },
): SenderOrProblem {
  if (!from) return { problem: 'no sender address is configured for notification emails' };
  return {
    resendable: false,
    async send() {
      const sent = await transport.send({ id: message.id, from, to: message.to, cc: [], bcc: [], subject: message.subject, html: message.html, headers: {} });
      return sent.status === 'sent' ? { status: 'sent' } : { status: sent.status, error: `${sent.code}: ${sent.message}` };
    },
  };
}

/** A signed webhook of a billing channel, with the notification's id as event id: receivers deduplicate by it. */
export function webhookSender(channel: DeliveryChannel | undefined, channelId: string, id: string, body: unknown, options?: ClientOptions): SenderOrProblem {
  if (channel?.status !== 'active') return { problem: `webhook channel ${channelId} does not exist or is inactive` };
  return {
    resendable: true,
    async send() {
      const result = await sendWebhookBatch(channel, { items: [], id, body: Buffer.from(JSON.stringify(body), 'utf8') }, options);
      const last = result.requests[result.requests.length - 1];
      return result.success ? { status: 'sent' } : { status: 'retrying', error: `${last?.error_code ?? 'error'}: ${last?.error_message ?? ''}`.trim() };
    },
  };
}

const TIMEOUT_MS = 10_000;

/**
 * One JSON POST: 2xx sent; 429 and 5xx retrying; other answers and a target the policy refuses
 * failed; no answer `unconfirmed` (it may have arrived).
 */
async function postJson(fetchFn: FetchLike, url: string, body: unknown): Promise<SendResult> {
  let status: number;
  let text: string;
  try {
    ({ status, text } = await sendHttp(
      fetchFn,
      url,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      TIMEOUT_MS,
    ));
  } catch (error) {
    // Refused by the target policy before anything was sent: it never arrived, and never will.
    if (error instanceof ForbiddenTargetError) return { status: 'failed', error: error.message };
    return { status: 'unconfirmed', error: `no answer: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (status >= 200 && status < 300) return { status: 'sent' };
  const error = `HTTP ${status}: ${text.slice(0, 200)}`;
  return status === 429 || status >= 500 ? { status: 'retrying', error } : { status: 'failed', error };
}

/** A Slack incoming webhook (`https://hooks.slack.com/services/…`): claimed before sending, since Slack posts every request it gets. */
export function slackSender(url: string, text: string, options?: ClientOptions): SenderOrProblem {
  // Checked again at send: a rule saved before the check, or under another policy, is refused here.
  const problem = slackUrlProblem(url, options);
  if (problem !== undefined) return { problem: `the Slack URL ${problem}` };
  const fetchFn = webhookTransport(options);
  return { resendable: false, send: () => postJson(fetchFn, url, { text }) };
}

/** PagerDuty's Events API v2; a trigger or resolve with the same dedup_key is applied once. */
export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';

export interface PagerDutyEvent {
  readonly routing_key: string;
  readonly event_action: 'trigger' | 'resolve';
  readonly dedup_key: string;
  readonly payload?: { summary: string; source: string; severity: 'critical' | 'error' | 'warning' | 'info'; custom_details?: Record<string, unknown> };
}

export function pagerDutySender(event: PagerDutyEvent, url: string = PAGERDUTY_EVENTS_URL, options?: ClientOptions): ChannelSender {
  const fetchFn = webhookTransport(options);
  return { resendable: true, send: () => postJson(fetchFn, url, event) };
}
