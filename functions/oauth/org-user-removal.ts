import type { OrgUserStore } from '../organisations/org-user-store';
import type { TokenStore } from '../management-tokens/token-store';

/**
 * Deletes an org user and revokes every token issued to them, effective on the next request. The
 * order makes a crash harmless: the user is marked first (no new token can be recorded for them, no
 * login), then their tokens are revoked, then the mark is set to expire; a repeat finishes the job.
 * False when there is no such user.
 */
export async function removeOrgUser(
  stores: { users: OrgUserStore; tokens: TokenStore },
  orgId: string,
  username: string,
  now: Date,
): Promise<{ removed: boolean; revokedTokens: number }> {
  if (!(await stores.users.markDeleted(orgId, username, now))) return { removed: false, revokedTokens: 0 };
  const revokedTokens = await stores.tokens.revokeAllOf(orgId, username, now);
  await stores.users.finishDeletion(orgId, username, now);
  return { removed: true, revokedTokens };
}
