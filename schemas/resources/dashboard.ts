import * as z from 'zod';
import { StoredObject } from '../stored-json';
import { PolicyItem } from './policy';

/** Ids of other resources of the same app (dashboards, workspaces) as the API carries them. */
const ResourceId = z.string().min(1).max(128);

/** Every referenced id is checked to exist, so a body may name only so many. */
export const MAX_CHILD_DASHBOARDS = 100;
export const MAX_DASHBOARD_WORKSPACES = 200;

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
