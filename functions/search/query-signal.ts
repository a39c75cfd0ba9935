import { decorateIndex } from './index-decorator';
import type { SearchableIndex, SearchContext } from './port';

/**
 * The index with every read bound to a signal (a run's or a request's budget): when it aborts, the
 * running query is stopped as the backend stops it (DuckDB interrupt, OpenSearch request closed).
 * A context that brings a signal of its own keeps it. Writes are left alone.
 */
export function withQuerySignal(index: SearchableIndex, signal: AbortSignal): SearchableIndex {
  const bound = (context: SearchContext): SearchContext => (context.signal ? context : { ...context, signal });
  return decorateIndex(index, {
    search: (context, request) => index.search(bound(context), request),
    countMatching: (context, query) => index.countMatching(bound(context), query),
    arrivalLags: (context, query) => index.arrivalLags(bound(context), query),
    funnel: (context, query) => index.funnel(bound(context), query),
    retention: (context, query) => index.retention(bound(context), query),
    actorsMeeting: (context, condition) => index.actorsMeeting(bound(context), condition),
    membersMeeting: (context, request) => index.membersMeeting(bound(context), request),
  });
}
