import type { QueryNode } from '../../schemas/search-tree';
import { readAhead } from '../shared/concurrency';
import { MAX_RESULT_WINDOW } from './dsl/limits';
import { pagesInIdOrder } from './id-order-pages';
import { PerformerCursor } from './performer-cursor';
import type { MembersRequest, SearchableIndex, SearchContext, SearchHit } from './port';

type WalkedIndex = Pick<SearchableIndex, 'search' | 'actorsMeeting'>;

/**
 * membersMeeting for a backend that cannot join profiles to events in one request (OpenSearch keeps
 * them in separate indices). Each condition's actors are listed by the engine in id order
 * (actorsMeeting) and walked beside profiles taken in the same order, so each profile costs a
 * comparison. All are read a page ahead (readAhead), so the engine lists them side by side.
 *
 * Where every condition must pass and one must have been performed, the members are among that
 * condition's actors: the walk looks up only their profiles, by id, instead of listing every
 * profile of the app (on the bench's 20,000 users, a cohort of 89 members read 89 profiles instead
 * of 20,000; at a million users, one request instead of a hundred). Otherwise every profile is
 * listed (pagesInIdOrder).
 */
export async function* walkMembers(
  index: WalkedIndex,
  context: SearchContext,
  request: MembersRequest,
  pageSize?: number,
): AsyncGenerator<readonly SearchHit[]> {
  const driving = request.match === 'all' ? request.conditions.findIndex(({ performed }) => performed) : -1;
  const eventsOf = (range: MembersRequest['conditions'][number]['range']): SearchContext => ({ ...context, kind: 'events', range });
  const walks = request.conditions
    .filter((_, position) => position !== driving)
    .map(({ condition, range, performed }) => ({ cursor: new PerformerCursor(index.actorsMeeting(eventsOf(range), condition)), performed }));
  const candidates =
    driving < 0
      ? pagesInIdOrder(index, context, request.profiles, request.includes, pageSize)
      : profilesOfActors(
          index,
          context,
          request,
          index.actorsMeeting(eventsOf(request.conditions[driving]!.range), request.conditions[driving]!.condition),
          pageSize,
        );
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

/**
 * The profiles matching the request among actors listed in id order, in the same order: the actors
 * are gathered into batches of up to a page of hits (10,000 ids; an id without a profile drops out),
 * and each batch's profiles are read by id while the next actors are listed.
 */
async function* profilesOfActors(
  index: WalkedIndex,
  context: SearchContext,
  request: MembersRequest,
  actorPages: AsyncIterable<readonly string[]>,
  pageSize: number = MAX_RESULT_WINDOW,
): AsyncGenerator<readonly SearchHit[]> {
  const batchSize = Math.min(pageSize, MAX_RESULT_WINDOW);
  const profilesOf = (ids: string[]): AsyncIterable<readonly SearchHit[]> => {
    const query: QueryNode = { type: 'bool', must: [], filter: [request.profiles, { type: 'ids', values: ids }], should: [], must_not: [] };
    return pagesInIdOrder(index, context, query, request.includes, pageSize);
  };
  const batch: string[] = [];
  for await (const actors of readAhead(actorPages)) {
    for (const actor of actors) batch.push(actor);
    while (batch.length >= batchSize) yield* profilesOf(batch.splice(0, batchSize));
  }
  if (batch.length > 0) yield* profilesOf(batch);
}
