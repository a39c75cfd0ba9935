import { AclGrant, AclRevoke, PolicyItem, withGrant } from '../../../schemas/resources/policy';
import type { ManagementCaller } from '../../management-tokens/management-auth';
import { NotFoundError } from '../../shared/errors';
import type { Operation } from '../../shared/http/handler';
import type { HttpRequest } from '../../shared/http/types';
import { contextOf, readObjectBody, type CrudDeps, type ResourceContext } from '../../resources/crud-operations';
import type { StoredDocument } from '../../resources/resource-store';
import { hasBody } from '../../resources/optional-body';
import { inApp } from '../../resources/references';
import { parseBody } from '../../shared/invalid-input';

export interface AclTarget {
  readonly noun: string;
  readonly prefix: string;
  readonly idParam: string;
  readonly render: (stored: StoredDocument, ctx: ResourceContext) => unknown;
}

/**
 * `POST /{id}/policy/acl` sets one grantee's permission (adds the ACL item, or replaces the
 * grantee's permission); `DELETE /{id}/policy/acl` removes the grantee's item (404 naming `grantee`
 * when it has none). Grantee and permission come from the query string, as in the original, or from
 * a JSON body. Both answer 200 with the updated document.
 */
export function aclOperations(
  target: AclTarget,
  deps: CrudDeps,
): { grant: Operation<ManagementCaller | undefined>; revoke: Operation<ManagementCaller | undefined> } {
  const now = deps.now ?? (() => new Date());
  const change = async (request: HttpRequest, caller: ManagementCaller | undefined, edit: (policy: PolicyItem | undefined) => PolicyItem) => {
    const ctx = contextOf(request, caller, now());
    const id = request.pathParams[target.idParam] ?? '';
    const stored = await deps.store.update(inApp(ctx, target.prefix), id, target.noun, (current, modifiedAt) => {
      // Re-validated: the result must still be a valid policy (e.g. within the ACL size cap).
      const policy = parseBody(PolicyItem, edit(current.policy as PolicyItem | undefined));
      return { ...current, policy, modified_at: modifiedAt };
    });
    return { status: 200, body: target.render(stored, ctx) };
  };

  return {
    grant: async (request, caller) => {
      const grant = parseBody(AclGrant, aclInput(request, ['grantee', 'permission']));
      return change(request, caller, (policy) => withGrant(policy, grant));
    },
    revoke: async (request, caller) => {
      const { grantee } = parseBody(AclRevoke, aclInput(request, ['grantee']));
      return change(request, caller, (policy) => {
        if (!policy?.acl.some((item) => item.grantee === grantee)) {
          throw new NotFoundError(`The ${target.noun}'s policy has no ACL item for ${grantee}`, [{ field: 'grantee', reason: 'has no ACL item' }]);
        }
        return { ...policy, acl: policy.acl.filter((item) => item.grantee !== grantee) };
      });
    },
  };
}

/** The ACL fields from a JSON body when one is sent, else from the query string. */
function aclInput(request: HttpRequest, names: readonly string[]): Record<string, unknown> {
  if (hasBody(request)) return readObjectBody(request);
  return Object.fromEntries(names.filter((name) => request.query[name] !== undefined).map((name) => [name, request.query[name]]));
}
