import { parseQuery, parseSearchRequest } from './dsl';
import { expandQuery } from './virtual-event-types/expand-query';
import { expandRequest } from './virtual-event-types/expand-request';
import type { QueryNode, SearchRequest } from '../../schemas/search-tree';
import type { IndexKind } from './port';
import { ValidationError, isServiceError } from '../shared/errors';

/** Top-level members of a search body: criteria with only these is a search body, otherwise a bare query. */
const SEARCH_BODY_MEMBERS = new Set(['query', 'post_filter', 'size', 'from', 'sort', 'search_after', '_source', 'track_total_hits', 'aggs', 'aggregations']);

export type CriteriaForm = { form: 'body'; request: SearchRequest } | { form: 'query'; query: QueryNode };

/**
 * Checks stored-search criteria (a cohort's `criteria`, a meter's `es_query`) with the search DSL
 * parser: either a search body (`{"query": {...}}`, checked against the kind's fields) or a bare query
 * (`{"bool": {...}}`). Problems are reported under `field` (`criteria.query.bool.must[0]`).
 */
export function parseCriteria(
  value: Record<string, unknown>,
  kind: IndexKind,
  field: string,
  accept: 'body' | 'body-or-query' = 'body-or-query',
): CriteriaForm {
  const keys = Object.keys(value);
  const isBody = accept === 'body' || keys.length === 0 || keys.every((key) => SEARCH_BODY_MEMBERS.has(key));
  try {
    const parsed: CriteriaForm = isBody ? { form: 'body', request: parseSearchRequest(value, kind) } : { form: 'query', query: parseQuery(value) };
    // Event criteria run through the virtual-type expansion: a use of virtual_event_types it cannot
    // serve (a range on it) is refused now, not at every search the criteria later drives.
    if (kind === 'events') {
      if (parsed.form === 'body') expandRequest(parsed.request, new Map());
      else expandQuery(parsed.query, new Map(), '');
    }
    return parsed;
  } catch (error) {
    if (!isServiceError(error) || !(error instanceof ValidationError)) throw error;
    const details = error.details.map((issue) => ({ ...issue, field: issue.field === 'body' ? field : `${field}.${issue.field}` }));
    throw new ValidationError(`Invalid ${field}: ${details[0]?.field ?? field}: ${details[0]?.reason ?? error.message}`, details);
  }
}
