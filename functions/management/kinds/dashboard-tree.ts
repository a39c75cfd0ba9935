import { ValidationError } from '../../shared/errors';
import type { ResourceContext } from '../../resources/crud-operations';
import { MAX_TAKE, type ResourceLocation, type ResourceStore, type StoredDocument } from '../../resources/resource-store';
import { inApp } from '../../resources/references';

export const DASHBOARD_PREFIX = 'DASHBOARD';
export const WORKSPACE_PREFIX = 'WORKSPACE';
/** A copy or cascade touches at most this many dashboards (a bigger tree is refused, not half-done). */
export const MAX_TREE_DASHBOARDS = 500;

/**
 * A dashboard and everything below it. A dashboard's children are the dashboards it lists in
 * `dashboard_ids` and the dashboards whose `parent` is it. `order` lists the dashboards children
 * first (root last), so writing in that order never leaves a written parent pointing at an unwritten
 * child. Cycles (a child listing an ancestor) are cut.
 */
export interface DashboardTree {
  readonly rootId: string;
  readonly dashboards: Map<string, StoredDocument>;
  readonly order: string[];
  /** Workspace ids laid out on the tree's dashboards. */
  readonly workspaceIds: Set<string>;
  /** Workspace ids also laid out on dashboards outside the tree. */
  readonly sharedWorkspaceIds: Set<string>;
}

export async function dashboardTree(store: ResourceStore, ctx: ResourceContext, rootId: string): Promise<DashboardTree> {
  const at = inApp(ctx, DASHBOARD_PREFIX);
  const root = await store.get(at, rootId, 'dashboard');
  const all = await listAll(store, at);
  all.set(rootId, root);

  const childrenByParent = new Map<string, string[]>();
  for (const [id, doc] of all) {
    if (typeof doc.parent !== 'string') continue;
    childrenByParent.set(doc.parent, [...(childrenByParent.get(doc.parent) ?? []), id]);
  }

  const dashboards = new Map<string, StoredDocument>();
  const order: string[] = [];
  const visit = (id: string) => {
    const doc = all.get(id);
    if (!doc || dashboards.has(id)) return;
    dashboards.set(id, doc);
    if (dashboards.size > MAX_TREE_DASHBOARDS) {
      throw new ValidationError(`The dashboard ${rootId} has more than ${MAX_TREE_DASHBOARDS} dashboards below it`, [
        { field: 'dashId', reason: `tree larger than ${MAX_TREE_DASHBOARDS} dashboards` },
      ]);
    }
    for (const child of [...stringList(doc.dashboard_ids), ...(childrenByParent.get(id) ?? [])]) visit(child);
    order.push(id);
  };
  visit(rootId);

  const workspaceIds = new Set<string>();
  for (const doc of dashboards.values()) for (const row of rowsOf(doc)) for (const id of row) workspaceIds.add(id);
  const sharedWorkspaceIds = new Set<string>();
  for (const [id, doc] of all) {
    if (dashboards.has(id)) continue;
    for (const row of rowsOf(doc)) for (const ws of row) if (workspaceIds.has(ws)) sharedWorkspaceIds.add(ws);
  }
  return { rootId, dashboards, order, workspaceIds, sharedWorkspaceIds };
}

async function listAll(store: ResourceStore, at: ResourceLocation): Promise<Map<string, StoredDocument>> {
  const all = new Map<string, StoredDocument>();
  let beforeId: string | undefined;
  do {
    const page = await store.list(at, beforeId === undefined ? { take: MAX_TAKE } : { take: MAX_TAKE, beforeId });
    for (const item of page.items) all.set(item.id, item.document);
    beforeId = page.nextBeforeId;
  } while (beforeId !== undefined);
  return all;
}

const stringList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

export const rowsOf = (doc: StoredDocument): string[][] => (Array.isArray(doc.workspace_ids) ? doc.workspace_ids.map(stringList) : []);
