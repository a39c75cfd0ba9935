import { routesOf, type RouteDefinition } from '../definitions/routes';
import type { ResourceStore } from '../resources/resource-store';
import type { SigningKeyProvider } from '../management-tokens/signing-key';
import type { OrgStatusCache } from '../organisations/org-status';
import { rateLimitHeaders } from '../rate-limit/rate-limit-policy';
import type { RateLimiter } from '../rate-limit/rate-limiter';
import { GoneError, NotFoundError } from '../shared/errors';
import { createHttpHandler, type HttpHandler } from '../shared/http/handler';
import type { HttpRequest } from '../shared/http/types';
import { sharedViewOperations, type SharedViewCaller, type SharedViewOperationDeps } from '../shared-views/shared-view-operations';
import { invalid, verifySharedViewToken } from '../shared-views/shared-view-token';
import { signedTokenLocation, tokenRecordOf } from '../shared-views/signed-token-records';

export interface SharedViewApiDeps extends SharedViewOperationDeps {
  readonly store: ResourceStore;
  readonly signingKey: SigningKeyProvider;
  /** A shared view of an org that is not paid up is refused (402), as its management API is. */
  readonly orgStatus: OrgStatusCache;
  /** Viewers spend the owning org's query budget: a leaked link cannot query without bound. */
  readonly rateLimiter: RateLimiter;
}

/**
 * The shared-views Lambda: `/public/views/{token}/…`. The token in the path is the only credential:
 * well signed, unexpired, and its record not revoked (deleted), else 401; of an active org (402);
 * within the org's rate (429).
 */
export function createSharedViewApiHandler(deps: SharedViewApiDeps): HttpHandler {
  const now = deps.now ?? (() => new Date());
  const authenticate = async (route: RouteDefinition, request: HttpRequest): Promise<SharedViewCaller & { rate: Awaited<ReturnType<RateLimiter['take']>> }> => {
    if (route.auth.kind !== 'shared-view-token') throw new Error(`route ${route.path} is not a shared-view route`);
    const at = now();
    const claims = verifySharedViewToken(request.pathParams['token'] ?? '', await deps.signingKey(), Math.floor(at.getTime() / 1000));
    const record = await liveRecord(deps.store, claims.org_id, claims.app_id, claims.tid);
    if (!record || record.target_kind !== claims.kind || record.target_id !== claims.id) throw invalid('has been revoked');
    await deps.orgStatus.assertActive(claims.org_id);
    const rate = await deps.rateLimiter.take(claims.org_id);
    return { claims, record, rate };
  };
  return createHttpHandler({
    routes: routesOf({ lambda: 'shared-views' }),
    authenticate,
    operations: sharedViewOperations(deps),
    extraHeaders: (caller) => ({ ...(caller ? rateLimitHeaders(caller.rate) : {}), 'cache-control': 'no-store' }),
  });
}

async function liveRecord(store: ResourceStore, orgId: string, appId: string, tokenId: string) {
  try {
    return tokenRecordOf(await store.get(signedTokenLocation(orgId, appId), tokenId, 'signed token'));
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof GoneError) return undefined;
    throw error;
  }
}
