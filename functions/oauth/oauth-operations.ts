import { MintTokenQuery } from '../../schemas/oauth';
import { CreateOrgUser } from '../../schemas/org';
import type { AppStore } from '../organisations/app-store';
import type { ManagementCaller } from '../management-tokens/management-auth';
import type { OrgUserStore } from '../organisations/org-user-store';
import type { SignInThrottle } from '../rate-limit/sign-in-throttle';
import type { SigningKeyProvider } from '../management-tokens/signing-key';
import { splitScopeList } from '../management-tokens/scope-list';
import type { TokenStore } from '../management-tokens/token-store';
import { parseOrRefuse } from '../shared/invalid-input';
import { readJsonBody } from '../shared/http/body';
import type { Operation } from '../shared/http/handler';
import type { HttpRequest } from '../shared/http/types';
import { listAccessTokens, mintAccessToken, revokeAccessToken } from './access-tokens';
import { answeringOAuthErrors, NO_STORE_HEADERS, throttledSignIn } from './oauth-error';
import { createOrgUser, deleteOrgUser } from './org-users';
import { grantPasswordToken } from './password-grant';
import { parsePasswordGrantRequest } from './token-request';

export interface OAuthDeps {
  readonly apps: AppStore;
  readonly users: OrgUserStore;
  readonly tokens: TokenStore;
  /** Failed password attempts per account and source (rate-limit/sign-in-throttle.ts). */
  readonly signInThrottle: SignInThrottle;
  readonly signingKey: SigningKeyProvider;
  readonly now?: () => Date;
}
const MAX_USER_BODY_BYTES = 16 * 1024;

/** The token URL, access-token minting and revocation, and org users. */
export function oauthOperations(deps: OAuthDeps): Record<string, Operation<ManagementCaller | undefined>> {
  const now = () => deps.now?.() ?? new Date();
  const { tokens, users } = deps;

  return {
    issueAccessToken: (request) =>
      answeringOAuthErrors(async () => {
        const orgId = request.pathParams['orgId']!;
        const grant = parsePasswordGrantRequest(request);
        const answer = await throttledSignIn(deps.signInThrottle, { orgId, username: grant.username, source: request.sourceIp }, async () =>
          grantPasswordToken(
            { users, tokens, apps: deps.apps, signingKey: await deps.signingKey(), now: now() },
            { orgId, username: grant.username, password: grant.password, scopes: splitScopeList(grant.scope), appId: grant.app_id },
          ),
        );
        return { status: 200, body: answer, headers: { ...NO_STORE_HEADERS } };
      }),

    async mintAccessToken(request, caller) {
      const query = parseOrRefuse(MintTokenQuery, request.query, 'query parameters', { root: 'query' });
      const signed = await mintAccessToken({ tokens, apps: deps.apps, signingKey: await deps.signingKey(), now: now() }, required(caller), query);
      return { status: 200, body: signed, headers: { ...NO_STORE_HEADERS } };
    },

    async listAccessTokens(_request, caller) {
      return { status: 200, body: await listAccessTokens({ tokens, now: now() }, required(caller)), headers: { ...NO_STORE_HEADERS } };
    },

    async revokeAccessToken(request, caller) {
      await revokeAccessToken({ tokens, now: now() }, required(caller), request.pathParams['tokenId']!);
      return { status: 204 };
    },

    async createOrgUser(request, caller) {
      const input = parseOrRefuse(CreateOrgUser, readJsonBody(request, MAX_USER_BODY_BYTES), 'user', { root: 'body' });
      return { status: 201, body: await createOrgUser(users, required(caller), input, now()) };
    },

    async listOrgUsers(_request, caller) {
      return { status: 200, body: { users: await users.list(required(caller).org_id) } };
    },

    async deleteOrgUser(request: HttpRequest, caller) {
      await deleteOrgUser({ users, tokens }, required(caller), request.pathParams['username']!, now());
      return { status: 204 };
    },
  };
}

/** Token routes always have a caller (the route table says so; the authenticator enforces it). */
function required(caller: ManagementCaller | undefined): ManagementCaller {
  if (!caller) throw new Error('a token route ran without a caller');
  return caller;
}
