import type { SearchableIndex } from './port';

/**
 * An index that does what `index` does, except the operations `overrides` names: the one way a
 * decorator (query-time rewrites, bound signals, a local refresh) wraps the search port.
 */
export function decorateIndex(index: SearchableIndex, overrides: Partial<SearchableIndex>): SearchableIndex {
  return {
    ensureReady: () => index.ensureReady(),
    index: (documents) => index.index(documents),
    count: (scope, kind, range) => index.count(scope, kind, range),
    get: (scope, kind, id, hint) => index.get(scope, kind, id, hint),
    refresh: () => index.refresh(),
    attributeVisitor: (scope, anonymousId, userId) => index.attributeVisitor(scope, anonymousId, userId),
    compactSettled: (now) => index.compactSettled(now),
    close: () => index.close(),
    delete: (scope, kind, id) => index.delete(scope, kind, id),
    deleteMatching: (context, query) => index.deleteMatching(context, query),
    voidEvents: (context, query, mark) => index.voidEvents(context, query, mark),
    deletionProgress: (task) => index.deletionProgress(task),
    search: (context, request) => index.search(context, request),
    countMatching: (context, query) => index.countMatching(context, query),
    arrivalLags: (context, query) => index.arrivalLags(context, query),
    funnel: (context, query) => index.funnel(context, query),
    retention: (context, query) => index.retention(context, query),
    actorsMeeting: (context, condition) => index.actorsMeeting(context, condition),
    membersMeeting: (context, request) => index.membersMeeting(context, request),
    ...overrides,
  };
}
