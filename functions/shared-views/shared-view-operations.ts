import * as z from 'zod';
import { DrawingItem } from '../../schemas/resources/workspace';
import type { SharedView, SharedViewClaims, SharedWorkspace, SharedViewTokenRecord } from '../../schemas/resources/shared-view';
import { rowsOf } from '../management/kinds/dashboard-tree';
import { resourceKey, type ResourceStore, type StoredDocument } from '../resources/resource-store';
import { GoneError, NotFoundError, UnauthorizedError } from '../shared/errors';
import type { Operation } from '../shared/http/handler';
import { targetLocation } from './signed-token-records';
import { runStoredChart, type StoredChartDeps } from './stored-chart';
import { allowedRange } from './time-ranges';

/** Who is reading a shared view: the verified token and its live record. */
export interface SharedViewCaller {
  readonly claims: SharedViewClaims;
  readonly record: SharedViewTokenRecord;
}

export interface SharedViewOperationDeps extends StoredChartDeps {
  readonly store: ResourceStore;
  readonly now?: () => Date;
}

/** Workspaces one dashboard may show to a viewer (a dashboard is a grid, not a list of thousands). */
export const MAX_SHARED_DASHBOARD_WORKSPACES = 100;

/** Fields of a workspace a viewer sees: what draws the chart, never its policy, owner or comments. */
const SHOWN_CHART_FIELDS = ['view', 'url_query', 'from', 'to', 'time_zone', 'es_query', 'funnel_query', 'view_elements'] as const;

/**
 * The public side of shared views: the workspace (or dashboard and its workspaces) a token shares,
 * and each shared workspace's stored query run over one of the time ranges the owner allowed. A
 * viewer sends no query: what runs is what is stored, so a token reads nothing else.
 */
export function sharedViewOperations(deps: SharedViewOperationDeps): Record<string, Operation<SharedViewCaller>> {
  const now = deps.now ?? (() => new Date());

  return {
    sharedView: async (_request, { claims, record }) => {
      const { name, workspaces } = await sharedContent(deps.store, claims);
      const view: SharedView = {
        kind: claims.kind,
        name,
        workspaces: workspaces.map(shownWorkspace),
        time_ranges: record.time_ranges,
        time_zone: record.time_zone,
        expires_at: record.expires_at,
      };
      return { status: 200, body: view };
    },

    sharedViewData: async (request, { claims, record }) => {
      const workspace = await sharedWorkspace(deps.store, claims, request.pathParams['workspaceId'] ?? '');
      const range = allowedRange(record.time_ranges, request.query['range'], 'shared-view token');
      const answer = await runStoredChart(deps, {
        scope: { org_id: claims.org_id, app_id: claims.app_id },
        workspace,
        range,
        timeZone: record.time_zone,
        now: now(),
        ...(request.disconnected ? { disconnected: request.disconnected } : {}),
      });
      return { status: 200, body: answer };
    },
  };
}

/** The token's workspace or dashboard, as stored now; a 404 once it is deleted. */
async function sharedTarget(store: ResourceStore, claims: SharedViewClaims): Promise<StoredDocument> {
  try {
    return await store.get(targetLocation(claims.org_id, claims.app_id, claims.kind), claims.id, claims.kind);
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof GoneError) throw new NotFoundError(`The shared ${claims.kind} no longer exists`);
    throw error;
  }
}

/**
 * One workspace whose data a viewer asks for: the token's own, or one on the token's dashboard
 * (read alone, not with the whole dashboard: each tile asks for its own). 401 for any other.
 */
async function sharedWorkspace(store: ResourceStore, claims: SharedViewClaims, workspaceId: string): Promise<StoredDocument> {
  const refused = () =>
    new UnauthorizedError(`The shared-view token does not share workspace ${workspaceId}`, [{ field: 'workspaceId', reason: 'not shared by this token' }]);
  if (claims.kind === 'workspace') {
    if (workspaceId !== claims.id) throw refused();
    return sharedTarget(store, claims);
  }
  if (!dashboardWorkspaceIds(await sharedTarget(store, claims)).includes(workspaceId)) throw refused();
  try {
    return await store.get(targetLocation(claims.org_id, claims.app_id, 'workspace'), workspaceId, 'workspace');
  } catch (error) {
    // Deleted since it was put on the dashboard: the dashboard no longer shows it.
    if (error instanceof NotFoundError || error instanceof GoneError) throw refused();
    throw error;
  }
}

/** What the token shares, read now: a workspace, or a dashboard and the workspaces on it. */
async function sharedContent(store: ResourceStore, claims: SharedViewClaims): Promise<{ name: string; workspaces: StoredDocument[] }> {
  const target = await sharedTarget(store, claims);
  const name = typeof target['name'] === 'string' ? target['name'] : '';
  if (claims.kind === 'workspace') return { name, workspaces: [target] };
  const ids = dashboardWorkspaceIds(target);
  const at = targetLocation(claims.org_id, claims.app_id, 'workspace');
  const found = new Map((await store.getItems(ids.map((id) => resourceKey(at, id)))).map((item) => [String(item['_id']), item]));
  // In the dashboard's order; workspaces deleted since are left out.
  return { name, workspaces: ids.map((id) => found.get(id)).filter((item): item is StoredDocument => item !== undefined) };
}

/** The workspaces a shared dashboard shows, in its order (each once, at most MAX_SHARED_DASHBOARD_WORKSPACES). */
const dashboardWorkspaceIds = (dashboard: StoredDocument): string[] => [...new Set(rowsOf(dashboard).flat())].slice(0, MAX_SHARED_DASHBOARD_WORKSPACES);

export function shownWorkspace(stored: StoredDocument): SharedWorkspace {
  const chart = (stored['chart'] ?? {}) as Record<string, unknown>;
  const shownChart = Object.fromEntries(SHOWN_CHART_FIELDS.filter((field) => chart[field] !== undefined).map((field) => [field, chart[field]]));
  // Checked when the workspace was written; read back as the shape the answer declares.
  const drawings = z.array(DrawingItem).safeParse(stored['drawings']);
  return {
    _id: String(stored['_id']),
    ...(typeof stored['name'] === 'string' ? { name: stored['name'] } : {}),
    chart: shownChart,
    ...(stored['colors'] !== undefined ? { colors: stored['colors'] as Record<string, unknown> } : {}),
    ...(drawings.success ? { drawings: drawings.data } : {}),
    ...(typeof stored['width'] === 'number' ? { width: stored['width'] } : {}),
  };
}
