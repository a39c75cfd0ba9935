import type { QueryNode } from '../../schemas/search-tree';
import { pagesInIdOrder } from './id-order-pages';
import { PerformerCursor } from './performer-cursor';
import type { BehaviourFilter, SearchableIndex, SearchContext, SearchHit } from './port';

/**
 * membersMeeting for a backend that cannot join profiles to events in one request (OpenSearch keeps
 * them in separate indices): the profiles are listed in id order and each condition's actors,
 * listed by the engine in the same order (actorsMeeting), are walked beside them, so no list of
 * ids is ever sent to the engine.
 */
export async function* walkMembers(
  index: Pick<SearchableIndex, 'search' | 'actorsMeeting'>,
  context: SearchContext,
  profiles: QueryNode,
  behaviour: BehaviourFilter,
  includes: readonly string[],
): AsyncGenerator<readonly SearchHit[]> {
  const walks = behaviour.conditions.map(({ condition, range, performed }) => ({
    cursor: new PerformerCursor(index.actorsMeeting({ ...context, kind: 'events', range }, condition)),
    performed,
  }));
  for await (const hits of pagesInIdOrder(index, context, profiles, includes)) {
    const passing: SearchHit[] = [];
    for (const hit of hits) {
      // Every cursor is asked about every profile, so each keeps walking in step with the pages.
      const met: boolean[] = [];
      for (const { cursor, performed } of walks) met.push((await cursor.has(hit._id)) === performed);
      if (behaviour.match === 'any' ? met.some(Boolean) : met.every(Boolean)) passing.push(hit);
    }
    if (passing.length > 0) yield passing;
  }
}
