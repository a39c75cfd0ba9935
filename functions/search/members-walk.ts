import type { QueryNode } from '../../schemas/search-tree';
import { readAhead } from '../shared/concurrency';
import { MAX_RESULT_WINDOW } from './dsl/limits';
import { pagesInIdOrder } from './id-order-pages';
import { PerformerCursor } from './performer-cursor';
import type { MembersRequest, SearchableIndex, SearchContext, SearchHit } from './port';

type WalkedIndex = Pick<SearchableIndex, 'search' | 'actorsMeeting'>;

export interface WalkOptions {
  /** Most profiles (and looked-up actors) a request reads; the backend's most by default. */
  readonly pageSize?: number;
  /**
   * The ids of the profiles matching a query, in id order, where the backend lists ids alone faster
   * than pages of hits; used to list every profile when the request includes no fields.
   */
  readonly idsInOrder?: (query: QueryNode) => AsyncIterable<readonly SearchHit[]>;
}

/**
 * membersMeeting for a backend that cannot join profiles to events in one request (OpenSearch keeps
 * them in separate indices). Each condition's actors are listed by the engine in id order
 * (actorsMeeting) and walked beside profiles taken in the same order, so each profile costs a
 * comparison. All are read a page ahead (readAhead), so the engine lists them side by side.
 *
 * Where every condition must pass and one must have been performed, the members are among that
 * condition's actors, which are read first. When they fit in one page of hits (10,000), their
 * profiles are looked up by id in one request instead of listing every profile of the app: on the
 * bench's 20,000 users, cohorts of 89 and 65 members took 44–52 ms instead of 115 and 82, one of
 * 1,748 members 91 instead of 109. With more actors, every profile is listed and walked beside
 * them, after their first page: 158 ms for a cohort of all 20,000 users, against 126 when the two
 * listings start together. (Asking for the profiles' first page beside the actors, in case, cost
 * the looked-up cohorts more than it saved: the node and this process both spent it.)
 *
 * Every profile is listed as pages of hits, or, when the request includes none of their fields,
 * through the backend's listing of ids alone where it has one (`idsInOrder`): on OpenSearch 20,000
 * ids in one request of 40 ms instead of two pages of 36–38. Looked-up actors' profiles stay hits:
 * for 89 ids 4 ms against 7 for the listing's fixed cost.
 */
export async function* walkMembers(
  index: WalkedIndex,
  context: SearchContext,
  request: MembersRequest,
  { pageSize, idsInOrder }: WalkOptions = {},
): AsyncGenerator<readonly SearchHit[]> {
  const lookupSize = Math.min(pageSize ?? MAX_RESULT_WINDOW, MAX_RESULT_WINDOW);
  const actorsOf = ({ condition, range }: MembersRequest['conditions'][number]) => index.actorsMeeting({ ...context, kind: 'events', range }, condition);
  const driving = request.match === 'all' ? request.conditions.findIndex(({ performed }) => performed) : -1;
  const walks = request.conditions
    .filter((_, position) => position !== driving)
    .map((condition) => ({ cursor: new PerformerCursor(actorsOf(condition)), performed: condition.performed }));
  // The driving condition's actors when few enough to look their profiles up; else it is walked like the others.
  let fewActors: string[] | undefined;
  if (driving >= 0) {
    const actors = readAhead(actorsOf(request.conditions[driving]!));
    const first = await gatherUpTo(actors, lookupSize);
    if (first.complete) fewActors = first.ids;
    else walks.push({ cursor: new PerformerCursor(replayed(first.ids, actors)), performed: true });
  }
  const candidates = fewActors
    ? pagesInIdOrder(index, context, amongIds(request.profiles, fewActors), request.includes, pageSize)
    : idsInOrder && request.includes.length === 0
      ? idsInOrder(request.profiles)
      : pagesInIdOrder(index, context, request.profiles, request.includes, pageSize);
  let left = request.limit;
  for await (const hits of readAhead(candidates)) {
    const passing: SearchHit[] = [];
    for (const hit of hits) {
      // Every cursor is asked about every candidate, so each keeps walking in step with the pages.
      const met: boolean[] = [];
      for (const { cursor, performed } of walks) met.push((await cursor.has(hit._id)) === performed);
      if (request.match === 'any' ? met.some(Boolean) : met.every(Boolean)) passing.push(hit);
      if (passing.length === left) break;
    }
    if (passing.length > 0) yield passing;
    left -= passing.length;
    if (left === 0) return;
  }
}

/** Actors from the pages until more than `most` are read (`complete`: the listing ended first). */
async function gatherUpTo(pages: AsyncIterator<readonly string[]>, most: number): Promise<{ ids: string[]; complete: boolean }> {
  const ids: string[] = [];
  while (ids.length <= most) {
    const page = await pages.next();
    if (page.done) return { ids, complete: true };
    for (const id of page.value) ids.push(id);
  }
  return { ids, complete: false };
}

/** The actors already read, then the rest of their listing. */
async function* replayed(read: readonly string[], rest: AsyncIterator<readonly string[]>): AsyncGenerator<readonly string[]> {
  yield read;
  for (let page = await rest.next(); !page.done; page = await rest.next()) yield page.value;
}

/** The profiles matching `profiles` among these ids: an id without a profile drops out. */
function amongIds(profiles: QueryNode, ids: string[]): QueryNode {
  return { type: 'bool', must: [], filter: [profiles, { type: 'ids', values: ids }], should: [], must_not: [] };
}
