import { createHash } from 'node:crypto';
import type { WebhookParams } from '../../../schemas/billing/provider-params';
import { channelFetch, type DeliveryChannel } from '../channels/channel-delivery';
import { classifyFailureStatus, recordedHttp, RequestLog, runAttempts, type AttemptResult, type HttpResponse } from '../providers/attempts';
import { resolveClientOptions, webhookTransport, type ClientOptions } from '../providers/client-options';
import { jsonArrayBytes } from '../../shared/json-bytes';
import type { ProviderOutcome, UsageReportRequest } from '../providers/provider-port';
import { parseRetryAfter } from '../providers/retry-policy';
import { EVENT_ID_HEADER, webhookEventJson } from '../providers/webhook-client';
import { SIGNATURE_HEADER, signWebhook } from '../providers/webhook-signature';

/**
 * Batched webhook delivery: the billing run sends a window's reports to a channel as ONE signed
 * POST (up to `maxEvents` per POST) instead of one POST per report, which is what keeps thousands of
 * subscriptions per window feasible. The body is
 *   {"id": "<batch id>", "type": "billing.usage_report.batch", "created": "…", "data": {"events": [<billing.usage_report event>, …]}}
 * each inner event exactly as a single delivery (webhook-client.ts) with its own `id` (the report
 * version's idempotency key): receivers dedupe per inner event id, so a resent batch — even one
 * regrouped differently — never counts an event twice. Signature and headers as single deliveries.
 */
export const WEBHOOK_BATCH_TYPE = 'billing.usage_report.batch';
export const DEFAULT_WEBHOOK_BATCH_SIZE = 500;

export async function sendWebhookBatch(channel: DeliveryChannel, requests: readonly UsageReportRequest<WebhookParams>[], options?: ClientOptions): Promise<ProviderOutcome> {
  const { policy, runtime } = resolveClientOptions(options);
  const send = channelFetch(channel, webhookTransport(options));
  const [secret] = channel.secrets;
  if (secret === undefined) throw new Error(`channel ${channel.id} has no signing secret`);
  const created = runtime.now();

  const batchId = `uab_batch_${createHash('sha256').update(requests.map((r) => r.idempotencyKey).sort().join('\u001f')).digest('hex').slice(0, 38)}`;
  // The envelope around the events, then each event encoded on its own (jsonArrayBytes): the bytes
  // that are signed and sent are exactly JSON of {id, type, created, data: {events}}.
  const envelope = JSON.stringify({ id: batchId, type: WEBHOOK_BATCH_TYPE, created: created.toISOString(), data: { events: [] } });
  const body = jsonArrayBytes(requests.map((request) => webhookEventJson(request, created)), { prefix: envelope.slice(0, -'[]}}'.length), suffix: '}}' });
  const log = new RequestLog();
  return runAttempts({
    policy, runtime, log,
    attempt: async () => {
      const signature = signWebhook(body, secret, Math.floor(runtime.now().getTime() / 1000));
      const { result } = await recordedHttp({ log, runtime, fetchFn: send, timeoutMs: policy.timeoutMs }, batchId, channel.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature, [EVENT_ID_HEADER]: batchId },
        body,
      }, classify);
      return result;
    },
  });
}

function classify(response: HttpResponse): AttemptResult {
  if (response.status >= 200 && response.status < 300) return { kind: 'success', status: response.status };
  const body = (response.json ?? {}) as { error?: { code?: unknown; message?: unknown } | string; code?: unknown; message?: unknown };
  const inner = typeof body.error === 'object' && body.error !== null ? body.error : body;
  const code = typeof inner.code === 'string' ? inner.code : `http_${response.status}`;
  const message = typeof inner.message === 'string' ? inner.message : typeof body.error === 'string' ? body.error : response.text.slice(0, 500) || `HTTP ${response.status}`;
  return classifyFailureStatus(response.status, code, message, parseRetryAfter(response.headers.get('retry-after'), new Date()));
}
