import * as z from 'zod';
import { StoredObject } from '../stored-json';
import { TimeZoneName } from '../time-zone';
import { PolicyItem } from './policy';

/** Spec: ChartItem. `es_query` is further checked as an events search body (workspaces kind). */
export const ChartItem = z.strictObject({
  view: z.string().min(1).max(256),
  url_query: z.string().max(16_384),
  original_encoded_view_elements: z.string().optional(),
  original_encoded_funnel_query: z.string().optional(),
  original_encoded_query: z.string().optional(),
  args: z.string().optional(),
  to: z.string().optional(),
  from: z.string().optional(),
  time_zone: TimeZoneName.optional(),
  funnel_query: z.record(z.string(), z.unknown()).optional(),
  view_elements: z.record(z.string(), z.unknown()).optional(),
  es_query: z.record(z.string(), z.unknown()).optional(),
});
export type ChartItem = z.infer<typeof ChartItem>;

/** Spec: DrawingItem (annotations drawn on a chart), every field required. */
export const DrawingItem = z.strictObject({
  id: z.string().min(1),
  name: z.string(),
  type: z.string(),
  direction: z.string(),
  value: z.number(),
});

/** Spec: TemplateItem. A workspace with a template is a template workspace (`is_template`). */
export const TemplateItem = z.strictObject({
  dynamic_fields: z.array(z.string()),
  dynamic_time: z.boolean().optional(),
});
export type TemplateItem = z.infer<typeof TemplateItem>;

const KeyValuePair = z.strictObject({ key: z.string(), val: z.string() });

/** Spec: SequenceItem / SubmitData (stored document only; kept when present). */
export const SequenceItem = z.strictObject({
  delay: z.number().int(),
  submit_data: z.strictObject({
    url: z.string(),
    verb: z.string(),
    body: StoredObject.optional(),
    params: z.array(KeyValuePair).optional(),
    headers: z.array(KeyValuePair).optional(),
  }),
});

const workspaceFields = {
  name: z.string().min(1).max(256),
  policy: PolicyItem,
  chart: ChartItem,
  colors: StoredObject,
  drawings: z.array(DrawingItem).max(200),
  template: TemplateItem,
  width: z.number(),
  sort_order: z.number(),
};

/** Spec: WorkspaceCreateItem. */
export const WorkspaceCreate = z.strictObject({
  ...workspaceFields,
  colors: workspaceFields.colors.optional(),
  drawings: workspaceFields.drawings.optional(),
  template: workspaceFields.template.optional(),
  width: workspaceFields.width.optional(),
  sort_order: workspaceFields.sort_order.optional(),
  is_default: z.boolean().optional(),
  view_count: z.number().int().min(0).optional(),
  dashboard: StoredObject.optional(),
  type: z.string().max(64).optional(),
});
export type WorkspaceCreate = z.infer<typeof WorkspaceCreate>;

/** Spec: WorkspaceUpdateItem, all optional. */
export const WorkspaceUpdate = z.strictObject({
  name: workspaceFields.name.optional(),
  colors: workspaceFields.colors.optional(),
  drawings: workspaceFields.drawings.optional(),
  chart: workspaceFields.chart.optional(),
  /** null: the workspace is no longer a template (customer tokens stop opening it). */
  template: workspaceFields.template.nullable().optional(),
  width: workspaceFields.width.optional(),
  sort_order: workspaceFields.sort_order.optional(),
  policy: workspaceFields.policy.optional(),
});
export type WorkspaceUpdate = z.infer<typeof WorkspaceUpdate>;

/** Spec: CreateCommentItem, a stored comment (and the summary's latest_comment). Answers add `workspace_id`. */
export const StoredComment = z.object({
  comment_id: z.string(),
  auth_user_id: z.string(),
  partner_user_id: z.string().optional(),
  message: z.string(),
  mentions: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type StoredComment = z.infer<typeof StoredComment>;

/** Spec: Comments / Summary. */
export const CommentsSummary = z.object({
  summary: z.object({ count: z.number().int(), latest_comment: StoredComment.extend({ workspace_id: z.string().optional() }).optional() }),
});
export type CommentsSummary = z.infer<typeof CommentsSummary>;

/** Spec: CommentItem, the body of adding or editing a comment. A new comment needs a message. */
export const CommentCreate = z.strictObject({
  message: z.string().min(1).max(10_000),
  mentions: z.array(z.string().min(1).max(256)).max(100).default([]),
});
export const CommentUpdate = z.strictObject({
  message: CommentCreate.shape.message.optional(),
  mentions: z.array(z.string().min(1).max(256)).max(100).optional(),
});
export type CommentCreate = z.infer<typeof CommentCreate>;
export type CommentUpdate = z.infer<typeof CommentUpdate>;

/** The stored document (spec: WorkspaceDocument). */
export const WorkspaceDocument = z.object({
  _id: z.string(),
  auth_user_id: z.string(),
  org_id: z.string(),
  app_id: z.string(),
  created: z.string(),
  /** When it was stored and last changed (ISO 8601), as every managed resource. */
  created_at: z.string().optional(),
  modified_at: z.string().optional(),
  view_count: z.number().int(),
  name: z.string().optional(),
  is_default: z.boolean().optional(),
  is_template: z.boolean().optional(),
  dashboard: StoredObject.optional(),
  colors: StoredObject.optional(),
  sequence: z.array(SequenceItem).optional(),
  drawings: z.array(DrawingItem).optional(),
  chart: ChartItem.optional(),
  template: TemplateItem.optional(),
  type: z.string().optional(),
  width: z.number().optional(),
  sort_order: z.number().optional(),
  policy: PolicyItem.optional(),
  migration: StoredObject.optional(),
  comments: CommentsSummary.optional(),
});
export type WorkspaceDocument = z.infer<typeof WorkspaceDocument>;

/** A comment as the comment routes answer it. */
export const CommentDocument = StoredComment.extend({ workspace_id: z.string() });
export type CommentDocument = z.infer<typeof CommentDocument>;
