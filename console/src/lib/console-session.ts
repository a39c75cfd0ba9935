import { dataOf, type ManagementClient } from './api-client';
import { sessionFromToken, type Session } from './session';

/**
 * The console session's endpoints: sign-in answers a one-hour token and sets the HttpOnly session
 * cookie; refresh trades the cookie for a new token (any tab, after a reload, before the hour is
 * up); sign-out ends the session. The cookie is the browser's business: scripts never see it.
 */

export interface SignInInput {
  readonly orgId: string;
  readonly username: string;
  readonly password: string;
  /** The app the token is for; default: the organisation's first app. */
  readonly appId?: string;
}

export async function startSession(api: ManagementClient, input: SignInInput): Promise<Session> {
  const answer = dataOf(
    await api.POST('/oauth/console_session', {
      body: { org_id: input.orgId, username: input.username, password: input.password, ...(input.appId ? { app_id: input.appId } : {}) },
    }),
  );
  return sessionFromToken(answer.access_token);
}

/** A new token for the cookie's session, or undefined when there is none (then the person signs in). */
export async function refreshSession(api: ManagementClient): Promise<Session | undefined> {
  const result = await api.POST('/oauth/console_session/refresh', {});
  return result.response.ok && result.data ? sessionFromToken(result.data.access_token) : undefined;
}

export async function endSession(api: ManagementClient): Promise<void> {
  await api.DELETE('/oauth/console_session', {}).catch(() => undefined);
}

/** Renew this long before the token's end, so a request never goes out with an expired one. */
export const RENEW_BEFORE_MS = 5 * 60_000;
