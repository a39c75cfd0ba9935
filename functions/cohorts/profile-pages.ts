import type { QueryNode } from '../../schemas/search-tree';
import { pagesInIdOrder } from '../search/id-order-pages';
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

/** Every profile matching `query`, a page at a time in `_id` order, reading only `includes` (pagesInIdOrder). */
export function profilePages(input: SearchInput, kind: IndexKind, query: QueryNode, includes: readonly string[]): AsyncGenerator<readonly SearchHit[]> {
  return pagesInIdOrder(input.index, { scope: input.scope, kind, timeZone: input.timeZone, now: input.now }, query, includes, input.pageSize);
}

/** Visits every matching profile in `_id` order, reading only `includes`; 'cut' when the cap stopped it. */
export async function forEachMember(
  input: SearchInput,
  kind: IndexKind,
  query: QueryNode,
  includes: readonly string[],
  visit: (id: string, source: Record<string, unknown>) => void,
): Promise<'all' | 'cut'> {
  return visitUpTo(profilePages(input, kind, query, includes), memberCap(input), visit);
}

/** The most members a listing visits (MAX_MEMBERS_PER_RULE unless the input says). */
export const memberCap = (input: Pick<SearchInput, 'maxMembersPerRule'>): number => input.maxMembersPerRule ?? MAX_MEMBERS_PER_RULE;

/** Visits the hits of `pages` in order, at most `cap` of them; 'cut' when one more was left (the pages stop being read). */
export async function visitUpTo(
  pages: AsyncIterable<readonly SearchHit[]>,
  cap: number,
  visit: (id: string, source: Record<string, unknown>) => void,
): Promise<'all' | 'cut'> {
  let seen = 0;
  for await (const hits of pages) {
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
