import { readAhead } from '../shared/concurrency';
import { pagesInIdOrder } from './id-order-pages';
import { PerformerCursor } from './performer-cursor';
import type { MembersRequest, SearchableIndex, SearchContext, SearchHit } from './port';

/**
 * membersMeeting for a backend that cannot join profiles to events in one request (OpenSearch keeps
 * them in separate indices): the profiles are listed in id order and each condition's actors,
 * listed by the engine in the same order (actorsMeeting), are walked beside them, so no list of
 * ids is ever sent to the engine. Both are read a page ahead (readAhead), so the conditions' listings
 * and the profiles' run side by side in the engine.
 */
export async function* walkMembers(
  index: Pick<SearchableIndex, 'search' | 'actorsMeeting'>,
  context: SearchContext,
  request: MembersRequest,
  pageSize?: number,
): AsyncGenerator<readonly SearchHit[]> {
  const walks = request.conditions.map(({ condition, range, performed }) => ({
    cursor: new PerformerCursor(index.actorsMeeting({ ...context, kind: 'events', range }, condition)),
    performed,
  }));
  let left = request.limit;
  for await (const hits of readAhead(pagesInIdOrder(index, context, request.profiles, request.includes, pageSize))) {
    const passing: SearchHit[] = [];
    for (const hit of hits) {
      // Every cursor is asked about every profile, so each keeps walking in step with the pages.
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
