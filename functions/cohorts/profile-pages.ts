import { MAX_RESULT_WINDOW } from '../search/dsl/limits';
import type { QueryNode, SortValue } from '../../schemas/search-tree';
import type { IndexKind, SearchableIndex, SearchHit, TenantScope } from '../search/port';

/** Members listed per cohort or rule; past this the listing is cut and the caller says so. */
export const MAX_MEMBERS_PER_RULE = 100_000;

/** Where profiles are searched: the tenant, its time zone (date math in criteria) and the run's "now". */
export interface SearchInput {
  readonly index: SearchableIndex;
  readonly scope: TenantScope;
  /** The app's time zone: date math in criteria (`now-30d/d`) resolves in it. */
  readonly timeZone: string;
  readonly now: Date;
  readonly pageSize?: number;
  readonly maxMembersPerRule?: number;
}

/**
 * Every profile matching `query`, a page at a time in `_id` order, reading only `includes`. Pages
 * are as large as both backends allow a search_after page to be (10,000), not an API caller's 1,000.
 */
export async function* profilePages(input: SearchInput, kind: IndexKind, query: QueryNode, includes: readonly string[]): AsyncGenerator<readonly SearchHit[]> {
  const pageSize = Math.min(input.pageSize ?? MAX_RESULT_WINDOW, MAX_RESULT_WINDOW);
  let searchAfter: SortValue[] | undefined;
  for (;;) {
    const response = await input.index.search(
      { scope: input.scope, kind, timeZone: input.timeZone, now: input.now },
      {
        query,
        size: pageSize,
        from: 0,
        sort: [{ field: '_id', order: 'asc', missing: '_last' }],
        ...(searchAfter ? { search_after: searchAfter } : {}),
        // Only the fields asked for; none, no source at all.
        _source: includes.length > 0 ? { includes: [...includes], excludes: [] } : false,
        track_total_hits: false,
        aggs: {},
      },
    );
    if (response.hits.hits.length > 0) yield response.hits.hits;
    const last = response.hits.hits.at(-1);
    if (response.hits.hits.length < pageSize || !last?.sort) return;
    searchAfter = last.sort;
  }
}

/** Visits every matching profile in `_id` order, reading only `includes`; 'cut' when the cap stopped it. */
export async function forEachMember(
  input: SearchInput,
  kind: IndexKind,
  query: QueryNode,
  includes: readonly string[],
  visit: (id: string, source: Record<string, unknown>) => void,
): Promise<'all' | 'cut'> {
  const cap = input.maxMembersPerRule ?? MAX_MEMBERS_PER_RULE;
  let seen = 0;
  for await (const hits of profilePages(input, kind, query, includes)) {
    for (const hit of hits) {
      if (seen === cap) return 'cut';
      visit(hit._id, hit._source ?? {});
      seen++;
    }
  }
  return 'all';
}

/** Both queries must match. */
export function bothOf(first: QueryNode, second: QueryNode | undefined): QueryNode {
  return second ? { type: 'bool', must: [], filter: [first, second], should: [], must_not: [] } : first;
}
