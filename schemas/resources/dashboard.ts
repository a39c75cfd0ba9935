import * as z from 'zod';
import { StoredObject } from '../stored-json';
import { PolicyItem } from './policy';

/** Ids of other resources of the same app (dashboards, workspaces) as the API carries them. */
const ResourceId = z.string().min(1).max(128);

/** Every referenced id is checked to exist, so a body may name only so many. */
export const MAX_CHILD_DASHBOARDS = 100;
export const MAX_DASHBOARD_WORKSPACES = 200;

/** Columns of the console's dashboard grid; a tile's `x + w` stays within them. */
export const DASHBOARD_COLUMNS = 12;
/** A tile's height in grid rows (the console draws a row 40 px high). */
export const MAX_TILE_HEIGHT = 24;

/** Where one workspace sits on the dashboard's grid, in grid units (not in the spec: the console's saved layout). */
export const DashboardTile = z
  .strictObject({
    workspace_id: ResourceId,
    x: z
      .int()
      .min(0)
      .max(DASHBOARD_COLUMNS - 1),
    y: z.int().min(0).max(10_000),
    w: z.int().min(1).max(DASHBOARD_COLUMNS),
    h: z.int().min(2).max(MAX_TILE_HEIGHT),
  })
  .refine((tile) => tile.x + tile.w <= DASHBOARD_COLUMNS, { message: `x + w must be at most ${DASHBOARD_COLUMNS}`, path: ['w'] });
export type DashboardTile = z.infer<typeof DashboardTile>;

/** A grid layout names each workspace at most once. */
const DashboardLayout = z
  .array(DashboardTile)
  .max(MAX_DASHBOARD_WORKSPACES)
  .superRefine((tiles, ctx) => {
    const seen = new Set<string>();
    tiles.forEach((tile, i) => {
      if (seen.has(tile.workspace_id)) ctx.addIssue({ code: 'custom', message: 'names a workspace placed earlier in the layout', path: [i, 'workspace_id'] });
      seen.add(tile.workspace_id);
    });
  });

/** Fields a caller may set on a dashboard (spec: DashboardUpdateItem). */
const dashboardFields = {
  parent: ResourceId,
  name: z.string().min(1).max(256),
  /** Child dashboards, in display order. */
  dashboard_ids: z.array(ResourceId).max(MAX_CHILD_DASHBOARDS),
  /** The workspaces laid out on the dashboard: rows of workspace ids. */
  workspace_ids: z.array(z.array(ResourceId)).refine((rows) => rows.flat().length <= MAX_DASHBOARD_WORKSPACES, {
    message: `may lay out at most ${MAX_DASHBOARD_WORKSPACES} workspaces`,
  }),
  sort_order: z.number(),
  policy: PolicyItem,
  /**
   * The grid: position and size of its workspaces. Sent alone, it also sets `workspace_ids` (rows by
   * `y`, in `x` order); sent with them, it may only place workspaces they list. A workspace without
   * a tile is placed below the others.
   */
  layout: DashboardLayout,
};

/**
 * Create: the update fields with `name` required (the spec shows no create body; the stored
 * document requires name, dashboard_ids and workspace_ids, the lists default to empty).
 */
export const DashboardCreate = z.strictObject({
  ...dashboardFields,
  name: dashboardFields.name,
  parent: dashboardFields.parent.optional(),
  dashboard_ids: dashboardFields.dashboard_ids.default([]),
  workspace_ids: dashboardFields.workspace_ids.default([]),
  sort_order: dashboardFields.sort_order.optional(),
  policy: dashboardFields.policy.optional(),
  layout: dashboardFields.layout.optional(),
  profile_view_promotion: z.string().max(256).optional(),
});
export type DashboardCreate = z.infer<typeof DashboardCreate>;

/** Update (spec: DashboardUpdateItem): all optional; `dashboard_id`, when sent, must name the dashboard being updated. */
export const DashboardUpdate = z.strictObject({
  parent: dashboardFields.parent.optional(),
  name: dashboardFields.name.optional(),
  dashboard_id: ResourceId.optional(),
  workspace_ids: dashboardFields.workspace_ids.optional(),
  sort_order: dashboardFields.sort_order.optional(),
  dashboard_ids: dashboardFields.dashboard_ids.optional(),
  policy: dashboardFields.policy.optional(),
  layout: dashboardFields.layout.optional(),
});
export type DashboardUpdate = z.infer<typeof DashboardUpdate>;

/** The stored document (spec: DashboardDocument). */
export const DashboardDocument = z.object({
  _id: z.string(),
  auth_user_id: z.string(),
  org_id: z.string(),
  app_id: z.string(),
  created: z.string(),
  /** When it was stored and last changed (ISO 8601), as every managed resource. */
  created_at: z.string().optional(),
  modified_at: z.string().optional(),
  name: z.string(),
  dashboard_ids: z.array(z.string()),
  workspace_ids: z.array(z.array(z.string())),
  layout: z.array(DashboardTile).optional(),
  parent: z.string().optional(),
  profile_view_promotion: z.string().optional(),
  sort_order: z.number().optional(),
  policy: PolicyItem.optional(),
  migration: StoredObject.optional(),
});
export type DashboardDocument = z.infer<typeof DashboardDocument>;

/** `POST /~/dashboards/{id}/copy` body (optional): the copy's name; default "<name> (copy)". */
export const DashboardCopy = z.strictObject({
  name: dashboardFields.name.optional(),
});
export type DashboardCopy = z.infer<typeof DashboardCopy>;

/** `DELETE /~/dashboards/{dashId}/cascade` answer: the ids actually deleted. */
export const DashboardCascadeResult = z.object({
  deleted: z.object({ dashboards: z.array(z.string()), workspaces: z.array(z.string()) }),
});
export type DashboardCascadeResult = z.infer<typeof DashboardCascadeResult>;
