import { createHash } from 'node:crypto';
import type { WebhookParams } from '../../../schemas/billing/provider-params';
import { channelFetch, type DeliveryChannel } from '../channels/channel-delivery';
import { classifyFailureStatus, recordedHttp, RequestLog, runAttempts, type AttemptResult, type HttpResponse } from '../providers/attempts';
import { resolveClientOptions, webhookTransport, type ClientOptions } from '../providers/client-options';
import { jsonArrayBytes } from './json-bytes';
import type { ProviderOutcome, UsageReportRequest } from '../providers/provider-port';
import { parseRetryAfter } from '../providers/retry-policy';
import { EVENT_ID_HEADER, webhookEventJson } from '../providers/webhook-client';
import { SIGNATURE_HEADER, signWebhook } from '../providers/webhook-signature';

/**
 * Batched webhook delivery: the billing run sends a window's reports to a channel as signed POSTs of
 * many reports each (within WebhookBatchLimits) instead of one POST per report, which is what keeps
 * thousands of subscriptions per window feasible. The body is
 *   {"id": "<batch id>", "type": "billing.usage_report.batch", "created": "…", "data": {"events": [<billing.usage_report event>, …]}}
 * each inner event exactly as a single delivery (webhook-client.ts) with its own `id` (the report
 * version's idempotency key): receivers dedupe per inner event id, so a resent batch — even one
 * regrouped differently — never counts an event twice. Signature and headers as single deliveries.
 */
export const WEBHOOK_BATCH_TYPE = 'billing.usage_report.batch';
export const DEFAULT_WEBHOOK_BATCH_SIZE = 500;
/**
 * Body bytes per POST: under the 100 KB body limit common receivers start with (Express's JSON
 * parser: 102,400 bytes), and under the size at which V8 (the receiver's, if it is Node) puts the
 * body's string in its large-object space, which costs a receiver a third more CPU per event.
 */
export const DEFAULT_WEBHOOK_BATCH_BYTES = 100_000;

export interface WebhookBatchLimits {
  /** Events per POST. */
  readonly maxEvents: number;
  /** Bytes of a POST's body (a single event larger than that is sent alone). */
  readonly maxBytes: number;
}

/** One POST's worth of events, encoded: its items, the batch id and the exact body (signed per attempt). */
export interface WebhookBatch<T> {
  readonly items: readonly T[];
  readonly id: string;
  readonly body: Buffer;
}

/**
 * The items' events (created at `createdAt`) grouped into POSTs in order, each within the limits.
 * Each event is encoded once: its size decides its batch, and its text goes into the body as it is.
 */
export function webhookBatches<T>(
  items: readonly T[],
  requestOf: (item: T) => UsageReportRequest<WebhookParams>,
  createdAt: Date,
  limits: WebhookBatchLimits,
): WebhookBatch<T>[] {
  const batches: WebhookBatch<T>[] = [];
  let members: T[] = [];
  let events: string[] = [];
  /** The events' bytes, each with its comma. */
  let bytes = 0;
  const flush = () => {
    if (members.length === 0) return;
    batches.push(
      encodeBatch(
        members,
        events.map((_, i) => requestOf(members[i]!).idempotencyKey),
        events,
        bytes - events.length,
        createdAt,
      ),
    );
    members = [];
    events = [];
    bytes = 0;
  };
  for (const item of items) {
    const event = webhookEventJson(requestOf(item), createdAt);
    // The envelope's bytes, then each event and its comma.
    const size = Buffer.byteLength(event, 'utf8') + 1;
    if (members.length > 0 && (members.length >= limits.maxEvents || ENVELOPE_BYTES + bytes + size > limits.maxBytes)) flush();
    members.push(item);
    events.push(event);
    bytes += size;
  }
  flush();
  return batches;
}

/** Bytes of the envelope around a batch's events (its id and created time have fixed lengths). */
const ENVELOPE_BYTES = JSON.stringify({
  id: `uab_batch_${'0'.repeat(38)}`,
  type: WEBHOOK_BATCH_TYPE,
  created: new Date(0).toISOString(),
  data: { events: [] },
}).length;

function encodeBatch<T>(items: readonly T[], keys: readonly string[], events: readonly string[], eventBytes: number, createdAt: Date): WebhookBatch<T> {
  const id = `uab_batch_${createHash('sha256')
    .update([...keys].sort().join('\u001f'))
    .digest('hex')
    .slice(0, 38)}`;
  // The envelope around the events, then each event as encoded (jsonArrayBytes): the bytes that are
  // signed and sent are exactly JSON of {id, type, created, data: {events}}.
  const envelope = JSON.stringify({ id, type: WEBHOOK_BATCH_TYPE, created: createdAt.toISOString(), data: { events: [] } });
  return { items, id, body: jsonArrayBytes(events, { prefix: envelope.slice(0, -'[]}}'.length), suffix: '}}' }, eventBytes) };
}

/** Sends one batch as a signed POST (signed per attempt), with the channel's retry policy. */
export async function sendWebhookBatch(channel: DeliveryChannel, batch: WebhookBatch<unknown>, options?: ClientOptions): Promise<ProviderOutcome> {
  const { policy, runtime } = resolveClientOptions(options);
  const send = channelFetch(channel, webhookTransport(options));
  const [secret] = channel.secrets;
  if (secret === undefined) throw new Error(`channel ${channel.id} has no signing secret`);
  const log = new RequestLog();
  return runAttempts({
    policy,
    runtime,
    log,
    attempt: async () => {
      const signature = signWebhook(batch.body, secret, Math.floor(runtime.now().getTime() / 1000));
      const { result } = await recordedHttp(
        { log, runtime, fetchFn: send, timeoutMs: policy.timeoutMs },
        batch.id,
        channel.url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature, [EVENT_ID_HEADER]: batch.id },
          body: batch.body,
        },
        classify,
      );
      return result;
    },
  });
}

function classify(response: HttpResponse): AttemptResult {
  if (response.status >= 200 && response.status < 300) return { kind: 'success', status: response.status };
  const body = (response.json ?? {}) as { error?: { code?: unknown; message?: unknown } | string; code?: unknown; message?: unknown };
  const inner = typeof body.error === 'object' && body.error !== null ? body.error : body;
  const code = typeof inner.code === 'string' ? inner.code : `http_${response.status}`;
  const message =
    typeof inner.message === 'string' ? inner.message : typeof body.error === 'string' ? body.error : response.text.slice(0, 500) || `HTTP ${response.status}`;
  return classifyFailureStatus(response.status, code, message, parseRetryAfter(response.headers.get('retry-after'), new Date()));
}
