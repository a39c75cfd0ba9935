import { VirtualEventTypeCreate, VirtualEventTypeUpdate } from '../../schemas/resources/virtual-event-type';
import type { QueryNode } from '../../schemas/search-tree';
import { appRulesPartition } from '../resources/keys';
import type { TenantScope } from '../search/port';
import { queryMentions, VIRTUAL_EVENT_TYPES_FIELD, type VirtualEventTypeDefinition } from '../search/virtual-event-types/expand-query';
import { ConflictError, ValidationError } from '../shared/errors';
import { crudOperations, type CrudKind, type ResourceContext } from '../resources/crud-operations';
import { namedOperations, type ResourceDeps, type ResourceOperationTable } from '../resources/resource-deps';
import type { ResourceStore, StoredDocument } from '../resources/resource-store';
import { parseCriteria } from '../search/stored-criteria';

export const VIRTUAL_EVENT_TYPE_PREFIX = 'VIRTUAL_EVENT_TYPE';

/**
 * Types an app may have: a `terms` aggregation by `virtual_event_types` runs one filter per type,
 * so the number is bounded like any other bucket count.
 */
export const MAX_VIRTUAL_EVENT_TYPES = 200;

/** The events query of a criteria value (a bare query or a search body), checked; 400 naming `field` otherwise. */
function criteriaQuery(criteria: Record<string, unknown>, field: string): QueryNode {
  const parsed = parseCriteria(criteria, 'events', field);
  if (parsed.form === 'body') {
    const extra = Object.keys(criteria).find((member) => member !== 'query');
    if (extra !== undefined)
      throw new ValidationError(`Invalid ${field}: a virtual event type's criteria is a query; ${extra} has no meaning here`, [
        { field: `${field}.${extra}`, reason: 'only query is allowed' },
      ]);
  }
  const query = parsed.form === 'query' ? parsed.query : parsed.request.query;
  // A type defined by types could loop; and what it selects would change when they change.
  if (queryMentions(query))
    throw new ValidationError(`Invalid ${field}: criteria may not use ${VIRTUAL_EVENT_TYPES_FIELD}`, [
      { field, reason: `may not use ${VIRTUAL_EVENT_TYPES_FIELD}` },
    ]);
  return query;
}

const locationOf = (orgId: string, appId: string) => ({ partition: appRulesPartition(orgId, appId), prefix: VIRTUAL_EVENT_TYPE_PREFIX });

/** Every stored type of an app (at most MAX_VIRTUAL_EVENT_TYPES, so one page). */
async function storedTypes(store: ResourceStore, orgId: string, appId: string): Promise<StoredDocument[]> {
  const page = await store.list(locationOf(orgId, appId), { take: MAX_VIRTUAL_EVENT_TYPES + 1 });
  return page.items.map((item) => item.document);
}

/** A name another type of the app has is a 409 naming `name`: searches and buckets name types by name. */
async function assertNameFree(store: ResourceStore, ctx: ResourceContext, name: string, ownId?: string): Promise<void> {
  const types = await storedTypes(store, ctx.orgId, ctx.appId);
  if (types.some((type) => type['name'] === name && type['_id'] !== ownId)) {
    throw new ConflictError(`A virtual event type named ${JSON.stringify(name)} exists already`, [
      { field: 'name', reason: 'another virtual event type of the app has this name' },
    ]);
  }
  if (ownId === undefined && types.length >= MAX_VIRTUAL_EVENT_TYPES) {
    throw new ConflictError(`An app may have at most ${MAX_VIRTUAL_EVENT_TYPES} virtual event types`, [
      { field: 'name', reason: `the app has ${MAX_VIRTUAL_EVENT_TYPES} virtual event types already` },
    ]);
  }
}

/**
 * Virtual event types (`/~/virtual_eventtypes`): a `name` for the events a `criteria` query selects.
 * Searches see them as the field `virtual_event_types` (functions/search/virtual-event-types).
 */
export function virtualEventTypeKind(deps: ResourceDeps): CrudKind<VirtualEventTypeCreate, VirtualEventTypeUpdate> {
  return {
    noun: 'virtual event type',
    prefix: VIRTUAL_EVENT_TYPE_PREFIX,
    idParam: 'id',
    createSchema: VirtualEventTypeCreate,
    updateSchema: VirtualEventTypeUpdate,
    toStored: async (input, ctx, system) => {
      criteriaQuery(input.criteria, 'criteria');
      await assertNameFree(deps.store, ctx, input.name);
      return { ...system, ...input };
    },
    applyUpdate: async (current, input, ctx) => {
      if (input.criteria !== undefined) criteriaQuery(input.criteria, 'criteria');
      if (input.name !== undefined && input.name !== current['name']) await assertNameFree(deps.store, ctx, input.name, String(current['_id']));
      return { ...current, ...input };
    },
  };
}

export function virtualEventTypeOperations(deps: ResourceDeps): ResourceOperationTable {
  return namedOperations('virtualEventTypes', crudOperations(virtualEventTypeKind(deps), deps));
}

/**
 * The app's types as searches use them. A stored criteria that no longer parses (the DSL grew
 * stricter) selects nothing rather than failing every search that names a type.
 */
export async function virtualEventTypesOf(store: ResourceStore, scope: TenantScope): Promise<VirtualEventTypeDefinition[]> {
  const types = await storedTypes(store, scope.org_id, scope.app_id);
  return types.map((type) => {
    let query: QueryNode;
    try {
      query = criteriaQuery(type['criteria'] as Record<string, unknown>, 'criteria');
    } catch {
      query = { type: 'match_none' };
    }
    return { name: String(type['name']), query };
  });
}
