import type { CreateOrgUser, OrgUser } from '../../schemas/org';
import type { ManagementCaller } from '../management-tokens/management-auth';
import { removeOrgUser } from './org-user-removal';
import type { OrgUserStore } from '../organisations/org-user-store';
import { effectiveScopes } from '../management-tokens/scope-list';
import type { TokenStore } from '../management-tokens/token-store';
import { NotFoundError, UnauthorizedError } from '../shared/errors';

/**
 * Creates an org user. The caller can only hand out scopes it holds itself (an `admin` user needs
 * every scope), so update:organizations alone is no path to more power.
 */
export async function createOrgUser(users: OrgUserStore, caller: ManagementCaller, input: CreateOrgUser, now: Date): Promise<OrgUser> {
  const lacking = effectiveScopes(input.scopes).filter((s) => !caller.scopes.includes(s));
  if (lacking.length) {
    throw new UnauthorizedError(
      `The token cannot grant scopes it does not hold: ${lacking.join(', ')}`,
      lacking.map((s) => ({ field: 'scopes', reason: `missing scope ${s}` })),
    );
  }
  return users.create(caller.org_id, input, { now });
}

/** Deletes the user; every token issued to them is refused from the next request on. */
export async function deleteOrgUser(stores: { users: OrgUserStore; tokens: TokenStore }, caller: ManagementCaller, username: string, now: Date): Promise<void> {
  if (!(await removeOrgUser(stores, caller.org_id, username, now)).removed) {
    throw new NotFoundError(`No user ${username} in this organisation`, [{ field: 'username', reason: 'not found' }]);
  }
}
