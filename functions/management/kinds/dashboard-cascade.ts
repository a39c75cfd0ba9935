import type { DashboardCascadeResult } from '../../../schemas/resources/dashboard';
import type { ManagementCaller } from '../../management-tokens/management-auth';
import { GoneError, NotFoundError } from '../../shared/errors';
import type { Operation } from '../../shared/http/handler';
import { contextOf, type CrudDeps } from '../../resources/crud-operations';
import { DASHBOARD_PREFIX, dashboardTree } from './dashboard-tree';
import { inApp } from '../../resources/references';
import { deleteWorkspace } from './workspace-removal';

/**
 * `DELETE /~/dashboards/{dashId}/cascade`: deletes the dashboard, every dashboard below it, and the
 * workspaces laid out on them, except workspaces that a dashboard outside the tree also shows.
 * Workspaces go first, then dashboards children first, root last: if it stops part-way, the root is
 * still there and repeating the call finishes the job (already deleted items are skipped).
 * Answers 200 `{deleted: {dashboards: [...ids], workspaces: [...ids]}}`.
 */
export function cascadeDeleteOperation(deps: CrudDeps, idParam: string): Operation<ManagementCaller | undefined> {
  const now = deps.now ?? (() => new Date());
  return async (request, caller) => {
    const ctx = contextOf(request, caller, now());
    const tree = await dashboardTree(deps.store, ctx, request.pathParams[idParam] ?? '');
    const workspaces: string[] = [];
    for (const id of tree.workspaceIds) {
      if (tree.sharedWorkspaceIds.has(id)) continue;
      if (await skippingMissing(() => deleteWorkspace(deps.store, ctx, id))) workspaces.push(id);
    }
    const dashboards: string[] = [];
    const at = inApp(ctx, DASHBOARD_PREFIX);
    for (const id of tree.order) {
      if (await skippingMissing(() => deps.store.delete(at, id, 'dashboard'))) dashboards.push(id);
    }
    return { status: 200, body: { deleted: { dashboards, workspaces } } satisfies DashboardCascadeResult };
  };
}

/** Runs a delete; false when the item was already gone (or never existed). */
async function skippingMissing(remove: () => Promise<unknown>): Promise<boolean> {
  try {
    await remove();
    return true;
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof GoneError) return false;
    throw error;
  }
}
