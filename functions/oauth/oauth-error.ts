import type { OAuthErrorCode } from '../../schemas/oauth';
import { TooManyRequestsError } from '../shared/errors';
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

/** One password attempt against the org's token-URL limit; past it, the RFC's 429. */
export async function takePasswordAttempt(limiter: { take(key: string): Promise<unknown> }, orgId: string): Promise<void> {
  await limiter.take(orgId).catch((error: unknown) => {
    if (error instanceof TooManyRequestsError) throw new OAuthError(429, 'too_many_requests', error.message, error.headers);
    throw error;
  });
}
