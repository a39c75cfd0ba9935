import type { App } from '../../schemas/app';
import type { ManagementScope } from '../../schemas/scopes';
import type { OAuthTokenResponse } from '../../schemas/oauth';
import type { AppStore } from '../organisations/app-store';
import type { OrgUserStore } from '../organisations/org-user-store';
import { verifyAgainstDummy, verifyPassword } from '../organisations/password-hash';
import { effectiveScopes, isManagementScope } from '../management-tokens/scope-list';
import { issueManagementToken } from '../management-tokens/token-issuer';
import type { TokenStore } from '../management-tokens/token-store';
import { UnauthorizedError } from '../shared/errors';
import { OAuthError } from './oauth-error';

/** Lifetime of a token from the password flow; long-lived tokens are minted with GET /~/oauth/access_tokens. */
export const PASSWORD_TOKEN_LIFETIME_SECONDS = 3600;

export interface PasswordGrantDeps {
  users: OrgUserStore;
  tokens: TokenStore;
  apps: AppStore;
  signingKey: Buffer;
  now: Date;
}

export interface PasswordGrantInput {
  orgId: string;
  username: string;
  password: string;
  /** Requested scopes; undefined = every scope the user holds. */
  scopes?: readonly string[];
  appId?: string;
}

/** Who a granted token is for: what a console session keeps to issue the next ones. */
export interface GrantedIdentity {
  readonly sub: string;
  readonly org_id: string;
  readonly app_id: string;
  readonly scopes: readonly ManagementScope[];
}

/** RFC 6749 §4.3: checks the org user's password and issues a short-lived management token. */
export async function grantPasswordToken(deps: PasswordGrantDeps, input: PasswordGrantInput): Promise<OAuthTokenResponse> {
  return (await passwordGrant(deps, input)).answer;
}

/** The password grant, with the identity the token was issued to. */
export async function passwordGrant(deps: PasswordGrantDeps, input: PasswordGrantInput): Promise<{ answer: OAuthTokenResponse; identity: GrantedIdentity }> {
  const user = await deps.users.find(input.orgId, input.username);
  // Unknown user and wrong password get the same answer after the same work.
  const valid = user ? await verifyPassword(input.password, user.password_hash) : await verifyAgainstDummy(input.password);
  if (!user || !valid) throw new OAuthError(401, 'invalid_grant', 'The username or password is wrong');

  const granted = effectiveScopes(user.scopes);
  const requested = input.scopes ?? granted;
  for (const scope of requested) {
    if (!isManagementScope(scope)) throw new OAuthError(400, 'invalid_scope', `${scope} is not a scope of this service`);
    if (!granted.includes(scope)) throw new OAuthError(400, 'invalid_scope', `The user ${user.username} does not hold the scope ${scope}`);
  }
  if (requested.length === 0) throw new OAuthError(400, 'invalid_scope', `The user ${user.username} holds no scope`);

  const app = await resolveApp(deps.apps, input.orgId, input.appId);
  const identity: GrantedIdentity = { sub: user.username, org_id: input.orgId, app_id: app.app_id, scopes: requested.filter(isManagementScope) };
  return { answer: await issueShortLivedToken(deps, identity), identity };
}

/** A one-hour token for an identity already checked (a password, or a console session's refresh). */
export async function issueShortLivedToken(
  deps: Pick<PasswordGrantDeps, 'tokens' | 'signingKey' | 'now'>,
  identity: GrantedIdentity,
): Promise<OAuthTokenResponse> {
  const exp = Math.floor(deps.now.getTime() / 1000) + PASSWORD_TOKEN_LIFETIME_SECONDS;
  const issued = await issueManagementToken(deps.tokens, deps.signingKey, { ...identity, scopes: [...identity.scopes], exp }, deps.now).catch(
    (error: unknown) => {
      // The user was deleted after their password was checked: as if unknown.
      if (error instanceof UnauthorizedError) throw new OAuthError(401, 'invalid_grant', 'The username or password is wrong');
      throw error;
    },
  );
  return { access_token: issued.token, token_type: 'Bearer', expires_in: PASSWORD_TOKEN_LIFETIME_SECONDS, scope: identity.scopes.join(' ') };
}

async function resolveApp(apps: AppStore, orgId: string, appId: string | undefined): Promise<App> {
  if (appId !== undefined) {
    const app = await apps.getApp(orgId, appId);
    if (!app) throw new OAuthError(400, 'invalid_request', `The organisation has no app ${appId}`);
    return app;
  }
  const [first] = await apps.listApps(orgId);
  if (!first) throw new OAuthError(400, 'invalid_request', 'The organisation has no app yet; create one with the admin command');
  return first;
}
