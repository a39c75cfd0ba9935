import type { ChargebeeParams } from '../../../schemas/billing/provider-params';
import { basicAuth, classifyFailureStatus, recordedHttp, RequestLog, runAttempts, trimTrailingSlash, type AttemptResult, type HttpResponse } from './attempts';
import { resolveClientOptions, type ClientOptions } from './client-options';
import type { ProviderClient, UsageReportRequest } from './provider-port';
import { parseRetryAfter } from './retry-policy';

export interface ChargebeeClientConfig {
  readonly apiKey: string;
  /** `https://<site>.chargebee.com` or a fake server's URL. */
  readonly baseUrl: string;
}

export const CHARGEBEE_IDEMPOTENCY_HEADER = 'chargebee-idempotency-key';
export const CHARGEBEE_REPLAYED_HEADER = 'chargebee-idempotency-replayed';

/**
 * Form fields of "Create a usage" (`POST /api/v2/subscriptions/{id}/usages`). Chargebee keeps one
 * usage per subscription, item price and `usage_date`, so each window is one usage dated at the
 * window's start carrying the window's whole quantity: version 1 uses `dedupe_option=skip` (a
 * repeat changes nothing), later versions `update_existing` (the corrected quantity replaces the old
 * one — a negative delta needs no negative usage).
 */
export function chargebeeUsageForm(request: UsageReportRequest<ChargebeeParams>): URLSearchParams {
  return new URLSearchParams({
    id: request.idempotencyKey,
    item_price_id: request.params.item_price_id,
    quantity: request.quantity.toString(),
    usage_date: String(Math.floor(request.window.start.getTime() / 1000)),
    dedupe_option: request.identity.reportVersion > 1 ? 'update_existing' : 'skip',
    note: `meter ${request.meter.id} ${request.window.start.toISOString()}/${request.window.end.toISOString()} v${request.identity.reportVersion}`,
  });
}

export function createChargebeeClient(config: ChargebeeClientConfig, options?: ClientOptions): ProviderClient<ChargebeeParams> {
  const { policy, runtime, fetchFn } = resolveClientOptions(options);
  const base = trimTrailingSlash(config.baseUrl);
  return {
    provider: 'chargebee',
    async report(request) {
      const log = new RequestLog();
      const url = `${base}/api/v2/subscriptions/${encodeURIComponent(request.subscription.subscriptionId)}/usages`;
      const body = chargebeeUsageForm(request).toString();
      return runAttempts({
        policy,
        runtime,
        log,
        attempt: async () =>
          (
            await recordedHttp(
              { log, runtime, fetchFn, timeoutMs: policy.timeoutMs },
              request.idempotencyKey,
              url,
              {
                method: 'POST',
                headers: {
                  authorization: basicAuth(config.apiKey),
                  'content-type': 'application/x-www-form-urlencoded',
                  accept: 'application/json',
                  [CHARGEBEE_IDEMPOTENCY_HEADER]: request.idempotencyKey,
                },
                body,
              },
              (response) => classify(response, runtime.now()),
            )
          ).result,
      });
    },
  };
}

interface ChargebeeError {
  message?: string;
  api_error_code?: string;
  error_code?: string;
  error_param?: string;
}

function classify(response: HttpResponse, now: Date): AttemptResult {
  if (response.status >= 200 && response.status < 300) {
    const usage = (response.json as { usage?: { id?: string } } | undefined)?.usage;
    return {
      kind: 'success',
      status: response.status,
      ...(usage?.id ? { reference: usage.id } : {}),
      duplicate: response.headers.get(CHARGEBEE_REPLAYED_HEADER) === 'true',
    };
  }
  const error = (response.json ?? {}) as ChargebeeError;
  // A usage with this id already exists: an earlier attempt got through, after the idempotency window.
  if (error.api_error_code === 'duplicate_entry' && error.error_param === 'id') return { kind: 'success', status: response.status, duplicate: true };
  const code = error.error_code ?? error.api_error_code ?? `http_${response.status}`;
  return classifyFailureStatus(
    response.status,
    code,
    error.message ?? (response.text.slice(0, 500) || `HTTP ${response.status}`),
    parseRetryAfter(response.headers.get('retry-after'), now),
  );
}
