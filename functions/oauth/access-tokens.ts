import type { IssuedToken, MintTokenQuery, SignedToken } from '../../schemas/oauth';
import type { ManagementScope } from '../../schemas/scopes';
import type { AppStore } from '../organisations/app-store';
import type { ManagementCaller } from '../management-tokens/management-auth';
import { isManagementScope, splitScopeList } from '../management-tokens/scope-list';
import { issueManagementToken } from '../management-tokens/token-issuer';
import type { TokenStore } from '../management-tokens/token-store';
import { NotFoundError, UnauthorizedError, ValidationError } from '../shared/errors';

const YEAR_MS = 365.25 * 24 * 3600 * 1000;
export const DEFAULT_MINTED_LIFETIME_MS = YEAR_MS;
export const MAX_MINTED_LIFETIME_MS = 5 * YEAR_MS;

export interface AccessTokenDeps {
  tokens: TokenStore;
  apps: AppStore;
  signingKey: Buffer;
  now: Date;
}

/**
 * GET /~/oauth/access_tokens. target=management: a new management token for the caller's org and
 * app whose scopes are a subset of the caller's (`_id` = its token id, for revocation).
 * target=collector: the app's collector application id (`_id` = the app id). `url` is left out:
 * a Lambda cannot know the public base URLs (custom domains), which are deployment outputs.
 */
export async function mintAccessToken(deps: AccessTokenDeps, caller: ManagementCaller, query: MintTokenQuery): Promise<SignedToken> {
  if (query.target === 'collector') {
    const app = await deps.apps.getApp(caller.org_id, caller.app_id);
    if (!app) throw new NotFoundError(`The app ${caller.app_id} of this token no longer exists`, [{ field: 'app_id', reason: 'not found' }]);
    return { _id: app.app_id, token: app.collector_application_id };
  }
  const scopes = requestedScopes(caller, query.scope);
  const exp = expiry(query.expiration, deps.now);
  const issued = await issueManagementToken(
    deps.tokens,
    deps.signingKey,
    { sub: caller.sub, org_id: caller.org_id, app_id: caller.app_id, scopes, exp },
    deps.now,
  );
  return { _id: issued.jti, token: issued.token };
}

/** DELETE /~/oauth/access_tokens/{tokenId}: revokes a token of the caller's org (404 for any other). */
export async function revokeAccessToken(deps: Pick<AccessTokenDeps, 'tokens' | 'now'>, caller: ManagementCaller, tokenId: string): Promise<void> {
  if (!(await deps.tokens.revoke(caller.org_id, tokenId, deps.now))) {
    throw new NotFoundError(`No access token ${tokenId} in this organisation`, [{ field: 'tokenId', reason: 'not found' }]);
  }
}

/** The caller's own tokens still usable, newest first: what a person may revoke (never the token itself). */
export async function listAccessTokens(deps: Pick<AccessTokenDeps, 'tokens' | 'now'>, caller: ManagementCaller): Promise<IssuedToken[]> {
  const records = await deps.tokens.usableOf(caller.org_id, caller.sub, Math.floor(deps.now.getTime() / 1000));
  return records.map((record) => ({
    _id: record.jti,
    app_id: record.app_id,
    scopes: record.scopes,
    issued_at: new Date(record.issued_at * 1000).toISOString(),
    expires_at: record.expires_at === undefined ? null : new Date(record.expires_at * 1000).toISOString(),
  }));
}

/** A new token can hold only scopes its minter holds (asking for more is the spec's 401). */
export function requestedScopes(caller: ManagementCaller, scopeParameter: string | undefined): ManagementScope[] {
  const names = splitScopeList(scopeParameter);
  if (!names) return [...caller.scopes];
  const unknown = names.filter((n) => !isManagementScope(n));
  if (unknown.length)
    throw new ValidationError(
      `Unknown scopes: ${unknown.join(', ')}`,
      unknown.map((n) => ({ field: 'scope', reason: `unknown scope ${n}` })),
    );
  const lacking = names.filter((n) => !caller.scopes.includes(n as ManagementScope));
  if (lacking.length) {
    throw new UnauthorizedError(
      `The token lacks the scopes it asks to grant: ${lacking.join(', ')}`,
      lacking.map((n) => ({ field: 'scope', reason: `missing scope ${n}` })),
    );
  }
  return names as ManagementScope[];
}

/** Epoch seconds of the new token's expiry: the requested instant (future, ≤ 5 years) or 1 year. */
export function expiry(expiration: string | undefined, now: Date): number {
  if (expiration === undefined) return Math.floor((now.getTime() + DEFAULT_MINTED_LIFETIME_MS) / 1000);
  const at = Date.parse(expiration);
  if (Number.isNaN(at)) throw new ValidationError('expiration is not an ISO 8601 date-time', [{ field: 'expiration', reason: 'not an ISO 8601 date-time' }]);
  if (at <= now.getTime()) throw new ValidationError('expiration must be in the future', [{ field: 'expiration', reason: 'in the past' }]);
  if (at - now.getTime() > MAX_MINTED_LIFETIME_MS)
    throw new ValidationError('expiration may be at most 5 years ahead', [{ field: 'expiration', reason: 'more than 5 years ahead' }]);
  return Math.floor(at / 1000);
}
