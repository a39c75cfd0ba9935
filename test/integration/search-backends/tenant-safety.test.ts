import { randomUUID } from 'node:crypto';
import { parseSearchRequest } from '../../../functions/search/dsl';
import { conformanceBackends } from '../../conformance/backends';
import { toIndexDocument } from '../../conformance/runner';
import { apiCall } from '../../conformance/fixtures';
import type { IndexKind, SearchableIndex, SearchContext, SearchResponse, TenantScope } from '../../../functions/search/port';

/**
 * Whatever a query contains, a caller sees only its own app's documents. Three tenants share the
 * index with overlapping ids: the caller (app A), another app of the same org (B) and an app of
 * another org (C). Every hostile request runs as A and must answer exactly what A's own data gives.
 */

const tag = randomUUID().slice(0, 8);
const A: TenantScope = { org_id: `org-${tag}`, app_id: `app-a-${tag}` };
const B: TenantScope = { org_id: `org-${tag}`, app_id: `app-b-${tag}` };
const C: TenantScope = { org_id: `org-c-${tag}`, app_id: `app-c-${tag}` };

const NOW = new Date('2026-03-15T10:30:00.000Z');

/** Each tenant: the shared ids s1, s2 with its own values, and ids only it has. */
function eventsOf(scope: TenantScope, letter: string, extra: number) {
  const own = Array.from({ length: extra }, (_, n) => `${letter}-only-${n + 1}`);
  return [...['s1', 's2'], ...own].map((id, n) =>
    toIndexDocument(
      scope,
      'events',
      apiCall({
        id,
        time: `2026-03-1${n}T12:00:00.000Z`,
        user: `user-${letter}`,
        company: `company-${letter}`,
        status: letter === 'a' ? 200 : 500,
        weight: letter === 'a' ? 1 : 100,
        metadata: { secret: `secret-of-${letter}` },
      }),
    ),
  );
}

const usersOf = (scope: TenantScope, letter: string) =>
  ['u1', 'u2'].map((id) =>
    toIndexDocument(scope, 'users', { id, time: '2026-03-01T00:00:00.000Z', data: { user_id: id, metadata: { email: `${id}@${letter}.test` } } }),
  );

// A: 2 shared + 1 own = 3 events; B: 2 + 3 = 5; C: 2 + 4 = 6.
const A_EVENTS = 3;
const FOREIGN_VALUES = ['user-b', 'user-c', 'company-b', 'company-c', 'secret-of-b', 'secret-of-c', B.app_id, C.app_id, C.org_id];

const contextOf = (scope: TenantScope, kind: IndexKind = 'events'): SearchContext => ({ scope, kind, timeZone: 'UTC', now: NOW });

describe.each(conformanceBackends())('tenant safety: $name', (backend) => {
  let index: SearchableIndex;

  beforeAll(async () => {
    index = await backend.open();
    const outcome = await index.index([
      ...eventsOf(A, 'a', 1),
      ...eventsOf(B, 'b', 3),
      ...eventsOf(C, 'c', 4),
      ...usersOf(A, 'a'),
      ...usersOf(B, 'b'),
      ...usersOf(C, 'c'),
    ]);
    expect(outcome.failures).toEqual([]);
    await index.refresh();
  }, 60_000);

  afterAll(async () => {
    await index?.close();
    await backend.dispose();
  }, 60_000);

  const searchAsA = (body: unknown, kind: IndexKind = 'events'): Promise<SearchResponse> => index.search(contextOf(A, kind), parseSearchRequest(body, kind));

  /** Nothing of B or C anywhere in the answer: not in hits, sources, sort values or buckets. */
  function expectOnlyA(response: SearchResponse): void {
    for (const hit of response.hits.hits) {
      if (hit._source !== undefined) expect({ org_id: hit._source.org_id, app_id: hit._source.app_id }).toEqual(A);
    }
    const text = JSON.stringify(response);
    for (const value of FOREIGN_VALUES) expect(text).not.toContain(JSON.stringify(value));
  }

  async function expectRejected(body: unknown): Promise<void> {
    await expect((async () => searchAsA(body))()).rejects.toMatchObject({ status: 400 });
  }

  it('answers the caller’s own data for a plain search and count', async () => {
    const response = await searchAsA({});
    expect(response.hits.total).toBe(A_EVENTS);
    expectOnlyA(response);
    expect(await index.countMatching(contextOf(A), { type: 'match_all' })).toBe(A_EVENTS);
    expect(await index.countMatching(contextOf(B), { type: 'match_all' })).toBe(5);
    expect(await index.countMatching(contextOf(C), { type: 'match_all' })).toBe(6);
  });

  it.each([
    ['top-level should with minimum_should_match 0', { bool: { should: [{ term: { app_id: B.app_id } }], minimum_should_match: 0 } }, 0],
    ['should of match_all and another app', { bool: { should: [{ match_all: {} }, { term: { app_id: B.app_id } }] } }, A_EVENTS],
    ['must_not on the caller’s own org', { bool: { must_not: [{ term: { org_id: A.org_id } }] } }, 0],
    ['must_not on the caller’s own app', { bool: { must_not: [{ term: { app_id: A.app_id } }] } }, 0],
    ['terms on the other tenants’ keys', { bool: { should: [{ terms: { org_id: [C.org_id] } }, { terms: { app_id: [B.app_id, C.app_id] } }] } }, 0],
    ['ids of documents only other tenants have', { ids: { values: ['b-only-1', 'c-only-4', `${B.app_id}:b-only-1`] } }, 0],
    ['ids shared by every tenant', { ids: { values: ['s1', 's2'] } }, 2],
    ['term on _id of a shared id', { term: { _id: 's1' } }, 1],
    ['wildcard on app_id', { wildcard: { app_id: '*' } }, A_EVENTS],
    ['exists on org_id', { exists: { field: 'org_id' } }, A_EVENTS],
    ['a range on time reaching back to 1970', { range: { time: { gte: 0 } } }, A_EVENTS],
    [
      'another tenant’s values',
      { bool: { should: [{ term: { user_id: 'user-b' } }, { match: { 'metadata.secret': { query: 'secret-of-c', operator: 'and' } } }] } },
      0,
    ],
    [
      'nested bools trying to escape',
      { bool: { should: [{ bool: { must_not: [{ match_all: {} }] } }, { bool: { should: [{ term: { org_id: C.org_id } }], minimum_should_match: '0%' } }] } },
      0,
    ],
  ])('query: %s', async (_name, query, expected) => {
    const response = await searchAsA({ query, size: 100 });
    expect(response.hits.total).toBe(expected);
    expect(response.hits.hits).toHaveLength(expected);
    expectOnlyA(response);
    expect(await index.countMatching(contextOf(A), parseSearchRequest({ query }, 'events').query)).toBe(expected);
  });

  it('post_filter cannot add documents', async () => {
    const response = await searchAsA({ post_filter: { bool: { should: [{ term: { app_id: B.app_id } }, { match_all: {} }] } }, size: 100 });
    expect(response.hits.total).toBe(A_EVENTS);
    expectOnlyA(response);
  });

  it('aggregations see only the caller’s documents', async () => {
    const response = await searchAsA({
      size: 0,
      aggs: {
        orgs: { terms: { field: 'org_id', size: 100 } },
        apps: { terms: { field: 'app_id', size: 100 } },
        app_count: { cardinality: { field: 'app_id' } },
        users: { terms: { field: 'user_id', size: 100 } },
        secrets: { terms: { field: 'metadata.secret.raw', size: 100 } },
        weight: { sum: { field: 'weight' } },
        everything: { filter: { match_all: {} }, aggs: { latest: { top_hits: { size: 100, sort: [{ time: 'desc' }] } } } },
        tricks: { filters: { filters: { other_app: { term: { app_id: B.app_id } }, other_org: { term: { org_id: C.org_id } }, all: { match_all: {} } } } },
        statuses: { terms: { field: 'response.status' } },
        by_day: { date_histogram: { field: 'time', calendar_interval: 'day', min_doc_count: 1 } },
      },
    });
    expect(response.hits.total).toBe(A_EVENTS);
    expectOnlyA(response);
    const aggregations = response.aggregations as Record<string, { buckets?: unknown; value?: unknown; doc_count?: number }>;
    expect(aggregations.orgs!.buckets).toEqual([{ key: A.org_id, doc_count: A_EVENTS }]);
    expect(aggregations.apps!.buckets).toEqual([{ key: A.app_id, doc_count: A_EVENTS }]);
    expect(aggregations.app_count!.value).toBe(1);
    expect(aggregations.weight!.value).toBe(A_EVENTS);
    expect(aggregations.everything!.doc_count).toBe(A_EVENTS);
    expect(aggregations.tricks!.buckets).toEqual({ other_app: { doc_count: 0 }, other_org: { doc_count: 0 }, all: { doc_count: A_EVENTS } });
    // B and C answer 500 with weight 100: neither may show.
    expect(aggregations.statuses!.buckets).toEqual([{ key: 200, doc_count: A_EVENTS }]);
    expect((aggregations.by_day!.buckets as unknown[]).length).toBe(A_EVENTS);
  });

  it('terms with min_doc_count 0 lists the caller’s own terms as zero buckets, never other tenants’', async () => {
    const zero = (field: string) => ({ terms: { field, min_doc_count: 0, size: 100 } });
    // No document of A matches: every bucket is a zero bucket, and only A's terms may have one.
    const response = await searchAsA({
      size: 0,
      query: { term: { user_id: 'nobody' } },
      aggs: { users: { ...zero('user_id'), aggs: { secrets: zero('metadata.secret.raw') } }, statuses: zero('response.status'), companies: zero('company_id') },
    });
    expectOnlyA(response);
    const aggregations = response.aggregations as Record<string, { buckets: Record<string, unknown>[] }>;
    expect(aggregations.users!.buckets).toEqual([
      { key: 'user-a', doc_count: 0, secrets: expect.objectContaining({ buckets: [{ key: 'secret-of-a', doc_count: 0 }] }) },
    ]);
    // B and C answer 500: not a zero bucket of A's.
    expect(aggregations.statuses!.buckets).toEqual([{ key: 200, doc_count: 0 }]);
    expect(aggregations.companies!.buckets).toEqual([{ key: 'company-a', doc_count: 0 }]);
    // With documents, A's buckets count them and nothing else is added.
    const all = await searchAsA({ size: 0, aggs: { users: zero('user_id') } });
    expect((all.aggregations!.users as { buckets: unknown[] }).buckets).toEqual([{ key: 'user-a', doc_count: A_EVENTS }]);
  });

  it('query_string on the tenant keys stays within the tenant, or is refused', async () => {
    for (const query of ['org_id:*', `app_id:"${B.app_id}" OR user_id:"user-a"`, `NOT org_id:"${A.org_id}"`]) {
      let response: SearchResponse | undefined;
      try {
        response = await searchAsA({ query: { query_string: { query } }, size: 100 });
      } catch (error) {
        expect(error).toMatchObject({ status: 400 });
      }
      if (response !== undefined) {
        expect(response.hits.total).toBeLessThanOrEqual(A_EVENTS);
        expectOnlyA(response);
      }
    }
  });

  it('refuses a global aggregation and index names', async () => {
    await expectRejected({ aggs: { all: { global: {}, aggs: { n: { value_count: { field: 'user_id' } } } } } });
    await expectRejected({ query: { term: { _index: 'events-2026.03' } } });
    await expectRejected({ index: 'events-*' });
  });

  it('an org that does not own the app sees nothing of it', async () => {
    const wrongOrg: TenantScope = { org_id: C.org_id, app_id: A.app_id };
    const response = await index.search(contextOf(wrongOrg), parseSearchRequest({ size: 100, aggs: { apps: { terms: { field: 'app_id' } } } }, 'events'));
    expect(response.hits.total).toBe(0);
    expect(response.hits.hits).toEqual([]);
    expect(await index.countMatching(contextOf(wrongOrg), { type: 'match_all' })).toBe(0);
  });

  it('profiles with the same ids stay apart', async () => {
    const response = await searchAsA({ query: { bool: { should: [{ match_all: {} }, { term: { app_id: C.app_id } }] } } }, 'users');
    expect(response.hits.hits.map((hit) => hit._id)).toEqual(['u1', 'u2']);
    expect(response.hits.hits.map((hit) => (hit._source!.metadata as { email: string }).email)).toEqual(['u1@a.test', 'u2@a.test']);
  });

  it('paging with search_after never crosses into another tenant', async () => {
    const seen: string[] = [];
    let searchAfter: unknown[] | undefined;
    for (let page = 0; page < 10; page += 1) {
      const response = await searchAsA({ size: 1, sort: [{ app_id: 'asc' }], ...(searchAfter === undefined ? {} : { search_after: searchAfter }) });
      expectOnlyA(response);
      if (response.hits.hits.length === 0) break;
      seen.push(...response.hits.hits.map((hit) => hit._id));
      searchAfter = response.hits.hits[0]!.sort as unknown[];
    }
    expect(seen.sort()).toEqual(['a-only-1', 's1', 's2']);
    // A search_after placed before every other tenant's keys still finds only A's documents.
    const response = await searchAsA({ size: 100, sort: [{ org_id: 'asc' }, { _id: 'asc' }], search_after: ['', ''] });
    expect(response.hits.total).toBe(A_EVENTS);
    expectOnlyA(response);
  });

  it('delete and deleteMatching never touch another tenant', async () => {
    const scope: TenantScope = { org_id: A.org_id, app_id: `app-d-${tag}` };
    const victim: TenantScope = { org_id: A.org_id, app_id: `app-e-${tag}` };
    await index.index([...eventsOf(scope, 'a', 1), ...eventsOf(victim, 'b', 3), ...usersOf(scope, 'a'), ...usersOf(victim, 'b')]);
    await index.refresh();

    expect(await index.delete(scope, 'events', 'b-only-1')).toBe(false);
    expect(await index.delete(scope, 'users', 'u1')).toBe(true);
    expect(await index.delete(scope, 'users', 'u1')).toBe(false);
    const hostile = parseSearchRequest({ query: { bool: { should: [{ match_all: {} }, { term: { app_id: victim.app_id } }] } } }, 'events').query;
    // OpenSearch deletes in a background task: follow it to its end.
    let progress = await index.deleteMatching(contextOf(scope), hostile);
    while (!progress.completed) {
      await new Promise((done) => setTimeout(done, 100));
      progress = (await index.deletionProgress(progress.task!))!;
    }
    expect(progress.deleted).toBe(A_EVENTS);
    await index.refresh();

    expect(await index.countMatching(contextOf(scope), { type: 'match_all' })).toBe(0);
    expect(await index.countMatching(contextOf(victim), { type: 'match_all' })).toBe(5);
    expect(await index.get(victim, 'users', 'u1')).toBeDefined();
    expect(await index.get(victim, 'events', 'b-only-1')).toBeDefined();
    expect(await index.get(scope, 'users', 'u2')).toBeDefined();
  });
});
