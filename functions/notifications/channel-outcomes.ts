/**
 * Exactly one message per notification and channel, across retries, concurrent runs and crashes.
 * A notification (a cohort's changes, an alert firing or resolving) is stored with one outcome per
 * channel, changed only by a conditional write from the status it was read in:
 *
 *   resendable channels (signed webhooks, PagerDuty): pending | retrying → sent | retrying | failed.
 *     Sending again after an unknown outcome is safe: the receiver deduplicates by the
 *     notification's id (the webhook event id, PagerDuty's dedup_key).
 *   claimed channels (email, Slack): pending | retrying → sending (claimed before sending) → sent |
 *     retrying | failed | unconfirmed. A channel left `sending` by a sender that stopped may have
 *     gone out, so it becomes `unconfirmed` and is never sent again; one `sending` lately may be
 *     under way in another run, and is left to it.
 */

import type { ChannelOutcome, ChannelStatus } from '../../schemas/channel-outcome';

export type { ChannelOutcome, ChannelStatus };

/** What one attempt of a sender did. `unconfirmed`: the answer was lost (it may have gone out). */
export type SendResult = { readonly status: 'sent' } | { readonly status: 'retrying' | 'failed' | 'unconfirmed'; readonly error: string };

export interface ChannelSender {
  /** Whether the receiver deduplicates by the notification's id, so a resend is harmless. */
  readonly resendable: boolean;
  send(): Promise<SendResult>;
}

/** A sender, or why the channel cannot be sent to (it is then `failed`). */
export type SenderOrProblem = ChannelSender | { readonly problem: string };

export interface DeliveryTally {
  delivered: number;
  failed: number;
}

/** A channel `sending` for longer than this was left by a sender that stopped (a run lasts at most 10 minutes on AWS). */
export const STALE_SENDING_MS = 10 * 60_000;
/** Runs that try a channel refused for now before it is `failed`. */
export const MAX_CHANNEL_ATTEMPTS = 5;

const FINAL: ReadonlySet<ChannelStatus> = new Set(['sent', 'failed', 'unconfirmed']);
export const isFinal = (outcome: ChannelOutcome) => FINAL.has(outcome.status);

/**
 * Sends the notification to each channel without a final outcome, recording each step with
 * `setChannel` (a conditional write: false when another run changed the channel first, which then
 * owns it). Answers the outcomes as now known.
 */
export async function deliverToChannels(
  channels: Readonly<Record<string, ChannelOutcome>>,
  senderOf: (channel: string) => Promise<SenderOrProblem>,
  setChannel: (channel: string, from: ChannelStatus, next: ChannelOutcome) => Promise<boolean>,
  now: () => Date,
  tally: DeliveryTally,
): Promise<Record<string, ChannelOutcome>> {
  const outcomes: Record<string, ChannelOutcome> = { ...channels };
  for (const [channel, outcome] of Object.entries(channels)) {
    if (isFinal(outcome)) continue;
    const at = now().toISOString();
    const settle = async (next: Omit<ChannelOutcome, 'updated_at'>, from: ChannelStatus) => {
      const full = { ...next, updated_at: at };
      if (!(await setChannel(channel, from, full))) return;
      outcomes[channel] = full;
      if (full.status === 'sent') tally.delivered += 1;
      if (full.status === 'failed' || full.status === 'unconfirmed') tally.failed += 1;
    };
    if (outcome.status === 'sending') {
      if (Date.parse(at) - Date.parse(outcome.updated_at) < STALE_SENDING_MS) continue;
      await settle(
        { status: 'unconfirmed', attempts: outcome.attempts, error: 'the sender stopped while sending; it may or may not have gone out' },
        'sending',
      );
      continue;
    }
    const sender = await senderOf(channel);
    if ('problem' in sender) {
      await settle({ status: 'failed', attempts: outcome.attempts, error: sender.problem }, outcome.status);
      continue;
    }
    let from: ChannelStatus = outcome.status;
    if (!sender.resendable) {
      // Claimed before sending: a stop from here on leaves it `sending`, never sent twice.
      if (!(await setChannel(channel, from, { status: 'sending', attempts: outcome.attempts + 1, updated_at: at }))) continue;
      from = 'sending';
    }
    const attempts = outcome.attempts + 1;
    const result = await sender.send();
    if (result.status === 'sent') await settle({ status: 'sent', attempts }, from);
    else {
      // A resendable channel whose answer was lost is simply tried again.
      const status = result.status === 'unconfirmed' && sender.resendable ? 'retrying' : result.status;
      await settle({ status: status === 'retrying' && attempts >= MAX_CHANNEL_ATTEMPTS ? 'failed' : status, attempts, error: result.error }, from);
    }
  }
  return outcomes;
}

/** The starting outcome of each channel of a new notification. */
export function pendingChannels(channels: readonly string[], at: Date): Record<string, ChannelOutcome> {
  return Object.fromEntries(channels.map((channel) => [channel, { status: 'pending', attempts: 0, updated_at: at.toISOString() } satisfies ChannelOutcome]));
}
