import type { ManagementClient } from '../../../lib/api-client';
import { endSession } from '../../../lib/console-session';
import type { Session } from '../../../lib/session';

/**
 * Ends the console session (its cookie is refused from then on, in every tab) and revokes the
 * page's token, so it is refused from the next request on, wherever it was copied. Signing out
 * never fails for the user: a token that cannot be revoked (no create:access_tokens scope,
 * already expired) is forgotten all the same.
 */
export async function signOut(api: ManagementClient, session: Session): Promise<void> {
  await endSession(api);
  if (!session.tokenId || !session.scopes.includes('create:access_tokens')) return;
  await api.DELETE('/~/oauth/access_tokens/{tokenId}', { params: { path: { tokenId: session.tokenId } } }).catch(() => undefined);
}
