import type { ProviderOutcome, ProviderRequestRecord } from './provider-port';
import { nextDelayMs, type RetryPolicy, type RetryRuntime } from './retry-policy';

/**
 * Running a provider call as a series of attempts: each HTTP request becomes a ProviderRequest
 * record; an attempt's classification decides whether to retry (5xx, 429, timeout), stop with a
 * failure (other 4xx) or stop with success (2xx, or the provider saying it already has it).
 */

export type AttemptResult =
  | { kind: 'success'; status: number; reference?: string; duplicate?: boolean }
  /** Worth trying again: status 0 when no response came. */
  | { kind: 'retryable'; status: number; code: string; message: string; retryAfterMs?: number }
  | { kind: 'failed'; status: number; code: string; message: string };

/** The records of one report call, in the order the requests were sent. */
export class RequestLog {
  readonly records: ProviderRequestRecord[] = [];

  record(jobId: string, startedAt: Date, result: AttemptResult): AttemptResult {
    this.records.push({
      job_id: jobId,
      request_time: startedAt.toISOString(),
      success: result.kind === 'success',
      status_code: result.status,
      error_code: result.kind === 'success' ? null : result.code,
      error_message: result.kind === 'success' ? null : result.message,
    });
    return result;
  }
}

export interface AttemptOptions {
  readonly policy: RetryPolicy;
  readonly runtime: RetryRuntime;
  readonly log: RequestLog;
  /** One attempt (which may make several HTTP requests, each recorded in `log`). */
  readonly attempt: (attemptNumber: number) => Promise<AttemptResult>;
}

export async function runAttempts(options: AttemptOptions): Promise<ProviderOutcome> {
  const { policy, runtime, log } = options;
  for (let n = 1; ; n += 1) {
    const result = await options.attempt(n);
    if (result.kind === 'success') {
      return {
        success: true,
        requests: log.records,
        duplicate: result.duplicate ?? false,
        ...(result.reference ? { providerReference: result.reference } : {}),
      };
    }
    if (result.kind === 'failed' || n >= policy.maxAttempts) return { success: false, requests: log.records, duplicate: false };
    await runtime.sleep(nextDelayMs(policy, n, result.retryAfterMs, runtime.random));
  }
}

/** error_code of a delivery whose target address the deployment does not allow (nothing was sent). */
export const FORBIDDEN_TARGET = 'forbidden_target';

/** Errors thrown by fetch or an aborted signal, as an attempt result. */
export function transportFailure(error: unknown): AttemptResult {
  // Duck-typed: fetch's abort reasons are DOMExceptions, which are not always `instanceof Error` here.
  const { name, message, cause } = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown;
    message?: unknown;
    cause?: { message?: unknown };
  };
  if (name === 'TimeoutError' || name === 'AbortError')
    return { kind: 'retryable', status: 0, code: 'timeout', message: 'the provider did not answer in time' };
  // The target policy refused the address before anything was sent (guarded-fetch.ts): final, not retried.
  if (name === 'ForbiddenTargetError')
    return { kind: 'failed', status: 0, code: FORBIDDEN_TARGET, message: typeof message === 'string' ? message : 'the delivery target is not allowed' };
  const text = typeof message === 'string' ? message : String(error);
  return { kind: 'retryable', status: 0, code: 'network_error', message: typeof cause?.message === 'string' ? `${text}: ${cause.message}` : text };
}

/** The generic part of classifying a response: 429, 408 and 5xx are retried, other 4xx are final. */
export function classifyFailureStatus(status: number, code: string, message: string, retryAfterMs: number | undefined): AttemptResult {
  if (status === 429 || status === 408 || status >= 500)
    return { kind: 'retryable', status, code, message, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  return { kind: 'failed', status, code, message };
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Sends one request with a timeout; throws what fetch throws (callers turn it into `transportFailure`). */
export async function sendHttp(fetchFn: FetchLike, url: string, init: RequestInit, timeoutMs: number): Promise<HttpResponse> {
  const response = await fetchFn(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Sends, classifies and records one HTTP request. */
export async function recordedHttp(
  context: { log: RequestLog; runtime: RetryRuntime; fetchFn: FetchLike; timeoutMs: number },
  jobId: string,
  url: string,
  init: RequestInit,
  classify: (response: HttpResponse) => AttemptResult,
): Promise<{ result: AttemptResult; response?: HttpResponse }> {
  const startedAt = context.runtime.now();
  try {
    const response = await sendHttp(context.fetchFn, url, init, context.timeoutMs);
    return { result: context.log.record(jobId, startedAt, classify(response)), response };
  } catch (error) {
    return { result: context.log.record(jobId, startedAt, transportFailure(error)) };
  }
}

export function basicAuth(user: string, password = ''): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

export function trimTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
