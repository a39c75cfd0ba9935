import { ConsoleSignIn } from '../../schemas/console-session';
import type { ManagementCaller } from '../management-tokens/management-auth';
import { effectiveScopes } from '../management-tokens/scope-list';
import { answeringOAuthErrors, NO_STORE_HEADERS, OAuthError, oauthErrorResult, throttledSignIn } from '../oauth/oauth-error';
import type { OAuthDeps } from '../oauth/oauth-operations';
import { issueShortLivedToken, passwordGrant } from '../oauth/password-grant';
import { ServiceError } from '../shared/errors';
import { readJsonBody } from '../shared/http/body';
import type { HttpRequest } from '../shared/http/types';
import type { Operation } from '../shared/http/handler';
import { clearSessionCookie, sessionCookieOf, setSessionCookie } from './session-cookie';
import type { ConsoleSessionStore } from './session-store';
import { fieldPath } from '../shared/invalid-input';

/** The token URL's stores, and where console sessions are kept. */
export interface ConsoleSessionDeps extends OAuthDeps {
  readonly consoleSessions: ConsoleSessionStore;
}

const MAX_SIGN_IN_BYTES = 16 * 1024;

/**
 * The console's sign-in that lasts: `POST /oauth/console_session` checks the password like the
 * token URL and answers a one-hour token plus a session cookie; `POST …/refresh` trades the cookie
 * for a fresh token (rotating the cookie), in any tab, until sign-out (`DELETE`) or the session
 * ends. The token lives in the page's memory only, never in storage or a URL. Errors use the
 * token URL's RFC 6749 shape.
 */
export function consoleSessionOperations(deps: ConsoleSessionDeps): Record<string, Operation<ManagementCaller | undefined>> {
  const now = () => deps.now?.() ?? new Date();
  return {
    startConsoleSession: (request) =>
      answeringOAuthErrors(async () => {
        const input = ConsoleSignIn.safeParse(signInBody(request));
        if (!input.success) {
          const issue = input.error.issues[0]!;
          throw new OAuthError(400, 'invalid_request', `${fieldPath(issue.path, 'body')}: ${issue.message}`);
        }
        const { org_id, username, password, app_id } = input.data;
        const at = now();
        const { answer, identity } = await throttledSignIn(deps.signInThrottle, { orgId: org_id, username, source: request.sourceIp }, async () =>
          passwordGrant(
            { users: deps.users, tokens: deps.tokens, apps: deps.apps, signingKey: await deps.signingKey(), now: at },
            { orgId: org_id, username, password, ...(app_id ? { appId: app_id } : {}) },
          ),
        );
        const started = await deps.consoleSessions.start(identity, at);
        return {
          status: 200,
          body: answer,
          headers: { ...NO_STORE_HEADERS },
          cookies: [setSessionCookie(request, started.cookie, started.session.expires_at - Math.floor(at.getTime() / 1000))],
        };
      }),

    refreshConsoleSession: (request) =>
      answeringOAuthErrors(async () => {
        const cookie = sessionCookieOf(request);
        const refused = (reason: string) => ({ ...oauthErrorResult(new OAuthError(401, 'invalid_grant', reason)), cookies: [clearSessionCookie(request)] });
        if (!cookie) return refused('no console session: sign in');
        const at = now();
        const outcome = await deps.consoleSessions.refresh(cookie, at);
        if (outcome.kind === 'refused') return refused(outcome.reason);
        const { session } = outcome;
        // The user may have lost scopes or been deleted since: the new token holds what they still hold.
        const user = await deps.users.find(session.org_id, session.sub);
        if (!user) return refused('the user no longer exists');
        const held = new Set(effectiveScopes(user.scopes));
        const scopes = session.scopes.filter((scope) => held.has(scope));
        if (scopes.length === 0) return refused("the user holds none of the session's scopes any more");
        const answer = await issueShortLivedToken(
          { tokens: deps.tokens, signingKey: await deps.signingKey(), now: at },
          { sub: session.sub, org_id: session.org_id, app_id: session.app_id, scopes },
        );
        const cookies = outcome.kind === 'rotated' ? [setSessionCookie(request, outcome.cookie, session.expires_at - Math.floor(at.getTime() / 1000))] : [];
        return { status: 200, body: answer, headers: { ...NO_STORE_HEADERS }, cookies };
      }),

    async endConsoleSession(request) {
      const cookie = sessionCookieOf(request);
      if (cookie) await deps.consoleSessions.end(cookie, now());
      return { status: 204, cookies: [clearSessionCookie(request)] };
    },
  };
}

/** The sign-in body as JSON; an empty or unreadable one is the RFC 6749 invalid_request its document declares, not the service's error shape. */
function signInBody(request: HttpRequest): unknown {
  try {
    return readJsonBody(request, MAX_SIGN_IN_BYTES);
  } catch (error) {
    if (error instanceof ServiceError && error.status < 500) throw new OAuthError(400, 'invalid_request', error.message);
    throw error;
  }
}
