import type { WebhookParams } from '../../../schemas/billing/provider-params';
import { jsonInteger } from './json-bigint';
import { IsoTextCache } from '../iso-text-cache';
import { classifyFailureStatus, recordedHttp, RequestLog, runAttempts, type AttemptResult, type HttpResponse } from './attempts';
import { resolveClientOptions, webhookTransport, type ClientOptions } from './client-options';
import { correctionDelta, type ProviderClient, type UsageReportRequest } from './provider-port';
import { parseRetryAfter } from './retry-policy';
import { SIGNATURE_HEADER, signWebhook } from './webhook-signature';

/** A webhook channel with its own signing secret (one client per channel). */
export interface WebhookChannel {
  readonly id: string;
  readonly name?: string;
  readonly url: string;
  readonly secret: string;
}

export const WEBHOOK_EVENT_TYPE = 'billing.usage_report';
export const EVENT_ID_HEADER = 'x-usage-event-id';

/**
 * The delivered event. `id` is the idempotency key: receivers store ids they processed and ignore a
 * repeat. `delta` is what changed since earlier versions of the window (the whole quantity on
 * version 1), so a receiver that adds up deltas ends with each window's latest quantity.
 */
export function webhookEvent(request: UsageReportRequest<WebhookParams>, createdAt: Date): Record<string, unknown> {
  return {
    id: request.idempotencyKey,
    type: WEBHOOK_EVENT_TYPE,
    created: createdAt.toISOString(),
    data: {
      org_id: request.identity.orgId,
      app_id: request.identity.appId,
      meter: { id: request.meter.id, ...(request.meter.name ? { name: request.meter.name } : {}) },
      subscription: { id: request.subscription.subscriptionId, company_id: request.subscription.companyId },
      plan_id: request.params.custom_plan.plan_id,
      window: { start: request.window.start.toISOString(), end: request.window.end.toISOString() },
      report_version: request.identity.reportVersion,
      quantity: jsonInteger(request.quantity),
      previous_quantity: jsonInteger(request.previousQuantity),
      delta: jsonInteger(correctionDelta(request)),
      report_total_usage: jsonInteger(request.reportTotalUsage),
      ...(request.amount ? { amount: request.amount.value.toString(), currency: request.amount.currency } : {}),
    },
  };
}

/**
 * `jsonWithBigInts(webhookEvent(request, createdAt))`, written directly: the billing run writes one per
 * report (millions), and building the object to stringify it cost twice as much. A test holds the two
 * to the same bytes.
 */
export function webhookEventJson(request: UsageReportRequest<WebhookParams>, createdAt: Date): string {
  const text = JSON.stringify;
  const { identity, meter, subscription, window } = request;
  const planId = request.params.custom_plan.plan_id as unknown;
  return (
    `{"id":${text(request.idempotencyKey)},"type":"${WEBHOOK_EVENT_TYPE}","created":"${createdIso.of(createdAt)}","data":{` +
    `"org_id":${text(identity.orgId)},"app_id":${text(identity.appId)},"meter":{"id":${text(meter.id)}${meter.name ? `,"name":${text(meter.name)}` : ''}},` +
    `"subscription":{"id":${text(subscription.subscriptionId)},"company_id":${text(subscription.companyId)}},` +
    `${planId === undefined ? '' : `"plan_id":${text(planId)},`}"window":{"start":"${windowStartIso.of(window.start)}","end":"${windowEndIso.of(window.end)}"},` +
    `"report_version":${text(identity.reportVersion)},"quantity":${request.quantity},"previous_quantity":${request.previousQuantity},` +
    `"delta":${correctionDelta(request)},"report_total_usage":${request.reportTotalUsage}` +
    `${request.amount ? `,"amount":${text(request.amount.value.toString())},"currency":${text(request.amount.currency)}` : ''}}}`
  );
}

const createdIso = new IsoTextCache();
const windowStartIso = new IsoTextCache();
const windowEndIso = new IsoTextCache();

/** Signed JSON POST to one channel: `X-Usage-Signature: t=…,v1=HMAC-SHA256(secret, "t.body")`. */
export function createWebhookClient(channel: WebhookChannel, options?: ClientOptions): ProviderClient<WebhookParams> {
  const { policy, runtime } = resolveClientOptions(options);
  // Tenant-chosen URLs: the guarded transport unless one is injected (client-options.ts).
  const fetchFn = webhookTransport(options);
  return {
    provider: 'webhook',
    async report(request) {
      const log = new RequestLog();
      const body = webhookEventJson(request, runtime.now());
      return runAttempts({
        policy,
        runtime,
        log,
        attempt: async () => {
          // Signed per attempt: a retry minutes later must not fall outside the receiver's tolerance.
          const signature = signWebhook(body, channel.secret, Math.floor(runtime.now().getTime() / 1000));
          const { result } = await recordedHttp(
            { log, runtime, fetchFn, timeoutMs: policy.timeoutMs },
            request.idempotencyKey,
            channel.url,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature, [EVENT_ID_HEADER]: request.idempotencyKey },
              body,
            },
            (response) => classify(response, runtime.now()),
          );
          return result;
        },
      });
    },
  };
}

function classify(response: HttpResponse, now: Date): AttemptResult {
  if (response.status >= 200 && response.status < 300) return { kind: 'success', status: response.status };
  // Receivers write what they like; a JSON {error:{code,message}} or {code,message} is read, else the text.
  const body = (response.json ?? {}) as { error?: { code?: unknown; message?: unknown } | string; code?: unknown; message?: unknown };
  const inner = typeof body.error === 'object' && body.error !== null ? body.error : body;
  const code = typeof inner.code === 'string' ? inner.code : `http_${response.status}`;
  const message =
    typeof inner.message === 'string' ? inner.message : typeof body.error === 'string' ? body.error : response.text.slice(0, 500) || `HTTP ${response.status}`;
  return classifyFailureStatus(response.status, code, message, parseRetryAfter(response.headers.get('retry-after'), now));
}
