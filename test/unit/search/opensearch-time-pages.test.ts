import fc from 'fast-check';
import type { SearchBody } from '../../../functions/search/opensearch/request-types';
import { DOC_ID_FIELD, TIME_FIELD } from '../../../functions/search/opensearch/stored-source';
import { pagesByTime, timeThenIdPage, type PageHit } from '../../../functions/search/opensearch/time-pages';
import { compareUtf8 } from '../../../values/utf8-order';

/**
 * Time-then-id pages read by time alone (time-pages.ts) against a cluster stand-in that answers the
 * three requests as OpenSearch does, ties in time in any order it likes: paging through every
 * document must give exactly the order of the full sort, page after page.
 */

interface Doc {
  readonly id: string;
  readonly time: number;
}

type Order = 'asc' | 'desc';
type Range = { gte: number; lte: number };

/** Answers a body as OpenSearch would: the range of a one-millisecond read, a time or id sort, search_after; ties of time shuffled by `seed`. */
function cluster(docs: readonly Doc[], seed: number) {
  const requests: SearchBody[] = [];
  const send = async (body: SearchBody) => {
    requests.push(body);
    const filters = ((body.query as { bool?: { filter?: unknown[] } }).bool?.filter ?? []) as Record<string, Record<string, Range>>[];
    const range = filters.map((clause) => clause.range?.[TIME_FIELD]).find((bounds) => bounds !== undefined);
    let matching = docs.filter((doc) => range === undefined || (doc.time >= range.gte && doc.time <= range.lte));
    const [sort] = body.sort as Record<string, { order: Order }>[];
    const [field, { order }] = Object.entries(sort!)[0]!;
    const sign = order === 'desc' ? -1 : 1;
    const shuffle = (doc: Doc) => (doc.id.length * 31 + doc.id.charCodeAt(0) * seed) % 7;
    if (field === TIME_FIELD) {
      matching = [...matching].sort((a, b) => sign * (a.time - b.time) || shuffle(a) - shuffle(b));
      const after = body.search_after?.[0] as number | undefined;
      if (after !== undefined) matching = matching.filter((doc) => sign * (doc.time - after) > 0);
    } else {
      expect(field).toBe(DOC_ID_FIELD);
      matching = [...matching].sort((a, b) => sign * compareUtf8(a.id, b.id));
      const after = body.search_after?.[0] as string | undefined;
      if (after !== undefined) matching = matching.filter((doc) => sign * compareUtf8(doc.id, after) > 0);
    }
    const hits = matching.slice(0, body.size).map((doc): PageHit => ({ _id: `app:${doc.id}`, sort: [field === TIME_FIELD ? doc.time : doc.id] }));
    return { hits: { total: { value: docs.length }, hits } };
  };
  return { send, requests };
}

const body = (size: number, timeOrder: Order, idOrder: Order, after?: [number, string]): SearchBody => ({
  query: { bool: { filter: [{ term: { app_id: 'app' } }] } },
  size,
  from: 0,
  sort: [{ [TIME_FIELD]: { order: timeOrder } }, { [DOC_ID_FIELD]: { order: idOrder } }],
  ...(after ? { search_after: after } : {}),
});

const plainId = (hit: PageHit) => (hit._id ?? '').slice('app:'.length);

describe('pages sorted by time, then id, read by time alone', () => {
  it('page through every document in the full sort order, whatever order the cluster gives ties of time', async () => {
    const docs = fc.uniqueArray(
      fc.record({
        id: fc.string({ minLength: 1, maxLength: 4, unit: fc.constantFrom('a', 'b', 'Z', 'é', '😀', '\uE000') }),
        time: fc.integer({ min: 0, max: 6 }),
      }),
      { selector: (doc) => doc.id, maxLength: 40 },
    );
    await fc.assert(
      fc.asyncProperty(
        docs,
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom<Order>('asc', 'desc'),
        fc.constantFrom<Order>('asc', 'desc'),
        fc.nat(),
        async (all, size, timeOrder, idOrder, seed) => {
          const expected = [...all]
            .sort((a, b) => (timeOrder === 'desc' ? b.time - a.time : a.time - b.time) || (idOrder === 'desc' ? -1 : 1) * compareUtf8(a.id, b.id))
            .map((doc) => [doc.time, doc.id]);
          const { send } = cluster(all, seed);
          const seen: unknown[][] = [];
          let after: [number, string] | undefined;
          for (let page = 0; page <= all.length; page += 1) {
            const answer = await timeThenIdPage(body(size, timeOrder, idOrder, after), plainId, send);
            const hits = answer.hits?.hits ?? [];
            seen.push(...hits.map((hit) => hit.sort!));
            if (hits.length < size) break;
            after = hits.at(-1)!.sort as [number, string];
          }
          expect(seen).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keep the total and aggregations of the read by time, and ask only it for them', async () => {
    const { send, requests } = cluster(
      [
        { id: 'b', time: 5 },
        { id: 'a', time: 5 },
        { id: 'c', time: 4 },
      ],
      1,
    );
    const withAggs = { ...body(1, 'desc', 'asc', [5, 'a']), track_total_hits: true, aggs: { by: { terms: { field: 'user_id' } } } } as SearchBody;
    const answer = await timeThenIdPage(withAggs, plainId, async (page) => ({ ...(await send(page)), aggregations: page.aggs ? { by: 'answer' } : undefined }));
    expect(answer.hits?.hits?.map((hit) => hit.sort)).toEqual([[5, 'b']]);
    expect((answer as { aggregations?: unknown }).aggregations).toEqual({ by: 'answer' });
    expect(requests.filter((request) => request.aggs !== undefined)).toHaveLength(1);
    expect(requests.filter((request) => request.track_total_hits !== false)).toHaveLength(1);
  });

  it('apply only to a time-then-id sort from the first offset, after a page of real values', () => {
    expect(pagesByTime(body(10, 'desc', 'asc'))).toBe(true);
    expect(pagesByTime(body(10, 'desc', 'asc', [5, 'a']))).toBe(true);
    expect(pagesByTime({ ...body(10, 'desc', 'asc'), from: 10 })).toBe(false);
    expect(pagesByTime({ ...body(0, 'desc', 'asc') })).toBe(false);
    expect(pagesByTime({ ...body(10, 'desc', 'asc'), search_after: [null, 'a'] })).toBe(false);
    expect(pagesByTime({ ...body(10, 'desc', 'asc'), sort: [{ [DOC_ID_FIELD]: { order: 'asc' } }] })).toBe(false);
    expect(pagesByTime({ ...body(10, 'desc', 'asc'), sort: [{ 'response.status': { order: 'asc' } }, { [DOC_ID_FIELD]: { order: 'asc' } }] })).toBe(false);
  });

  it('order ids by their UTF-8 bytes, as OpenSearch orders keywords', () => {
    const ids = ['\uE000', '😀', 'z', 'é', 'a', 'ab'];
    expect([...ids].sort(compareUtf8)).toEqual([...ids].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
  });
});
