import { WorkspaceCreate, WorkspaceUpdate, type ChartItem } from '../../../schemas/resources/workspace';
import { parseSearchRequest } from '../../search/dsl';
import { assertTimeZone } from '../../search/dates/time-zone';
import { ValidationError } from '../../shared/errors';
import { contextOf, crudOperations, listOptions, type CrudKind } from '../../resources/crud-operations';
import type { StoredDocument } from '../../resources/resource-store';
import { namedOperations, type ResourceDeps, type ResourceOperationTable } from '../../resources/resource-deps';
import { WORKSPACE_PREFIX } from './dashboard-tree';
import { aclOperations } from './policy-acl';
import { inApp, nextPageHeader } from '../../resources/references';
import { storable } from '../../resources/storable';
import { commentOperations } from './workspace-comments';
import { deleteWorkspace } from './workspace-removal';

const ID_PARAM = 'id';

/**
 * Workspaces (saved charts): CRUD under `/~/workspaces` (update is POST as in the original),
 * `GET /~/workspaces/templates`, ACL, and comments (workspace-comments.ts). A workspace with a
 * `template` is a template (`is_template`, kept in step with `template`). `chart.es_query`, when
 * present, must be a valid events search body; `chart.time_zone` a TZ database name.
 */
export function workspaceOperations(deps: ResourceDeps): ResourceOperationTable {
  const now = deps.now ?? (() => new Date());
  const kind: CrudKind<WorkspaceCreate, WorkspaceUpdate> = {
    noun: 'workspace',
    prefix: WORKSPACE_PREFIX,
    idParam: ID_PARAM,
    createSchema: WorkspaceCreate,
    updateSchema: WorkspaceUpdate,
    toStored(input, ctx, system) {
      const chart = checkedChart(input.chart);
      return storable({
        ...system,
        auth_user_id: ctx.caller.sub,
        created: system.created_at,
        ...input,
        chart,
        view_count: input.view_count ?? 0,
        is_template: input.template !== undefined,
        comments: { summary: { count: 0 } },
      });
    },
    applyUpdate(current, input) {
      const next: StoredDocument = { ...current, ...input };
      if (input.chart !== undefined) next.chart = checkedChart(input.chart);
      if (input.template === null) {
        delete next.template;
        next.is_template = false;
      } else if (input.template !== undefined) next.is_template = true;
      return storable(next);
    },
    listFilter: (query) => (query.type === undefined ? undefined : { attribute: 'type', value: query.type }),
  };
  const crud = crudOperations(kind, deps);
  const acl = aclOperations({ noun: 'workspace', prefix: WORKSPACE_PREFIX, idParam: ID_PARAM, render: (stored) => stored }, deps);
  return {
    ...namedOperations('workspaces', crud),
    'workspaces.delete': async (request, caller) => {
      await deleteWorkspace(deps.store, contextOf(request, caller, now()), request.pathParams[ID_PARAM] ?? '');
      return { status: 204 };
    },
    'workspaces.templates': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const page = await deps.store.list(inApp(ctx, WORKSPACE_PREFIX), { ...listOptions(request.query), where: { attribute: 'is_template', value: true } });
      return { status: 200, body: page.items.map((item) => item.document), headers: nextPageHeader(page.nextBeforeId) };
    },
    'workspaces.aclAdd': acl.grant,
    'workspaces.aclRemove': acl.revoke,
    ...commentOperations(deps, ID_PARAM),
  };
}

/** The chart with its time zone canonical and its es_query checked as an events search body (400 naming `chart.…`). */
function checkedChart(chart: ChartItem): ChartItem {
  const timeZone = chart.time_zone === undefined ? undefined : assertTimeZone(chart.time_zone, 'chart.time_zone');
  if (chart.es_query !== undefined) {
    try {
      parseSearchRequest(chart.es_query, 'events', timeZone === undefined ? {} : { timeZone });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const details = error.details.map((issue) => ({ ...issue, field: issue.field === 'body' ? 'chart.es_query' : `chart.es_query.${issue.field}` }));
      throw new ValidationError(`Invalid chart.es_query: ${details[0]?.field ?? 'chart.es_query'}: ${details[0]?.reason ?? error.message}`, details);
    }
  }
  return timeZone === undefined ? chart : { ...chart, time_zone: timeZone };
}
