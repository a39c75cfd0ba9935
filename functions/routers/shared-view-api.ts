import { routesOf, type RouteDefinition } from '../definitions/routes';
import { customerTokenRefused, verifyCustomerToken } from '../customer-portal/access/customer-token';
import { customerRevocations } from '../customer-portal/access/customer-revocations';
import { customerPortalOperations, type CustomerCaller, type CustomerPortalDeps } from '../customer-portal/customer-portal-operations';
import { statementOperations } from '../customer-portal/statements/statement-operations';
import type { ResourceStore } from '../resources/resource-store';
import type { SigningKeyProvider } from '../management-tokens/signing-key';
import type { OrgStatusCache } from '../organisations/org-status';
import { rateLimitHeaders } from '../rate-limit/rate-limit-policy';
import type { RateLimiter } from '../rate-limit/rate-limiter';
import { GoneError, NotFoundError } from '../shared/errors';
import { createHttpHandler, type HttpHandler, type Operation } from '../shared/http/handler';
import type { HttpRequest } from '../shared/http/types';
import { sharedViewOperations, type SharedViewCaller, type SharedViewOperationDeps } from '../shared-views/shared-view-operations';
import { invalid, verifySharedViewToken } from '../shared-views/shared-view-token';
import { signedTokenLocation, tokenRecordOf } from '../shared-views/signed-token-records';

export interface SharedViewApiDeps extends SharedViewOperationDeps, CustomerPortalDeps {
  readonly store: ResourceStore;
  readonly signingKey: SigningKeyProvider;
  /** A shared view of an org that is not paid up is refused (402), as its management API is. */
  readonly orgStatus: OrgStatusCache;
  /** Viewers spend the owning org's query budget: a leaked link cannot query without bound. */
  readonly rateLimiter: RateLimiter;
  /** Customer pages count on their own per-org counter (a busy portal leaves the management API its rate). */
  readonly customerPagesRateLimiter: RateLimiter;
}

type Rate = Awaited<ReturnType<RateLimiter['take']>>;
/** The caller of a public route: a shared-view token with its record, or a customer token. */
type PublicCaller = ({ kind: 'shared-view' } & SharedViewCaller) | ({ kind: 'customer' } & CustomerCaller);

/**
 * The public Lambda: `/public/views/{token}/…` (shared views) and `/public/customers/{token}/…`
 * (customer access). The token in the path is the only credential: well signed and unexpired; a
 * shared-view token's record not deleted, a customer token issued after its customer's last
 * revocation; else 401. Of an active org (402), within the org's rate (429).
 */
export function createSharedViewApiHandler(deps: SharedViewApiDeps): HttpHandler {
  const now = deps.now ?? (() => new Date());
  const revocations = customerRevocations(deps.store);
  const authenticate = async (route: RouteDefinition, request: HttpRequest): Promise<PublicCaller & { rate: Rate }> => {
    const at = now();
    const token = request.pathParams['token'] ?? '';
    // The token's own check and the org's standing are read side by side; a refused token is said first.
    const standing = (orgId: string, check: () => Promise<PublicCaller>) =>
      Promise.allSettled([check(), deps.orgStatus.assertActive(orgId)]).then(([checked, active]) => {
        if (checked.status === 'rejected') throw checked.reason;
        if (active.status === 'rejected') throw active.reason;
        return checked.value;
      });
    let caller: PublicCaller;
    if (route.auth.kind === 'shared-view-token') {
      const claims = verifySharedViewToken(token, await deps.signingKey(), Math.floor(at.getTime() / 1000));
      caller = await standing(claims.org_id, async () => {
        const record = await liveRecord(deps.store, claims.org_id, claims.app_id, claims.tid);
        if (!record || record.target_kind !== claims.kind || record.target_id !== claims.id) throw invalid('has been revoked');
        return { kind: 'shared-view', claims, record };
      });
    } else if (route.auth.kind === 'customer-token') {
      const claims = verifyCustomerToken(token, await deps.signingKey(), Math.floor(at.getTime() / 1000));
      caller = await standing(claims.org_id, async () => {
        const revokedAt = await revocations.revokedAt(claims.org_id, claims.app_id, claims.company_id);
        if (revokedAt !== undefined && claims.iat_ms <= revokedAt) throw customerTokenRefused('has been revoked');
        return { kind: 'customer', claims };
      });
    } else throw new Error(`route ${route.path} is not a public route`);
    const limiter = caller.kind === 'customer' ? deps.customerPagesRateLimiter : deps.rateLimiter;
    return { ...caller, rate: await limiter.take(caller.claims.org_id) };
  };
  return createHttpHandler<PublicCaller & { rate: Rate }>({
    routes: routesOf({ lambda: 'shared-views' }),
    authenticate,
    operations: {
      ...forCaller('shared-view', sharedViewOperations(deps)),
      ...forCaller('customer', customerPortalOperations(deps)),
      ...forCaller('customer', statementOperations(deps)),
    },
    extraHeaders: (caller) => ({ ...(caller ? rateLimitHeaders(caller.rate) : {}), 'cache-control': 'no-store' }),
  });
}

/** Operations of one kind of token: the route table gives each route one kind, so another cannot reach them. */
function forCaller<K extends PublicCaller['kind']>(
  kind: K,
  operations: Record<string, Operation<Extract<PublicCaller, { kind: K }>>>,
): Record<string, Operation<PublicCaller>> {
  return Object.fromEntries(
    Object.entries(operations).map(([name, operation]) => [
      name,
      (request: HttpRequest, caller: PublicCaller) => {
        if (caller.kind !== kind) throw new Error(`operation ${name} is for ${kind} tokens`);
        return operation(request, caller as Extract<PublicCaller, { kind: K }>);
      },
    ]),
  );
}

async function liveRecord(store: ResourceStore, orgId: string, appId: string, tokenId: string) {
  try {
    return tokenRecordOf(await store.get(signedTokenLocation(orgId, appId), tokenId, 'signed token'));
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof GoneError) return undefined;
    throw error;
  }
}
