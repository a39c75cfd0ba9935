import * as z from 'zod';
import { StoredObject } from '../stored-json';

/**
 * Sharing policy of a dashboard or workspace (spec: PolicyItem, ACLItem). The service stores and
 * returns it; ACL items are kept unique per grantee (adding a grantee again replaces its permission).
 */

const MAX_ACL_ITEMS = 500;

export const AclItem = z.strictObject({
  /** Who the permission is for: a user id, a team id or `*` for everyone in the org. */
  grantee: z.string().min(1).max(256),
  /** What the grantee may do, e.g. `read`, `edit`, `admin`; the service stores the value as given. */
  permission: z.string().min(1).max(64),
});
export type AclItem = z.infer<typeof AclItem>;

export const PolicyItem = z.strictObject({
  acl: z.array(AclItem).max(MAX_ACL_ITEMS).refine(uniqueGrantees, { message: 'lists a grantee more than once' }),
  resource: StoredObject,
  api_scopes: z.array(z.string()).optional(),
  original_encoded_resource: z.string().optional(),
});
export type PolicyItem = z.infer<typeof PolicyItem>;

function uniqueGrantees(acl: readonly AclItem[]): boolean {
  return new Set(acl.map((item) => item.grantee)).size === acl.length;
}

/** `POST .../policy/acl`: the grantee and permission, from the query string (as the original) or a JSON body. */
export const AclGrant = AclItem;
/** `DELETE .../policy/acl`: the grantee whose item is removed (query string or JSON body). */
export const AclRevoke = z.strictObject({ grantee: AclItem.shape.grantee });

/** The policy with one grantee's item set (added, or its permission replaced). */
export function withGrant(policy: PolicyItem | undefined, grant: AclItem): PolicyItem {
  const base = policy ?? { acl: [], resource: {} };
  const acl = base.acl.filter((item) => item.grantee !== grant.grantee);
  return { ...base, acl: [...acl, grant] };
}
