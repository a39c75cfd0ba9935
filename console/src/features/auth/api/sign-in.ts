import type { ManagementClient } from '../../../lib/api-client';
import { dataOf } from '../../../lib/api-client';
import { sessionFromToken, type Session } from '../../../lib/session';

export interface SignInInput {
  readonly orgId: string;
  readonly username: string;
  readonly password: string;
  /** The app the token is for; default: the organisation's first app. */
  readonly appId?: string;
}

/** The OAuth password grant: an org user's username and password for a short-lived management token. */
export async function signIn(api: ManagementClient, input: SignInInput): Promise<Session> {
  const answer = dataOf(await api.POST('/v1/{orgId}/oauth/access_tokens', {
    params: { path: { orgId: input.orgId } },
    body: { grant_type: 'password', username: input.username, password: input.password, ...(input.appId ? { app_id: input.appId } : {}) },
  })) as { access_token: string };
  return sessionFromToken(answer.access_token);
}
