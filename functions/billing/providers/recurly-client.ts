import type { RecurlyParams } from '../../../schemas/billing/provider-params';
import { jsonWithBigInts } from './json-bigint';
import { basicAuth, classifyFailureStatus, recordedHttp, RequestLog, runAttempts, trimTrailingSlash, type AttemptResult, type HttpResponse } from './attempts';
import { resolveClientOptions, type ClientOptions } from './client-options';
import { correctionDelta, type ProviderClient, type UsageReportRequest } from './provider-port';
import { parseRetryAfter } from './retry-policy';

export interface RecurlyClientConfig {
  readonly apiKey: string;
  /** `https://v3.recurly.com` (default), `https://v3.eu.recurly.com`, or a fake server's URL. */
  readonly baseUrl?: string;
}

export const RECURLY_ACCEPT = 'application/vnd.recurly.v2021-02-25+json';
/** Pages of existing usage read when looking for an earlier attempt (200 records each). */
const MAX_LOOKUP_PAGES = 10;

/**
 * Body of "Log a usage record". Recurly sums usage records, so later versions send the change
 * (`amount` may be negative). `merchant_tag` carries the idempotency key.
 */
export function recurlyUsageBody(request: UsageReportRequest<RecurlyParams>, recordedAt: Date): Record<string, unknown> {
  return {
    amount: correctionDelta(request),
    merchant_tag: request.idempotencyKey,
    usage_timestamp: request.window.start.toISOString(),
    recording_timestamp: recordedAt.toISOString(),
  };
}

/**
 * Recurly documents no idempotency key for creating usage, so before each POST the client lists the
 * add-on's usage in the window and looks for its `merchant_tag`: a record found means an earlier
 * attempt (or run) got through and nothing is sent again.
 */
export function createRecurlyClient(config: RecurlyClientConfig, options?: ClientOptions): ProviderClient<RecurlyParams> {
  const { policy, runtime, fetchFn } = resolveClientOptions(options);
  const base = trimTrailingSlash(config.baseUrl ?? 'https://v3.recurly.com');
  const headers = { authorization: basicAuth(config.apiKey), accept: RECURLY_ACCEPT };
  return {
    provider: 'recurly',
    async report(request) {
      const log = new RequestLog();
      const context = { log, runtime, fetchFn, timeoutMs: policy.timeoutMs };
      const usagePath = `/subscriptions/${encodeURIComponent(request.subscription.subscriptionId)}/add_ons/${encodeURIComponent(request.params.add_on_id)}/usage`;

      const findEarlier = async (): Promise<AttemptResult | undefined> => {
        const query = new URLSearchParams({
          begin_time: request.window.start.toISOString(),
          end_time: request.window.end.toISOString(),
          sort: 'usage_timestamp',
          limit: '200',
        });
        let next: string | undefined = `${usagePath}?${query}`;
        for (let page = 0; next && page < MAX_LOOKUP_PAGES; page += 1) {
          let found: string | undefined;
          let following: string | undefined;
          const { result } = await recordedHttp(context, `${request.idempotencyKey}:lookup`, `${base}${next}`, { method: 'GET', headers }, (response) => {
            if (response.status !== 200) return classifyError(response, runtime.now());
            const list = (response.json ?? {}) as { data?: { id?: string; merchant_tag?: string }[]; has_more?: boolean; next?: string };
            found = list.data?.find((usage) => usage.merchant_tag === request.idempotencyKey)?.id ?? undefined;
            following = list.has_more ? list.next : undefined;
            return { kind: 'success', status: response.status };
          });
          if (result.kind !== 'success') return result;
          if (found) return { kind: 'success', status: 200, reference: found, duplicate: true };
          next = following;
        }
        return undefined;
      };

      return runAttempts({
        policy,
        runtime,
        log,
        attempt: async () => {
          const earlier = await findEarlier();
          if (earlier) return earlier;
          return (
            await recordedHttp(
              context,
              request.idempotencyKey,
              `${base}${usagePath}`,
              {
                method: 'POST',
                headers: { ...headers, 'content-type': 'application/json' },
                body: jsonWithBigInts(recurlyUsageBody(request, runtime.now())),
              },
              (response) => {
                if (response.status === 201 || response.status === 200) {
                  const id = (response.json as { id?: string } | undefined)?.id;
                  return { kind: 'success', status: response.status, ...(id ? { reference: id } : {}) };
                }
                return classifyError(response, runtime.now());
              },
            )
          ).result;
        },
      });
    },
  };
}

function classifyError(response: HttpResponse, now: Date): AttemptResult {
  const error = ((response.json ?? {}) as { error?: { type?: string; message?: string } }).error ?? {};
  return classifyFailureStatus(
    response.status,
    error.type ?? `http_${response.status}`,
    error.message ?? (response.text.slice(0, 500) || `HTTP ${response.status}`),
    parseRetryAfter(response.headers.get('retry-after'), now),
  );
}
