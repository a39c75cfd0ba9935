import { DashboardCopy } from '../../../schemas/resources/dashboard';
import type { ManagementCaller } from '../../management-tokens/management-auth';
import { mapWithConcurrency } from '../../shared/concurrency';
import { GoneError, NotFoundError, ValidationError } from '../../shared/errors';
import type { Operation } from '../../shared/http/handler';
import { contextOf, type CrudDeps, type ResourceContext } from '../../resources/crud-operations';
import { newResourceId, type ResourceStore, type StoredDocument } from '../../resources/resource-store';
import { DASHBOARD_PREFIX, WORKSPACE_PREFIX, dashboardTree, rowsOf } from './dashboard-tree';
import { layoutWithIds } from './dashboard-layout';
import { optionalObjectBody } from '../../resources/optional-body';
import { inApp } from '../../resources/references';
import { parseBody } from '../../shared/invalid-input';

const READS_IN_FLIGHT = 8;

/**
 * `POST /~/dashboards/{dashId}/copy` (and the original's `/~/dashboard/{id}/copy`): a deep copy of
 * the dashboard, every dashboard below it, and the workspaces laid out on them, all with new ids,
 * in the same app. The copy's root is named `body.name` or "<name> (copy)" and has the original's
 * parent; `dashboard_ids`, `workspace_ids` and children's `parent` point at the copies. Copied:
 * names, layout, sort orders, policies (ACLs), charts and every other field. Not copied: comments
 * (copies start with none) and view counts (0). The caller becomes `auth_user_id` of every copy.
 * A `to_app_id` other than the token's app is refused: a token acts on one app. Answers 201 with
 * the root copy. Copies are written children first, so a failure never leaves a copied dashboard
 * pointing at a copy that was not written.
 */
export function copyDashboardOperation(deps: CrudDeps, idParam: string): Operation<ManagementCaller | undefined> {
  const now = deps.now ?? (() => new Date());
  return async (request, caller) => {
    const ctx = contextOf(request, caller, now());
    const toApp = request.query.to_app_id;
    if (toApp !== undefined && toApp !== '~' && toApp !== ctx.appId) {
      throw new ValidationError("A dashboard can be copied only within the token's app", [{ field: 'to_app_id', reason: "is not the token's app" }]);
    }
    const options = parseBody(DashboardCopy, optionalObjectBody(request));
    const tree = await dashboardTree(deps.store, ctx, request.pathParams[idParam] ?? '');
    const workspaces = await loadLive(deps.store, ctx, [...tree.workspaceIds]);

    const nowMs = Date.parse(ctx.now);
    const dashboardIds = new Map([...tree.dashboards.keys()].map((id) => [id, newResourceId(nowMs)]));
    const workspaceIds = new Map([...workspaces.keys()].map((id) => [id, newResourceId(nowMs)]));
    const fresh = (newId: string) => ({ _id: newId, auth_user_id: ctx.caller.sub, created: ctx.now, created_at: ctx.now, modified_at: ctx.now });

    await mapWithConcurrency([...workspaces], READS_IN_FLIGHT, async ([oldId, doc]) => {
      const newId = workspaceIds.get(oldId)!;
      await createOrFail(deps.store, inApp(ctx, WORKSPACE_PREFIX), newId, { ...doc, ...fresh(newId), view_count: 0, comments: { summary: { count: 0 } } });
    });

    let root: StoredDocument | undefined;
    for (const oldId of tree.order) {
      const doc = tree.dashboards.get(oldId)!;
      const newId = dashboardIds.get(oldId)!;
      const isRoot = oldId === tree.rootId;
      const copy: StoredDocument = {
        ...doc,
        ...fresh(newId),
        name: isRoot ? (options.name ?? `${String(doc.name)} (copy)`) : doc.name,
        dashboard_ids: (Array.isArray(doc.dashboard_ids) ? (doc.dashboard_ids as string[]) : []).flatMap((id) =>
          dashboardIds.has(id) ? [dashboardIds.get(id)!] : [],
        ),
        workspace_ids: rowsOf(doc).map((row) => row.flatMap((id) => (workspaceIds.has(id) ? [workspaceIds.get(id)!] : []))),
      };
      const layout = layoutWithIds(doc, workspaceIds);
      if (layout !== undefined) copy.layout = layout;
      if (!isRoot && typeof doc.parent === 'string' && dashboardIds.has(doc.parent)) copy.parent = dashboardIds.get(doc.parent);
      await createOrFail(deps.store, inApp(ctx, DASHBOARD_PREFIX), newId, copy);
      if (isRoot) root = copy;
    }
    return { status: 201, body: root };
  };
}

/** The workspaces that still exist (a layout may name one deleted since; the copy leaves it out). */
async function loadLive(store: ResourceStore, ctx: ResourceContext, ids: string[]): Promise<Map<string, StoredDocument>> {
  const at = inApp(ctx, WORKSPACE_PREFIX);
  const found = new Map<string, StoredDocument>();
  await mapWithConcurrency(ids, READS_IN_FLIGHT, async (id) => {
    try {
      found.set(id, await store.get(at, id, 'workspace'));
    } catch (error) {
      if (!(error instanceof NotFoundError) && !(error instanceof GoneError)) throw error;
    }
  });
  return found;
}

async function createOrFail(store: ResourceStore, at: { partition: string; prefix: string }, id: string, doc: StoredDocument): Promise<void> {
  if (!(await store.create(at, id, doc))) throw new Error(`resource id ${id} already taken`);
}
