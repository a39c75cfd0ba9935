import type { QueryNode } from '../../../schemas/search-tree';
import { decorateIndex } from '../index-decorator';
import type { SearchableIndex, SearchContext, TenantScope } from '../port';
import { expandQuery, queryMentions, typesByName, type VirtualEventTypeDefinition } from './expand-query';
import { expandRequest, requestMentions } from './expand-request';

/** The virtual event types of an app, as queries use them. */
export type VirtualEventTypeSource = (scope: TenantScope) => Promise<readonly VirtualEventTypeDefinition[]>;

/**
 * A search index whose event searches, counts, deletions, funnels, retention tables and cohort conditions understand
 * `virtual_event_types`. The app's types are read only when a request names the field, so every
 * other search costs what it did; everything else passes through.
 *
 * `reuseTypesForMs` keeps an app's types that long (default 0: read for every request, so an edit
 * applies to the very next search). The billing run reuses them: one read per app and minute
 * instead of one per window query.
 */
export function withVirtualEventTypes(index: SearchableIndex, source: VirtualEventTypeSource, options: { reuseTypesForMs?: number } = {}): SearchableIndex {
  const reuseMs = options.reuseTypesForMs ?? 0;
  const recent = new Map<string, { readAt: number; types: Promise<ReadonlyMap<string, QueryNode>> }>();
  const typesOf = (context: SearchContext): Promise<ReadonlyMap<string, QueryNode>> => {
    if (reuseMs <= 0) return source(context.scope).then(typesByName);
    const key = `${context.scope.org_id}\u0000${context.scope.app_id}`;
    const held = recent.get(key);
    if (held && Date.now() - held.readAt < reuseMs) return held.types;
    const types = source(context.scope).then(typesByName);
    recent.set(key, { readAt: Date.now(), types });
    // A failed read is not kept: the next request reads again.
    types.catch(() => recent.delete(key));
    return types;
  };
  const expanded = async (context: SearchContext, query: QueryNode) =>
    context.kind === 'events' && queryMentions(query) ? expandQuery(query, await typesOf(context)) : query;

  return decorateIndex(index, {
    async search(context, request) {
      if (context.kind !== 'events' || !requestMentions(request)) return index.search(context, request);
      const plan = expandRequest(request, await typesOf(context));
      return plan.reshape(await index.search(context, plan.request));
    },
    countMatching: async (context, query) => index.countMatching(context, await expanded(context, query)),
    arrivalLags: async (context, query) => index.arrivalLags(context, await expanded(context, query)),
    async funnel(context, query) {
      if (!query.steps.some((step) => queryMentions(step.query))) return index.funnel(context, query);
      const types = await typesOf(context);
      return index.funnel(context, {
        ...query,
        steps: query.steps.map((step, k) => ({ ...step, query: expandQuery(step.query, types, `steps[${k}].query`) })),
      });
    },
    async retention(context, query) {
      if (!queryMentions(query.first) && !queryMentions(query.returning)) return index.retention(context, query);
      const types = await typesOf(context);
      return index.retention(context, {
        ...query,
        first: expandQuery(query.first, types, 'first_event'),
        returning: expandQuery(query.returning, types, 'return_event'),
      });
    },
    deleteMatching: async (context, query) => index.deleteMatching(context, await expanded(context, query)),
    voidEvents: async (context, query, mark) => index.voidEvents(context, await expanded(context, query), mark),
    async *actorsMeeting(context, condition) {
      yield* index.actorsMeeting(context, { ...condition, query: await expanded(context, condition.query) });
    },
    async *membersMeeting(context, request) {
      if (!request.conditions.some(({ condition }) => queryMentions(condition.query))) return yield* index.membersMeeting(context, request);
      // The app's types are read once for all the conditions.
      const types = await typesOf(context);
      const conditions = request.conditions.map((entry) => ({
        ...entry,
        condition: { ...entry.condition, query: expandQuery(entry.condition.query, types) },
      }));
      yield* index.membersMeeting(context, { ...request, conditions });
    },
  });
}
