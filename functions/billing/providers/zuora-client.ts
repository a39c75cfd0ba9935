import type { ZuoraParams } from '../../../schemas/billing/provider-params';
import { jsonWithBigInts } from './json-bigint';
import { classifyFailureStatus, recordedHttp, RequestLog, runAttempts, trimTrailingSlash, type AttemptResult, type HttpResponse } from './attempts';
import { resolveClientOptions, type ClientOptions } from './client-options';
import { correctionDelta, type ProviderClient, type UsageReportRequest } from './provider-port';
import { parseRetryAfter } from './retry-policy';

export interface ZuoraClientConfig {
  readonly clientId: string;
  readonly clientSecret: string;
  /** `https://rest.zuora.com`, `https://rest.apisandbox.zuora.com`, … or a fake server's URL. */
  readonly baseUrl: string;
}

/** Tokens are renewed this long before Zuora says they expire, so none expires in flight. */
const TOKEN_RENEW_MARGIN_MS = 60_000;
/** The Zuora error code of a usage whose UniqueKey is already recorded (an earlier attempt got through). */
export const ZUORA_DUPLICATE_CODE = 'DUPLICATE_VALUE';

/**
 * Body of "CRUD: Create a usage record" (`POST /v1/object/usage`). Zuora sums usage records per
 * charge and period, so later versions send the change as a new record (negative when usage went
 * down); `UniqueKey` is the idempotency key.
 */
export function zuoraUsageRecord(request: UsageReportRequest<ZuoraParams>): Record<string, unknown> {
  const { params } = request;
  return {
    AccountNumber: params.account_number ?? request.subscription.companyId,
    SubscriptionNumber: request.subscription.subscriptionId,
    ...(params.charge_number ? { ChargeNumber: params.charge_number } : {}),
    UOM: params.unit_of_measure,
    Quantity: correctionDelta(request),
    StartDateTime: request.window.start.toISOString(),
    EndDateTime: request.window.end.toISOString(),
    UniqueKey: request.idempotencyKey,
    Description: `meter ${request.meter.id} v${request.identity.reportVersion}`,
  };
}

/**
 * Zuora usage through the REST API: an OAuth client-credentials token (cached until shortly before
 * it expires, renewed after a 401), then the usage record with an `Idempotency-Key` header (Zuora
 * replays the saved response for 24 hours) and `UniqueKey` in the body (a duplicate is refused).
 */
export function createZuoraClient(config: ZuoraClientConfig, options?: ClientOptions): ProviderClient<ZuoraParams> {
  const { policy, runtime, fetchFn } = resolveClientOptions(options);
  const base = trimTrailingSlash(config.baseUrl);
  let token: { value: string; renewAt: number } | undefined;

  return {
    provider: 'zuora',
    async report(request) {
      const log = new RequestLog();
      const context = { log, runtime, fetchFn, timeoutMs: policy.timeoutMs };
      const body = jsonWithBigInts(zuoraUsageRecord(request));

      const accessToken = async (): Promise<{ value: string } | AttemptResult> => {
        if (token && runtime.now().getTime() < token.renewAt) return token;
        let issued: { value: string; renewAt: number } | undefined;
        const { result } = await recordedHttp(
          context,
          `${request.idempotencyKey}:oauth`,
          `${base}/oauth/token`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
            body: new URLSearchParams({ client_id: config.clientId, client_secret: config.clientSecret, grant_type: 'client_credentials' }).toString(),
          },
          (response) => {
            const answer = (response.json ?? {}) as {
              access_token?: string;
              expires_in?: number;
              error?: string;
              error_description?: string;
              message?: string;
            };
            if (response.status === 200 && answer.access_token) {
              issued = { value: answer.access_token, renewAt: runtime.now().getTime() + (answer.expires_in ?? 3600) * 1000 - TOKEN_RENEW_MARGIN_MS };
              return { kind: 'success', status: 200 };
            }
            return classifyFailureStatus(
              response.status,
              answer.error ?? `http_${response.status}`,
              answer.error_description ?? answer.message ?? `HTTP ${response.status}`,
              parseRetryAfter(response.headers.get('retry-after'), runtime.now()),
            );
          },
        );
        if (!issued)
          return result.kind === 'success'
            ? { kind: 'failed', status: result.status, code: 'invalid_token_response', message: 'no access_token in the token response' }
            : result;
        token = issued;
        return issued;
      };

      return runAttempts({
        policy,
        runtime,
        log,
        attempt: async () => {
          const bearer = await accessToken();
          if ('kind' in bearer) return bearer;
          return (
            await recordedHttp(
              context,
              request.idempotencyKey,
              `${base}/v1/object/usage`,
              {
                method: 'POST',
                headers: {
                  authorization: `Bearer ${bearer.value}`,
                  'content-type': 'application/json',
                  accept: 'application/json',
                  'idempotency-key': request.idempotencyKey,
                },
                body,
              },
              (response) => {
                if (response.status === 401) {
                  // An expired or revoked token: fetch a new one and try again.
                  token = undefined;
                  return { kind: 'retryable', status: 401, code: 'unauthorized', message: zuoraMessage(response) ?? 'the access token was refused' };
                }
                return classify(response, runtime.now());
              },
            )
          ).result;
        },
      });
    },
  };
}

interface ZuoraAnswer {
  Success?: boolean;
  Id?: string;
  Errors?: { Code?: string; Message?: string }[];
  message?: string;
  reasons?: { code?: string | number; message?: string }[];
}

function zuoraMessage(response: HttpResponse): string | undefined {
  const answer = (response.json ?? {}) as ZuoraAnswer;
  return answer.Errors?.[0]?.Message ?? answer.reasons?.[0]?.message ?? answer.message;
}

function classify(response: HttpResponse, now: Date): AttemptResult {
  const answer = (response.json ?? {}) as ZuoraAnswer;
  if (response.status >= 200 && response.status < 300 && answer.Success !== false) {
    return { kind: 'success', status: response.status, ...(answer.Id ? { reference: answer.Id } : {}) };
  }
  const code = answer.Errors?.[0]?.Code ?? (answer.reasons?.[0]?.code !== undefined ? String(answer.reasons[0].code) : `http_${response.status}`);
  if (code === ZUORA_DUPLICATE_CODE) return { kind: 'success', status: response.status, duplicate: true };
  const message = zuoraMessage(response) ?? (response.text.slice(0, 500) || `HTTP ${response.status}`);
  // The CRUD API answers some refusals with 200 and Success false: final, like a 400.
  if (response.status < 300) return { kind: 'failed', status: response.status, code, message };
  // 409: the same idempotency key is still being processed; waiting and retrying gets its answer.
  if (response.status === 409) return { kind: 'retryable', status: 409, code, message };
  return classifyFailureStatus(response.status, code, message, parseRetryAfter(response.headers.get('retry-after'), now));
}
