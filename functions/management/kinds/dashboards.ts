import { DashboardCreate, DashboardUpdate } from '../../../schemas/resources/dashboard';
import { ValidationError } from '../../shared/errors';
import { crudOperations, type CrudDeps, type CrudKind, type ResourceContext } from '../../resources/crud-operations';
import type { StoredDocument } from '../../resources/resource-store';
import { namedOperations, type ResourceDeps, type ResourceOperationTable } from '../../resources/resource-deps';
import { cascadeDeleteOperation } from './dashboard-cascade';
import { copyDashboardOperation } from './dashboard-copy';
import { DASHBOARD_PREFIX, WORKSPACE_PREFIX, rowsOf } from './dashboard-tree';
import { settledLayout } from './dashboard-layout';
import { aclOperations } from './policy-acl';
import { resolveReferences, type Reference } from '../../resources/references';
import { storable } from '../../resources/storable';

const ID_PARAM = 'dashId';

/**
 * Dashboards: CRUD (`/~/dashboards`, `/~/dashboards/{dashId}`; update is POST as in the original),
 * copy, cascade delete and ACL. `parent`, `dashboard_ids` and `workspace_ids` must name live
 * dashboards and workspaces of the same app; `layout` (the console's grid) agrees with
 * `workspace_ids` (dashboard-layout.ts).
 */
export function dashboardOperations(deps: ResourceDeps): ResourceOperationTable {
  const kind: CrudKind<DashboardCreate, DashboardUpdate> = {
    noun: 'dashboard',
    prefix: DASHBOARD_PREFIX,
    idParam: ID_PARAM,
    createSchema: DashboardCreate,
    updateSchema: DashboardUpdate,
    async toStored(input, ctx, system) {
      // workspace_ids defaults to []: an empty list beside a layout was not sent.
      const settled = { ...input, ...settledLayout(input, input.workspace_ids.length > 0 || input.layout === undefined) };
      await checkReferences(deps, ctx, settled, undefined);
      return storable({ ...system, auth_user_id: ctx.caller.sub, created: system.created_at, ...settled });
    },
    async applyUpdate(current, input, ctx) {
      const id = String(current._id);
      if (input.dashboard_id !== undefined && input.dashboard_id !== id) {
        throw new ValidationError('dashboard_id must be the id of the dashboard being updated', [{ field: 'dashboard_id', reason: `is not ${id}` }]);
      }
      const settled = { ...input, ...settledLayout(input, input.workspace_ids !== undefined, current) };
      await checkReferences(deps, ctx, settled, id, current);
      const { dashboard_id: _ignored, ...changes } = settled;
      return storable({ ...current, ...changes });
    },
  };
  const crud = crudOperations(kind, deps);
  const acl = aclOperations({ noun: 'dashboard', prefix: DASHBOARD_PREFIX, idParam: ID_PARAM, render: (stored) => stored }, deps);
  return {
    ...namedOperations('dashboards', crud),
    'dashboards.copy': copyDashboardOperation(deps, ID_PARAM),
    'dashboards.cascadeDelete': cascadeDeleteOperation(deps, ID_PARAM),
    'dashboards.aclAdd': acl.grant,
    'dashboards.aclRemove': acl.revoke,
  };
}

/** parent, dashboard_ids and workspace_ids name live resources of this app, and never the dashboard itself. */
async function checkReferences(
  deps: CrudDeps,
  ctx: ResourceContext,
  input: Partial<Pick<DashboardCreate, 'parent' | 'dashboard_ids' | 'workspace_ids'>>,
  selfId: string | undefined,
  current?: StoredDocument,
): Promise<void> {
  // On update only references the body adds are checked: a client that saves back a dashboard whose
  // child was deleted meanwhile is not refused for the reference it already had.
  const known = new Set<string>(current ? [String(current.parent), ...stringIds(current.dashboard_ids), ...rowsOf(current).flat()] : []);
  const dashboards: Reference[] = [];
  if (input.parent !== undefined) dashboards.push({ field: 'parent', id: input.parent });
  input.dashboard_ids?.forEach((id, i) => dashboards.push({ field: `dashboard_ids[${i}]`, id }));
  const self = dashboards.find((ref) => ref.id === selfId);
  if (self) throw new ValidationError(`${self.field} names the dashboard itself`, [{ field: self.field, reason: 'is the dashboard itself' }]);
  const workspaces: Reference[] = (input.workspace_ids ?? []).flatMap((row, i) => row.map((id, j) => ({ field: `workspace_ids[${i}][${j}]`, id })));
  await resolveReferences(
    deps.store,
    ctx,
    DASHBOARD_PREFIX,
    'dashboard',
    dashboards.filter((ref) => !known.has(ref.id)),
  );
  await resolveReferences(
    deps.store,
    ctx,
    WORKSPACE_PREFIX,
    'workspace',
    workspaces.filter((ref) => !known.has(ref.id)),
  );
}

const stringIds = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
