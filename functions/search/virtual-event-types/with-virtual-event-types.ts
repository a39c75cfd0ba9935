import type { QueryNode } from '../../../schemas/search-tree';
import type { SearchableIndex, SearchContext, TenantScope } from '../port';
import { expandQuery, queryMentions, typesByName, type VirtualEventTypeDefinition } from './expand-query';
import { expandRequest, requestMentions } from './expand-request';

/** The virtual event types of an app, as queries use them. */
export type VirtualEventTypeSource = (scope: TenantScope) => Promise<readonly VirtualEventTypeDefinition[]>;

/**
 * A search index whose event searches, counts, deletions, funnels and retention tables understand
 * `virtual_event_types`. The
 * app's types are read only when a request names the field, so every other search costs what it
 * did; everything else passes through.
 */
export function withVirtualEventTypes(index: SearchableIndex, source: VirtualEventTypeSource): SearchableIndex {
  const typesOf = async (context: SearchContext) => typesByName(await source(context.scope));
  const expanded = async (context: SearchContext, query: QueryNode) =>
    context.kind === 'events' && queryMentions(query) ? expandQuery(query, await typesOf(context)) : query;

  return {
    ensureReady: () => index.ensureReady(),
    index: (documents) => index.index(documents),
    count: (scope, kind, range) => index.count(scope, kind, range),
    get: (scope, kind, id, hint) => index.get(scope, kind, id, hint),
    refresh: () => index.refresh(),
    close: () => index.close(),
    delete: (scope, kind, id) => index.delete(scope, kind, id),
    deletionProgress: (task) => index.deletionProgress(task),
    async search(context, request) {
      if (context.kind !== 'events' || !requestMentions(request)) return index.search(context, request);
      const plan = expandRequest(request, await typesOf(context));
      return plan.reshape(await index.search(context, plan.request));
    },
    countMatching: async (context, query) => index.countMatching(context, await expanded(context, query)),
    async funnel(context, query) {
      if (!query.steps.some((step) => queryMentions(step.query))) return index.funnel(context, query);
      const types = await typesOf(context);
      return index.funnel(context, { ...query, steps: query.steps.map((step, k) => ({ ...step, query: expandQuery(step.query, types, `steps[${k}].query`) })) });
    },
    async retention(context, query) {
      if (!queryMentions(query.first) && !queryMentions(query.returning)) return index.retention(context, query);
      const types = await typesOf(context);
      return index.retention(context, { ...query, first: expandQuery(query.first, types, 'first_event'), returning: expandQuery(query.returning, types, 'return_event') });
    },
    deleteMatching: async (context, query) => index.deleteMatching(context, await expanded(context, query)),
  };
}
