import { ValidationError } from '../../../../functions/shared/errors';
import { runSearch } from '../../../../functions/search/duckdb/query/search';
import { parseSearchRequest } from '../../../../functions/search/dsl';
import type { SortValue } from '../../../../schemas/search-tree';
import { context, event, openDatabase, profile, search, type TestDatabase } from './fixture';

const noAggregations = async (): Promise<never> => {
  throw new Error('no aggregations here');
};

/**
 * Sorting and keyset paging: 40 events whose sort keys repeat (low cardinality), are missing, or
 * hold arrays, so every page boundary falls inside runs of equal values.
 */

const COUNT = 40;

function data(i: number): Record<string, unknown> {
  return {
    request: { time: '2026-03-01T00:00:00.000Z', verb: ['GET', 'POST', 'PUT'][i % 3], uri: `https://x.test/${i}`, headers: {} },
    response: { time: '2026-03-01T00:00:00.100Z', status: [200, 404, 500][i % 3], headers: {} },
    user_id: `user-${String(i % 7).padStart(2, '0')}`,
    ...(i % 4 === 0 ? {} : { weight: i % 3 }),
    metadata: {
      ...(i % 5 === 0 ? {} : { score: i % 6 === 0 ? [i % 4, 10 + (i % 3)] : i % 4 }),
      ...(i % 2 === 0 ? { tier: `t${i % 3}` } : {}),
      ...(i % 8 === 0 ? { seen_at: `2026-02-${String(1 + (i % 9)).padStart(2, '0')}T00:00:00Z` } : {}),
      beta: i % 3 === 0,
    },
  };
}

const ids = Array.from({ length: COUNT }, (_, i) => `ev-${String(i).padStart(2, '0')}`);
// Times repeat too: ten distinct instants.
const times = ids.map((_id, i) => new Date(Date.UTC(2026, 2, 1 + (i % 10))).toISOString());

let db: TestDatabase;
beforeAll(async () => {
  db = await openDatabase([
    ...ids.flatMap((id, i) => event(id, times[i] as string, data(i))),
    ...profile('users', 'b', { user_id: 'b' }),
    ...profile('users', 'a', { user_id: 'a' }),
  ]);
});
afterAll(() => db.close());

/** Walks every page with search_after, sending back each page's last sort values through JSON. */
async function walk(body: Record<string, unknown>, size: number): Promise<string[]> {
  const seen: string[] = [];
  let after: unknown[] | undefined;
  for (let page = 0; page <= COUNT; page += 1) {
    const response = await search(db, { ...body, size, ...(after === undefined ? {} : { search_after: after }) });
    expect(response.hits.total).toBe(COUNT);
    if (response.hits.hits.length === 0) return seen;
    seen.push(...response.hits.hits.map((hit) => hit._id));
    after = JSON.parse(JSON.stringify(response.hits.hits[response.hits.hits.length - 1]!.sort)) as unknown[];
  }
  throw new Error('paging did not end');
}

async function allInOrder(body: Record<string, unknown>): Promise<string[]> {
  return (await search(db, { ...body, size: 1000 })).hits.hits.map((hit) => hit._id);
}

type Value = number | string | null;
/** The expected order: by the key (missing last or first), then _id ascending. */
function expectedOrder(key: (i: number) => Value, order: 'asc' | 'desc', missing: '_last' | '_first' = '_last'): string[] {
  const positions = ids.map((_id, i) => i);
  return positions
    .sort((a, b) => {
      const x = key(a);
      const y = key(b);
      if (x === null || y === null) {
        if (x === null && y === null) return ids[a]! < ids[b]! ? -1 : 1;
        return (x === null) === (missing === '_last') ? 1 : -1;
      }
      if (x !== y) return (x < y ? -1 : 1) * (order === 'asc' ? 1 : -1);
      return ids[a]! < ids[b]! ? -1 : 1;
    })
    .map((i) => ids[i] as string);
}

const weight = (i: number): Value => (i % 4 === 0 ? null : i % 3);
const score =
  (order: 'asc' | 'desc') =>
  (i: number): Value => {
    if (i % 5 === 0) return null;
    // An array sorts by its smallest value ascending, its largest descending.
    if (i % 6 === 0) return order === 'asc' ? Math.min(i % 4, 10 + (i % 3)) : Math.max(i % 4, 10 + (i % 3));
    return i % 4;
  };

describe('sort order', () => {
  test.each<[string, Record<string, unknown>, string[]]>([
    ['a number column ascending, missing last', { sort: ['weight'] }, expectedOrder(weight, 'asc')],
    ['a number column descending, missing last', { sort: [{ weight: 'desc' }] }, expectedOrder(weight, 'desc')],
    ['missing first', { sort: [{ weight: { order: 'asc', missing: '_first' } }] }, expectedOrder(weight, 'asc', '_first')],
    ['a stand-in for missing values', { sort: [{ weight: { order: 'asc', missing: 1.5 } }] }, expectedOrder((i) => weight(i) ?? 1.5, 'asc')],
    ['JSON numbers with arrays, ascending (min)', { sort: ['metadata.score'] }, expectedOrder(score('asc'), 'asc')],
    ['JSON numbers with arrays, descending (max)', { sort: [{ 'metadata.score': 'desc' }] }, expectedOrder(score('desc'), 'desc')],
    ['a keyword', { sort: [{ user_id: 'desc' }] }, expectedOrder((i) => `user-${String(i % 7).padStart(2, '0')}`, 'desc')],
    ['a .raw of JSON text', { sort: ['metadata.tier.raw'] }, expectedOrder((i) => (i % 2 === 0 ? `t${i % 3}` : null), 'asc')],
    ['a JSON date', { sort: [{ 'metadata.seen_at': 'desc' }] }, expectedOrder((i) => (i % 8 === 0 ? Date.UTC(2026, 1, 1 + (i % 9)) : null), 'desc')],
    ['time then _id', { sort: [{ time: 'asc' }] }, expectedOrder((i) => Date.parse(times[i] as string), 'asc')],
    ['_id descending', { sort: [{ _id: 'desc' }] }, [...ids].reverse()],
  ])('%s', async (_name, body, expected) => {
    expect(await allInOrder(body)).toEqual(expected);
  });

  test('sort values: numbers, epoch millis, 1/0 for booleans, null for missing, the stand-in when given', async () => {
    const response = await search(db, {
      query: { ids: { values: ['ev-00', 'ev-01'] } },
      sort: [{ _id: 'asc' }, 'weight', { 'metadata.score': { missing: -1 } }, 'time', { is_late: 'asc' }, 'metadata.beta', '_score'],
    });
    expect(response.hits.hits.map((hit) => hit.sort)).toEqual([
      ['ev-00', null, -1, Date.parse(times[0]!), 0, null, null],
      ['ev-01', 1, 1, Date.parse(times[1]!), 0, null, null],
    ]);
  });

  test('sorting on a text field is a 400 (use .raw)', async () => {
    await expect(search(db, { sort: ['request.uri'] })).rejects.toThrow(ValidationError);
  });

  test('profiles sort by _id by default', async () => {
    const response = await search(db, {}, context('users'));
    expect(response.hits.hits.map((hit) => hit._id)).toEqual(['a', 'b']);
  });
});

describe('search_after paging returns every document exactly once, in order', () => {
  const bodies: [string, Record<string, unknown>][] = [
    ['default (time desc)', {}],
    ['a low-cardinality number, missing last', { sort: ['weight'] }],
    ['descending with missing first', { sort: [{ weight: { order: 'desc', missing: '_first' } }] }],
    ['a stand-in for missing values', { sort: [{ weight: { order: 'desc', missing: 1 } }] }],
    ['JSON values with arrays and missing', { sort: [{ 'metadata.score': 'desc' }] }],
    ['a JSON .raw keyword, missing first', { sort: [{ 'metadata.tier.raw': { order: 'asc', missing: '_first' } }] }],
    ['compound: keyword desc, then time asc', { sort: [{ user_id: 'desc' }, { time: 'asc' }] }],
    ['compound with _id in the middle', { sort: [{ 'request.verb': 'asc' }, { _id: 'desc' }, 'weight'] }],
    ['a JSON date, missing last', { sort: ['metadata.seen_at'] }],
  ];

  test.each(bodies.flatMap(([name, body]) => [1, 3, 7].map((size) => [`${name}, pages of ${size}`, body, size] as const)))('%s', async (_name, body, size) => {
    const expected = await allInOrder(body);
    expect(new Set(expected).size).toBe(COUNT);
    expect(await walk(body, size)).toEqual(expected);
  });

  test('a query and a post_filter page the same way', async () => {
    const body = { query: { range: { 'response.status': { gte: 404 } } }, post_filter: { exists: { field: 'weight' } }, sort: ['weight'] };
    const expected = (await search(db, { ...body, size: 1000 })).hits.hits.map((hit) => hit._id);
    const seen: string[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const response = await search(db, { ...body, size: 4, ...(after === undefined ? {} : { search_after: after }) });
      if (response.hits.hits.length === 0) break;
      seen.push(...response.hits.hits.map((hit) => hit._id));
      after = response.hits.hits[response.hits.hits.length - 1]!.sort;
    }
    expect(seen).toEqual(expected);
  });

  test('a search_after value of the wrong type is a 400 naming its position', async () => {
    await expect(search(db, { sort: ['weight'], search_after: ['heavy', 'ev-01'] })).rejects.toMatchObject({
      details: [{ field: 'search_after[0]', reason: '"heavy" is not a number' }],
    });
  });
});

describe('a tree built in code pages with the sort values hits report, null included', () => {
  test('hits[].sort is a SortValue[] that goes back as search_after without a cast', async () => {
    const ctx = context();
    const request = parseSearchRequest({ sort: [{ weight: 'desc' }], size: 5 }, 'events');
    const seen: string[] = [];
    let after: SortValue[] | undefined;
    for (let page = 0; page <= COUNT; page += 1) {
      const response = await runSearch(db.run, ctx, { ...request, ...(after === undefined ? {} : { search_after: after }) }, noAggregations);
      if (response.hits.hits.length === 0) break;
      seen.push(...response.hits.hits.map((hit) => hit._id));
      after = response.hits.hits.at(-1)?.sort;
    }
    // Events without a weight (every fourth) report null and come last; paging crosses into them.
    expect(seen).toEqual(await allInOrder({ sort: [{ weight: 'desc' }] }));
    expect(seen).toHaveLength(COUNT);
  });
});
