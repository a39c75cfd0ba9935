import type { OAuthErrorCode } from '../../schemas/oauth';
import type { SignInAttempt, SignInThrottle } from '../rate-limit/sign-in-throttle';
import type { OperationResult } from '../shared/http/types';

/**
 * An error of the token URL. RFC 6749 §5.2 fixes its body — `{"error": "...", "error_description":
 * "..."}` — so this is the one answer of the service that does not use the service's error shape
 * (OAuth client libraries parse exactly this form).
 */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

/** RFC 6749 §5.1: token answers must not be cached. */
export const NO_STORE_HEADERS = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

export function oauthErrorResult(error: OAuthError): OperationResult {
  return { status: error.status, body: { error: error.code, error_description: error.description }, headers: { ...NO_STORE_HEADERS, ...error.headers } };
}

/** Runs a token-URL-style operation, its OAuthErrors answered in the RFC 6749 shape (others propagate). */
export async function answeringOAuthErrors(work: () => Promise<OperationResult>): Promise<OperationResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof OAuthError) return oauthErrorResult(error);
    throw error;
  }
}

/**
 * One password attempt under the sign-in throttle (rate-limit/sign-in-throttle.ts): refused with the
 * RFC's 429 and Retry-After while its account and source must wait; a wrong password is counted, a
 * right one forgives this source's failures on the account.
 */
export async function throttledSignIn<T>(throttle: SignInThrottle, attempt: SignInAttempt, grant: () => Promise<T>): Promise<T> {
  const waitMs = await throttle.waitMs(attempt);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new OAuthError(429, 'too_many_requests', `Too many failed sign-ins for this account or from this address; retry in ${seconds} s`, {
      'retry-after': String(seconds),
    });
  }
  try {
    const granted = await grant();
    await throttle.succeeded(attempt);
    return granted;
  } catch (error) {
    if (error instanceof OAuthError && error.code === 'invalid_grant') await throttle.failed(attempt);
    throw error;
  }
}
