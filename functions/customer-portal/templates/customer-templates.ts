import type { CustomerClaims, CustomerTemplate } from '../../../schemas/resources/customer-access';
import type { SharedTimeRange } from '../../../schemas/resources/shared-view';
import { TemplateItem } from '../../../schemas/resources/workspace';
import { resourceKey, type ResourceStore, type StoredDocument } from '../../resources/resource-store';
import { shownWorkspace } from '../../shared-views/shared-view-operations';
import { targetLocation } from '../../shared-views/signed-token-records';
import type { RequiredTerm } from '../../shared-views/stored-chart';
import { ownRange } from '../../shared-views/time-ranges';
import { GoneError, NotFoundError, UnauthorizedError } from '../../shared/errors';

/** Template workspaces listed for a token that names none (the app's templates, newest first). */
export const MAX_LISTED_TEMPLATES = 100;

/** A template workspace a customer token opens: the stored workspace and the terms its values bind. */
export interface OpenedTemplate {
  readonly workspace: StoredDocument;
  readonly template: TemplateItem;
  readonly required: RequiredTerm[];
  readonly timeRanges: SharedTimeRange[];
}

/**
 * Whether a token opens a workspace, and how: the workspace must be a template, named by the token
 * (when it names templates), and every one of its dynamic fields must have a value in the token
 * (those values become required filters). Anything else is a 401 naming the reason.
 */
export function openTemplate(claims: CustomerClaims, workspace: StoredDocument): OpenedTemplate | { refused: string } {
  const id = String(workspace['_id'] ?? '');
  if (claims.templates && !claims.templates.includes(id)) return { refused: 'is not a template this token opens' };
  const template = TemplateItem.safeParse(workspace['template']);
  if (workspace['is_template'] !== true || !template.success) return { refused: 'is not a template workspace' };
  // A template with no dynamic field would show every customer's events to each of them.
  if (template.data.dynamic_fields.length === 0) return { refused: 'has no dynamic fields (it would show every customer the same data)' };
  const unbound = template.data.dynamic_fields.filter((field) => claims.values[field] === undefined);
  if (unbound.length > 0) return { refused: `has dynamic field${unbound.length === 1 ? '' : 's'} ${unbound.join(', ')} the token binds no value to` };
  const own = ownRange(workspace['chart'] as { from?: unknown; to?: unknown } | undefined);
  return {
    workspace,
    template: template.data,
    required: template.data.dynamic_fields.map((field) => ({ field, value: claims.values[field]! })),
    // A template whose time is not dynamic shows its own range only; otherwise the ranges the token allows.
    timeRanges: template.data.dynamic_time ? (claims.time_ranges ?? [own]) : [own],
  };
}

/** The template workspace a customer asks data of: 401 when the token does not open it (or it is gone). */
export async function openedTemplate(store: ResourceStore, claims: CustomerClaims, workspaceId: string): Promise<OpenedTemplate> {
  const refused = (reason: string) => new UnauthorizedError(`Workspace ${workspaceId} ${reason}`, [{ field: 'workspaceId', reason }]);
  let workspace: StoredDocument;
  try {
    workspace = await store.get(targetLocation(claims.org_id, claims.app_id, 'workspace'), workspaceId, 'workspace');
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof GoneError) throw refused('is not a template this token opens');
    throw error;
  }
  const opened = openTemplate(claims, workspace);
  if ('refused' in opened) throw refused(opened.refused);
  return opened;
}

/** Every template the token opens, as the customer sees them. */
export async function openedTemplates(store: ResourceStore, claims: CustomerClaims): Promise<CustomerTemplate[]> {
  const at = targetLocation(claims.org_id, claims.app_id, 'workspace');
  const workspaces = claims.templates
    ? await store.getItems(claims.templates.map((id) => resourceKey(at, id)))
    : (await store.list(at, { take: MAX_LISTED_TEMPLATES, where: { attribute: 'is_template', value: true } })).items.map((item) => item.document);
  const order = new Map((claims.templates ?? []).map((id, i) => [id, i]));
  return workspaces
    .map((workspace) => openTemplate(claims, workspace))
    .flatMap((opened) => ('refused' in opened ? [] : [opened]))
    .sort((a, b) => (order.get(String(a.workspace['_id'])) ?? 0) - (order.get(String(b.workspace['_id'])) ?? 0))
    .map((opened) => ({
      ...shownWorkspace(opened.workspace),
      dynamic_fields: opened.template.dynamic_fields,
      dynamic_time: opened.template.dynamic_time ?? false,
      time_ranges: opened.timeRanges,
    }));
}
