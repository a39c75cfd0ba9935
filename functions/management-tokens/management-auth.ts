import type { RouteDefinition } from '../definitions/routes';
import type { ManagementTokenClaims } from '../../schemas/management-token';
import type { HttpRequest } from '../shared/http/types';
import { bearerToken, requireScope, verifyManagementToken } from './management-token';
import type { OrgStatusCache } from '../organisations/org-status';
import { rateLimitHeaders, type RateLimitStatus } from '../rate-limit/rate-limit-policy';
import type { RateLimiter } from '../rate-limit/rate-limiter';
import type { SigningKeyProvider } from './signing-key';
import type { TokenStore } from './token-store';

/** Who is calling a management route: the verified claims of the caller's token, and its rate-limit state. */
export type ManagementCaller = ManagementTokenClaims & { readonly rateLimit?: RateLimitStatus };

export interface ManagementAuthDeps {
  readonly signingKey: SigningKeyProvider;
  /** Token records: revoked or expired tokens are refused. */
  readonly tokens: TokenStore;
  /** Whether the org is paid up (402 when not). */
  readonly orgStatus: OrgStatusCache;
  /** The org's query budget per minute (MANAGEMENT_RATE_LIMIT_PER_MINUTE). */
  readonly rateLimiter: RateLimiter;
  readonly now?: () => Date;
}

/**
 * Authenticates a management route: open routes (the OAuth token URL, the OpenAPI document) pass
 * with no caller; every other route needs a valid token holding the route's scope (else 401, per
 * the spec), whose record is live (not revoked, not expired), of an active org (else 402), within
 * the org's rate limit (else 429). The three table checks run in parallel.
 */
export function managementAuthenticator(deps: ManagementAuthDeps) {
  const nowMs = () => (deps.now ? deps.now().getTime() : Date.now());
  const { tokens, orgStatus: orgs, rateLimiter: limiter } = deps;

  return async (route: RouteDefinition, request: HttpRequest): Promise<ManagementCaller | undefined> => {
    if (route.auth.kind === 'none') return undefined;
    if (route.auth.kind !== 'management-token') throw new Error(`route ${route.path} is not a management route`);
    const nowSeconds = Math.floor(nowMs() / 1000);
    const claims = verifyManagementToken(bearerToken(request.headers['authorization']), await deps.signingKey(), nowSeconds);
    requireScope(claims, route.auth.scope);
    const [record, org, rate] = await Promise.allSettled([
      tokens.assertUsable(claims, nowSeconds),
      orgs.assertActive(claims.org_id),
      limiter.take(claims.org_id),
    ]);
    // Fixed precedence whatever finishes first: a bad token (401) before an unpaid org (402) before the rate (429).
    for (const outcome of [record, org, rate]) if (outcome.status === 'rejected') throw outcome.reason;
    return { ...claims, rateLimit: (rate as PromiseFulfilledResult<RateLimitStatus>).value };
  };
}

/** `extraHeaders` of the management Lambdas: every authenticated answer tells the caller its rate. */
export function managementRateLimitHeaders(caller: ManagementCaller | undefined): Record<string, string> {
  return caller?.rateLimit ? rateLimitHeaders(caller.rateLimit) : {};
}
