import fc from 'fast-check';
import { walkMembers } from '../../../functions/search/members-walk';
import type { ActorCondition, MembersRequest, SearchContext, SearchHit, SearchResponse } from '../../../functions/search/port';
import type { QueryNode, SearchRequest } from '../../../schemas/search-tree';
import { compareUtf8 } from '../../../values/utf8-order';
import { idOrderedSearch } from './support/id-ordered-search';

const context: SearchContext = { scope: { org_id: 'o', app_id: 'a' }, kind: 'users', timeZone: 'UTC', now: new Date('2026-11-29T00:00:00Z') };
const condition = (value: number): ActorCondition => ({ by: 'user_id', query: { type: 'match_all' }, measure: 'count', operator: 'gte', value });

/** A stand-in engine: profiles paged in id order (idOrderedSearch); each condition's actors (keyed by its value) in pages of two. */
function engine(profiles: readonly string[], actors: ReadonlyMap<number, readonly string[]>, requests: unknown[] = []) {
  const profileSearch = idOrderedSearch(profiles);
  return {
    async search(context: SearchContext, request: SearchRequest): Promise<SearchResponse> {
      // The walk asks for every profile, or for the profiles of some ids (a filter beside match_all).
      const ids = request.query.type === 'bool' ? request.query.filter.find((node) => node.type === 'ids') : undefined;
      requests.push(ids?.type === 'ids' ? { ids: ids.values } : 'every profile');
      return profileSearch.search(context, request);
    },
    async *actorsMeeting(_context: SearchContext, asked: ActorCondition): AsyncIterable<readonly string[]> {
      const list = [...(actors.get(asked.value) ?? [])].sort(compareUtf8);
      for (let at = 0; at < list.length; at += 2) yield list.slice(at, at + 2);
    },
  };
}

/** A stand-in for a backend's listing of every profile's id alone (OpenSearch's composite aggregation), in pages of `pageSize`. */
function idsListing(profiles: readonly string[], pageSize: number, requests: unknown[] = []) {
  return async function* (query: QueryNode): AsyncIterable<readonly SearchHit[]> {
    requests.push(query.type === 'match_all' ? 'every id' : query);
    const listed = [...profiles].sort(compareUtf8);
    for (let at = 0; at < listed.length; at += pageSize) yield listed.slice(at, at + pageSize).map((_id) => ({ _id }));
  };
}

describe('members walked beside each condition’s actors (OpenSearch)', () => {
  it('lists, in id order and up to the limit, the profiles passing all (or any) conditions, whatever the page size', async () => {
    const id = fc.string({ minLength: 1, maxLength: 3, unit: fc.constantFrom('a', 'b', 'é', '😀') });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(id),
        fc.uniqueArray(id),
        fc.uniqueArray(id),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom<'all' | 'any'>('all', 'any'),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        async (profiles, first, second, performedFirst, performedSecond, match, pageSize, limit, idsAlone) => {
          const request: MembersRequest = {
            profiles: { type: 'match_all' },
            conditions: [
              { condition: condition(1), range: {}, performed: performedFirst },
              { condition: condition(2), range: {}, performed: performedSecond },
            ],
            match,
            includes: [],
            limit,
          };
          const listed: string[] = [];
          for await (const page of walkMembers(
            engine(
              profiles,
              new Map([
                [1, first],
                [2, second],
              ]),
            ),
            context,
            request,
            { pageSize, ...(idsAlone ? { idsInOrder: idsListing(profiles, pageSize) } : {}) },
          ))
            listed.push(...page.map((hit) => hit._id));
          const passes = (profile: string) => {
            const met = [first.includes(profile) === performedFirst, second.includes(profile) === performedSecond];
            return match === 'any' ? met.some(Boolean) : met.every(Boolean);
          };
          expect(listed).toEqual([...profiles].sort(compareUtf8).filter(passes).slice(0, limit));
        },
      ),
    );
  });

  it('looks up the profiles of a performed condition’s actors by id when they fit in a page, and lists every profile when they do not', async () => {
    const profiles = Array.from({ length: 50 }, (_, n) => `user_${String(n).padStart(2, '0')}`);
    const request: MembersRequest = {
      profiles: { type: 'match_all' },
      conditions: [
        { condition: condition(1), range: {}, performed: false },
        { condition: condition(2), range: {}, performed: true },
      ],
      match: 'all',
      includes: [],
      limit: 100,
    };
    const walk = async (performers: string[], pageSize: number) => {
      const requests: unknown[] = [];
      const listed: string[] = [];
      const actors = new Map([
        [1, ['user_03']],
        [2, performers],
      ]);
      for await (const page of walkMembers(engine(profiles, actors, requests), context, request, { pageSize })) listed.push(...page.map((hit) => hit._id));
      return { listed, requests };
    };
    const performers = ['user_01', 'user_03', 'user_07', 'user_30', 'someone_without_a_profile'];

    const few = await walk(performers, 5);
    expect(few.listed).toEqual(['user_01', 'user_07', 'user_30']);
    // The members come from one lookup; no profile is listed.
    expect(few.requests).toEqual([{ ids: ['someone_without_a_profile', 'user_01', 'user_03', 'user_07', 'user_30'] }]);

    const many = await walk(performers, 4);
    expect(many.listed).toEqual(few.listed);
    expect(many.requests.every((asked) => asked === 'every profile')).toBe(true);
  });

  it('lists every profile’s id alone through the backend’s listing when no field is included, and pages of hits when one is', async () => {
    const profiles = ['user_1', 'user_2', 'user_3', 'user_4'];
    const request = (includes: string[], performed: boolean): MembersRequest => ({
      profiles: { type: 'match_all' },
      conditions: [{ condition: condition(1), range: {}, performed }],
      match: 'all',
      includes,
      limit: 100,
    });
    const walk = async (asked: MembersRequest) => {
      const requests: unknown[] = [];
      const listed: string[] = [];
      const actors = new Map([[1, ['user_2', 'user_4']]]);
      const idsInOrder = idsListing(profiles, 3, requests);
      for await (const page of walkMembers(engine(profiles, actors, requests), context, asked, { pageSize: 3, idsInOrder }))
        listed.push(...page.map((hit) => hit._id));
      return { listed, requests };
    };
    expect(await walk(request([], false))).toEqual({ listed: ['user_1', 'user_3'], requests: ['every id'] });
    // Looked-up actors' profiles are read as hits: the listing of ids has a fixed cost a few ids do not repay.
    expect(await walk(request([], true))).toEqual({ listed: ['user_2', 'user_4'], requests: [{ ids: ['user_2', 'user_4'] }] });
    expect(await walk(request(['email'], false))).toEqual({ listed: ['user_1', 'user_3'], requests: ['every profile', 'every profile'] });
  });
});
