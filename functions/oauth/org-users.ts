import type { CreateOrgUser, OrgUser } from '../../schemas/org';
import type { ManagementCaller } from '../auth/management-auth';
import type { OrgUserStore } from '../auth/org-user-store';
import { effectiveScopes } from '../auth/scope-list';
import { NotFoundError, UnauthorizedError } from '../shared/errors';

/**
 * Creates an org user. The caller can only hand out scopes it holds itself (an `admin` user needs
 * every scope), so update:organizations alone is no path to more power.
 */
export async function createOrgUser(users: OrgUserStore, caller: ManagementCaller, input: CreateOrgUser, now: Date): Promise<OrgUser> {
  const lacking = effectiveScopes(input.scopes).filter((s) => !caller.scopes.includes(s));
  if (lacking.length) {
    throw new UnauthorizedError(`The token cannot grant scopes it does not hold: ${lacking.join(', ')}`, lacking.map((s) => ({ field: 'scopes', reason: `missing scope ${s}` })));
  }
  return users.create(caller.org_id, input, { now });
}

export async function deleteOrgUser(users: OrgUserStore, caller: ManagementCaller, username: string): Promise<void> {
  if (!(await users.delete(caller.org_id, username))) {
    throw new NotFoundError(`No user ${username} in this organisation`, [{ field: 'username', reason: 'not found' }]);
  }
}
