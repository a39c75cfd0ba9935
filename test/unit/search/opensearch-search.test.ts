import { parseQuery, parseSearchRequest } from '../../../functions/search/dsl';
import { ServiceUnavailableError, ValidationError } from '../../../functions/shared/errors';
import { eventDocument } from '../../../functions/search/index-documents';
import { createOpenSearchIndex, tenantClauses, voidedClauses } from '../../../functions/search/opensearch/opensearch-index';
import { toOpenSearchQuery } from '../../../functions/search/opensearch/query-body';
import { toStoredSource } from '../../../functions/search/opensearch/stored-source';
import type { IndexKind, SearchContext } from '../../../functions/search/port';
import { fakeOpenSearch, type FakeAnswer, type RecordedRequest } from './support/fake-opensearch';

const scope = { org_id: 'org-1', app_id: 'app-1' };
const window = { from: new Date('2026-03-01T00:00:00.000Z'), to: new Date('2026-03-15T00:00:00.000Z') };
const now = new Date('2026-03-15T10:30:00.000Z');
const context = (kind: IndexKind = 'events'): SearchContext => ({ scope, kind, range: window, timeZone: 'UTC', now });
const unbounded = (kind: IndexKind): SearchContext => ({ scope, kind, timeZone: 'UTC', now });

const call = (request: RecordedRequest) => `${request.method} ${decodeURIComponent(request.path)}`;
const bodyOf = (request: RecordedRequest | undefined) => JSON.parse(request!.body!) as Record<string, unknown>;

const stored = (id: string, data: Record<string, unknown> = {}) =>
  toStoredSource(
    eventDocument(scope, 'event', {
      id,
      time: '2026-03-10T12:00:00.000Z',
      received_at: '2026-03-10T12:00:00.000Z',
      data: {
        request: {
          time: '2026-03-10T12:00:00.000Z',
          uri: 'https://api.example.com/upload',
          verb: 'PUT',
          headers: {},
          transfer_encoding: 'base64',
          body: 'aGVsbG8=',
        },
        user_id: 'u-1',
        ...data,
      },
    }),
  );

const emptyAnswer: FakeAnswer = { status: 200, body: { took: 1, timed_out: false, _shards: { total: 1, failed: 0 }, hits: { total: { value: 0 }, hits: [] } } };

describe('OpenSearch search (scripted cluster)', () => {
  it('wraps the query in the tenant filter, sorts newest first with the doc_id tie-breaker, and passes track_total_hits on', async () => {
    const { client, requests } = fakeOpenSearch(() => emptyAnswer);
    const index = createOpenSearchIndex({ client, indexPrefix: 'p-' });
    const request = parseSearchRequest({ query: { term: { user_id: 'u-1' } }, size: 5, from: 10, track_total_hits: false }, 'events');
    await index.search(context(), request);

    expect(requests.map(call)).toEqual(['POST /p-events-*/_search']);
    expect(requests[0]!.query.get('ignore_unavailable')).toBe('true');
    const body = bodyOf(requests[0]);
    // Voided events are left out inside the tenant wrap.
    expect(body.query).toEqual({
      bool: { filter: [...tenantClauses(scope, window), ...voidedClauses(undefined), toOpenSearchQuery(request.query, context())] },
    });
    expect(body.sort).toEqual([
      { 'index_meta.time': { order: 'desc', missing: '_last', unmapped_type: 'date' } },
      { 'index_meta.doc_id': { order: 'asc', missing: '_last', unmapped_type: 'keyword' } },
    ]);
    expect(body).toMatchObject({ size: 5, from: 10, track_total_hits: false });
    expect(body).not.toHaveProperty('search_after');
  });

  it('searches a profile index without a time window, sorted by id', async () => {
    const { client, requests } = fakeOpenSearch(() => emptyAnswer);
    await createOpenSearchIndex({ client, indexPrefix: 'p-' }).search(unbounded('users'), parseSearchRequest({}, 'users'));
    expect(requests.map(call)).toEqual(['POST /p-users/_search']);
    const body = bodyOf(requests[0]);
    expect(body.query).toEqual({ bool: { filter: tenantClauses(scope) } });
    expect(body.sort).toEqual([{ 'index_meta.doc_id': { order: 'asc', missing: '_last', unmapped_type: 'keyword' } }]);
  });

  it('answers plain ids, sources as indexed and filtered, integer totals, and null for missing sort values', async () => {
    const { client } = fakeOpenSearch(() => ({
      status: 200,
      body: {
        took: 3,
        timed_out: false,
        _shards: { total: 2, failed: 0 },
        hits: {
          total: { value: 42, relation: 'eq' },
          max_score: null,
          hits: [
            { _index: 'p-events-2026.03', _id: 'app-1:e-1', _score: null, _source: stored('e-1', { metadata: { score: 3 } }), sort: [3, 1773144000000, 'e-1'] },
            // OpenSearch reports a missing double as "Infinity" and a missing date as Long.MAX_VALUE.
            // biome-ignore lint/correctness/noPrecisionLoss: the number as OpenSearch's JSON has it, read as a double
            { _index: 'p-events-2026.03', _id: 'app-1:e-2', _score: null, _source: stored('e-2'), sort: ['Infinity', 9223372036854775807, 'e-2'] },
          ],
        },
      },
    }));
    const index = createOpenSearchIndex({ client });
    const response = await index.search(
      context(),
      parseSearchRequest({ sort: [{ 'metadata.score': 'asc' }, { received_at: 'asc' }], _source: ['request.body', 'user_id', 'metadata'] }, 'events'),
    );
    expect(response).toEqual({
      took: expect.any(Number),
      timed_out: false,
      hits: {
        total: 42,
        max_score: null,
        hits: [
          { _id: 'e-1', _source: { request: { body: 'aGVsbG8=' }, user_id: 'u-1', metadata: { score: 3 } }, sort: [3, 1773144000000, 'e-1'] },
          { _id: 'e-2', _source: { request: { body: 'aGVsbG8=' }, user_id: 'u-1' }, sort: [null, null, 'e-2'] },
        ],
      },
    });
  });

  it('sorts numbers as doubles and turns null search_after values into the extremes OpenSearch sorts missing values at', async () => {
    const { client, requests } = fakeOpenSearch(() => emptyAnswer);
    const index = createOpenSearchIndex({ client });
    await index.search(
      context(),
      parseSearchRequest(
        {
          sort: [{ 'metadata.score': 'asc' }, { time: { order: 'desc' } }, { received_at: { order: 'desc', missing: '_first' } }, { user_id: 'asc' }],
          search_after: [null, null, null, null, 'e-9'],
        },
        'events',
      ),
    );
    const text = requests[0]!.body!;
    // Long extremes go out exactly, which a JS number cannot hold.
    expect(text).toContain('"search_after":["Infinity",-9223372036854775808,9223372036854775807,null,"e-9"]');
    expect(bodyOf(requests[0]).sort).toEqual([
      { 'metadata.score': { order: 'asc', missing: '_last', unmapped_type: 'double', numeric_type: 'double' } },
      { 'index_meta.time': { order: 'desc', missing: '_last', unmapped_type: 'date' } },
      { received_at: { order: 'desc', missing: '_first', unmapped_type: 'date' } },
      { user_id: { order: 'asc', missing: '_last', unmapped_type: 'keyword' } },
      { 'index_meta.doc_id': { order: 'asc', missing: '_last', unmapped_type: 'keyword' } },
    ]);
  });

  it('reads search_after dates given as ISO strings and refuses a search_after that does not fit the sort', async () => {
    const { client, requests } = fakeOpenSearch(() => emptyAnswer);
    const index = createOpenSearchIndex({ client });
    await index.search(context(), parseSearchRequest({ sort: [{ time: 'asc' }], search_after: ['2026-03-10T12:00:00.000Z', 'e-1'] }, 'events'));
    // A time-then-id page reads by time after the date, and that millisecond's events after the id (time-pages.ts).
    expect(requests.map((request) => bodyOf(request).search_after)).toStrictEqual([[1773144000000], ['e-1']]);
    expect(JSON.stringify(bodyOf(requests[1]).query)).toContain('"gte":1773144000000,"lte":1773144000000');
    // The parser checks this too; the adapter does not rely on it.
    const short = { ...parseSearchRequest({ sort: [{ time: 'asc' }] }, 'events'), search_after: [1773144000000] };
    await expect(index.search(context(), short)).rejects.toMatchObject({
      status: 400,
      details: [{ field: 'search_after' }],
    });
  });

  it('reshapes top_hits inside buckets, which sort on doc_id too', async () => {
    const { client, requests } = fakeOpenSearch(() => ({
      status: 200,
      body: {
        took: 1,
        timed_out: false,
        _shards: { total: 1, failed: 0 },
        hits: { total: { value: 3 }, hits: [] },
        aggregations: {
          users: {
            doc_count_error_upper_bound: 0,
            sum_other_doc_count: 0,
            buckets: [
              {
                key: 'u-1',
                doc_count: 3,
                latest: {
                  hits: {
                    total: { value: 3, relation: 'eq' },
                    max_score: null,
                    hits: [{ _index: 'x', _id: 'app-1:e-7', _score: null, _source: stored('e-7'), sort: [5] }],
                  },
                },
              },
            ],
          },
        },
      },
    }));
    const index = createOpenSearchIndex({ client });
    const request = parseSearchRequest(
      { size: 0, aggs: { users: { terms: { field: 'user_id' }, aggs: { latest: { top_hits: { size: 1, sort: [{ _id: 'desc' }], _source: ['user_id'] } } } } } },
      'events',
    );
    const response = await index.search(context(), request);
    const sent = bodyOf(requests[0]) as { aggs: { users: { aggs: { latest: { top_hits: { sort: unknown } } } } } };
    expect(sent.aggs.users.aggs.latest.top_hits.sort).toEqual([{ 'index_meta.doc_id': { order: 'desc', missing: '_last', unmapped_type: 'keyword' } }]);
    expect(response.aggregations).toEqual({
      users: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [
          { key: 'u-1', doc_count: 3, latest: { hits: { total: 3, max_score: null, hits: [{ _id: 'e-7', _source: { user_id: 'u-1' }, sort: [5] }] } } },
        ],
      },
    });
  });

  describe("terms with min_doc_count 0 (zero buckets of the caller's own terms only)", () => {
    const zeroBody = {
      size: 0,
      aggs: {
        users: {
          terms: { field: 'user_id', min_doc_count: 0 },
          aggs: { routes: { terms: { field: 'request.route.raw', min_doc_count: 0, missing: 'none' } } },
        },
        plain: { terms: { field: 'verb' } },
      },
    };
    const termsAnswer = (aggregations: Record<string, unknown>): FakeAnswer => ({ status: 200, body: { ...(emptyAnswer.body as object), aggregations } });

    it("first reads the tenant's terms (tenant filter only), then lists zero buckets for exactly those", async () => {
      const answers: FakeAnswer[] = [
        termsAnswer({
          tenant_terms_0: {
            sum_other_doc_count: 0,
            buckets: [
              { key: 'u-1', doc_count: 4 },
              { key: 'u-2', doc_count: 1 },
            ],
          },
          tenant_terms_1: {
            sum_other_doc_count: 0,
            buckets: [
              { key: '/a', doc_count: 3 },
              { key: 'none', doc_count: 2 },
            ],
          },
        }),
        emptyAnswer,
      ];
      const { client, requests } = fakeOpenSearch(() => answers.shift()!);
      await createOpenSearchIndex({ client, indexPrefix: 'p-' }).search(context(), parseSearchRequest(zeroBody, 'events'));
      expect(requests.map(call)).toEqual(['POST /p-events-*/_search', 'POST /p-events-*/_search']);
      // No time window and no caller query: every term of the tenant, as DuckDB lists them; nothing of another tenant.
      expect(bodyOf(requests[0])).toEqual({
        size: 0,
        track_total_hits: false,
        query: { bool: { filter: [...tenantClauses(scope), ...voidedClauses(undefined)] } },
        aggs: {
          tenant_terms_0: { terms: { field: 'user_id', size: 10000, order: { _key: 'asc' } } },
          tenant_terms_1: { terms: { field: 'request.route.raw', size: 10000, order: { _key: 'asc' }, missing: 'none' } },
        },
      });
      const sent = bodyOf(requests[1]) as {
        aggs: Record<string, { terms: Record<string, unknown>; aggs?: Record<string, { terms: Record<string, unknown> }> }>;
      };
      expect(sent.aggs.users!.terms).toMatchObject({ min_doc_count: 0, include: ['u-1', 'u-2'] });
      expect(sent.aggs.users!.aggs!.routes!.terms).toMatchObject({ min_doc_count: 0, include: ['/a', 'none'], missing: 'none' });
      expect(sent.aggs.plain!.terms).toMatchObject({ min_doc_count: 1 });
      expect(sent.aggs.plain!.terms).not.toHaveProperty('include');
    });

    it('lists dates and booleans by their text, and leaves a field the tenant never filled at min_doc_count 1', async () => {
      const answers: FakeAnswer[] = [
        termsAnswer({
          tenant_terms_0: { sum_other_doc_count: 0, buckets: [{ key: 1, key_as_string: 'true', doc_count: 2 }] },
          tenant_terms_1: { sum_other_doc_count: 0, buckets: [] },
        }),
        emptyAnswer,
      ];
      const { client, requests } = fakeOpenSearch(() => answers.shift()!);
      const body = {
        size: 0,
        aggs: { late: { terms: { field: 'is_late', min_doc_count: 0 } }, tiers: { terms: { field: 'metadata.tier.raw', min_doc_count: 0 } } },
      };
      await createOpenSearchIndex({ client }).search(context(), parseSearchRequest(body, 'events'));
      const sent = bodyOf(requests[1]) as { aggs: Record<string, { terms: Record<string, unknown> }> };
      expect(sent.aggs.late!.terms).toMatchObject({ min_doc_count: 0, include: ['true'] });
      expect(sent.aggs.tiers!.terms).toMatchObject({ min_doc_count: 1 });
      expect(sent.aggs.tiers!.terms).not.toHaveProperty('include');
    });

    it('refuses, naming the aggregation, when the tenant has more terms than a listing reads', async () => {
      const { client, requests } = fakeOpenSearch(() =>
        termsAnswer({
          tenant_terms_0: { sum_other_doc_count: 5, buckets: [{ key: 'u-1', doc_count: 1 }] },
          tenant_terms_1: { sum_other_doc_count: 0, buckets: [] },
        }),
      );
      const search = createOpenSearchIndex({ client }).search(context(), parseSearchRequest(zeroBody, 'events'));
      await expect(search).rejects.toBeInstanceOf(ValidationError);
      await expect(search).rejects.toMatchObject({ details: [{ field: 'aggs.users.terms.min_doc_count' }] });
      expect(requests).toHaveLength(1);
    });
  });

  describe('hits.total under track_total_hits (the same rule as DuckDB: total-hits.ts)', () => {
    const answerWith = (total: unknown, ids: string[]): FakeAnswer => ({
      status: 200,
      body: {
        took: 1,
        timed_out: false,
        _shards: { total: 1, failed: 0 },
        hits: { ...(total === undefined ? {} : { total }), hits: ids.map((id) => ({ _id: `app-1:${id}`, _source: stored(id), sort: [1, id] })) },
      },
    });

    it('false: OpenSearch counts nothing and the total is what the page proves (from + hits, 0 for an empty page)', async () => {
      const answers = [answerWith(undefined, ['e-1', 'e-2']), answerWith(undefined, [])];
      const { client, requests } = fakeOpenSearch(() => answers.shift()!);
      const index = createOpenSearchIndex({ client });
      const page = await index.search(context(), parseSearchRequest({ from: 10, size: 5, track_total_hits: false }, 'events'));
      expect(bodyOf(requests[0]).track_total_hits).toBe(false);
      expect(page.hits.total).toBe(12);
      expect((await index.search(context(), parseSearchRequest({ from: 10, size: 5, track_total_hits: false }, 'events'))).hits.total).toBe(0);
    });

    it('a number N: counted up to N (OpenSearch answers N with relation gte past it); beyond a Java int, exactly', async () => {
      const answers = [answerWith({ value: 3, relation: 'gte' }, ['e-1', 'e-2', 'e-3', 'e-4']), answerWith({ value: 4, relation: 'eq' }, [])];
      const { client, requests } = fakeOpenSearch(() => answers.shift()!);
      const index = createOpenSearchIndex({ client });
      const capped = await index.search(context(), parseSearchRequest({ size: 10, track_total_hits: 3 }, 'events'));
      expect(bodyOf(requests[0]).track_total_hits).toBe(3);
      expect(capped.hits.total).toBe(3);
      const huge = await index.search(context(), parseSearchRequest({ size: 0, track_total_hits: 2 ** 40 }, 'events'));
      expect(bodyOf(requests[1]).track_total_hits).toBe(true);
      expect(huge.hits.total).toBe(4);
    });

    it('true (the default): exact', async () => {
      const { client, requests } = fakeOpenSearch(() => answerWith({ value: 42, relation: 'eq' }, []));
      const response = await createOpenSearchIndex({ client }).search(context(), parseSearchRequest({ size: 0 }, 'events'));
      expect(bodyOf(requests[0]).track_total_hits).toBe(true);
      expect(response.hits.total).toBe(42);
    });
  });

  describe('the bucket cap (bucket-cap.ts, as DuckDB applies it)', () => {
    const histogramBody = { size: 0, aggs: { fine: { histogram: { field: 'duration_ms', interval: 0.01 } } } };
    const withAggregations = (aggregations: Record<string, unknown>): FakeAnswer => ({ status: 200, body: { ...(emptyAnswer.body as object), aggregations } });
    const histogramBuckets = (count: number) => Array.from({ length: count }, (_, i) => ({ key: i, doc_count: i === 0 ? 1 : 0 }));
    const refusal = async (search: Promise<unknown>) => {
      const failure = await search.then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(ValidationError);
      return (failure as ValidationError).details.map((detail) => detail.field);
    };

    it('refuses buckets the request alone fixes before sending anything', async () => {
      const { client, requests } = fakeOpenSearch(() => emptyAnswer);
      const body = {
        size: 0,
        aggs: { minutes: { date_histogram: { field: 'time', fixed_interval: '1m', extended_bounds: { min: '2026-01-01', max: '2026-03-01' } } } },
      };
      expect(await refusal(createOpenSearchIndex({ client }).search(context(), parseSearchRequest(body, 'events')))).toEqual(['aggs.minutes']);
      expect(requests).toHaveLength(0);
    });

    it('counts the answer: 10,000 buckets pass, one more is refused naming the aggregation', async () => {
      const answers = [withAggregations({ fine: { buckets: histogramBuckets(10_000) } }), withAggregations({ fine: { buckets: histogramBuckets(10_001) } })];
      const { client } = fakeOpenSearch(() => answers.shift()!);
      const index = createOpenSearchIndex({ client });
      const within = await index.search(context(), parseSearchRequest(histogramBody, 'events'));
      expect((within.aggregations!.fine as { buckets: unknown[] }).buckets).toHaveLength(10_000);
      expect(await refusal(index.search(context(), parseSearchRequest(histogramBody, 'events')))).toEqual(['aggs.fine']);
    });

    it('names the level whose buckets pass the cap, nested ones included', async () => {
      const { client } = fakeOpenSearch(() =>
        withAggregations({
          routes: {
            buckets: Array.from({ length: 3 }, (_, route) => ({ key: `/r${route}`, doc_count: 1, days: { buckets: histogramBuckets(4000) } })),
          },
        }),
      );
      const body = {
        size: 0,
        aggs: { routes: { terms: { field: 'request.route.raw' }, aggs: { days: { histogram: { field: 'duration_ms', interval: 1 } } } } },
      };
      expect(await refusal(createOpenSearchIndex({ client }).search(context(), parseSearchRequest(body, 'events')))).toEqual(['aggs.routes.aggs.days']);
    });

    it.each([
      [
        'a 400 whose root cause it is',
        {
          status: 400,
          body: {
            error: {
              root_cause: [{ type: 'too_many_buckets_exception', reason: 'Trying to create too many buckets' }],
              type: 'search_phase_execution_exception',
            },
            status: 400,
          },
        },
      ],
      [
        'a 503 caused by it',
        {
          status: 503,
          body: {
            error: {
              type: 'search_phase_execution_exception',
              root_cause: [],
              caused_by: { type: 'too_many_buckets_exception', reason: 'Trying to create too many buckets' },
            },
            status: 503,
          },
        },
      ],
      [
        'a shard failure',
        {
          status: 200,
          body: {
            took: 1,
            timed_out: false,
            _shards: {
              total: 2,
              failed: 1,
              failures: [{ shard: 0, reason: { type: 'too_many_buckets_exception', reason: 'Trying to create too many buckets' } }],
            },
            hits: { total: { value: 0 }, hits: [] },
          },
        },
      ],
    ] as const)("turns the cluster's too_many_buckets_exception (%s) into the same 400, not a 503", async (_title, answer) => {
      const { client } = fakeOpenSearch(() => answer);
      const body = { size: 0, aggs: { routes: { terms: { field: 'request.route.raw' } }, fine: { histogram: { field: 'duration_ms', interval: 0.01 } } } };
      expect(await refusal(createOpenSearchIndex({ client }).search(context(), parseSearchRequest(body, 'events')))).toEqual(['aggs.fine']);
    });
  });

  it('a refusal whose root cause and error say nothing names its deepest cause (a failed script)', async () => {
    const { client } = fakeOpenSearch(() => ({
      status: 400,
      body: {
        error: {
          root_cause: [],
          type: 'search_phase_execution_exception',
          reason: '',
          caused_by: {
            type: 'script_exception',
            reason: '',
            caused_by: { type: 'painless_error', reason: 'The maximum number of statements that can be executed in a loop has been reached.' },
          },
        },
        status: 400,
      },
    }));
    await expect(createOpenSearchIndex({ client }).search(context(), parseSearchRequest({}, 'events'))).rejects.toMatchObject({
      status: 400,
      details: [{ field: 'body', reason: 'The maximum number of statements that can be executed in a loop has been reached.' }],
    });
  });

  it('counts with _count inside the tenant wrap', async () => {
    const { client, requests } = fakeOpenSearch(() => ({ status: 200, body: { count: 7 } }));
    const query = parseQuery({ range: { 'response.status': { gte: 500 } } });
    expect(await createOpenSearchIndex({ client, indexPrefix: 'p-' }).countMatching(context(), query)).toBe(7);
    expect(requests.map(call)).toEqual(['POST /p-events-*/_count']);
    expect(bodyOf(requests[0])).toEqual({
      query: { bool: { filter: [...tenantClauses(scope, window), ...voidedClauses(undefined), toOpenSearchQuery(query, context())] } },
    });
  });

  it('deletes one document of the tenant by id, and says when there was none', async () => {
    const answers: FakeAnswer[] = [
      { status: 200, body: { deleted: 1, failures: [] } },
      { status: 200, body: { deleted: 0, failures: [] } },
    ];
    const { client, requests } = fakeOpenSearch(() => answers.shift()!);
    const index = createOpenSearchIndex({ client, indexPrefix: 'p-' });
    expect(await index.delete(scope, 'users', 'u-1')).toBe(true);
    expect(await index.delete(scope, 'users', 'u-1')).toBe(false);
    expect(requests.map(call)).toEqual(['POST /p-users/_delete_by_query', 'POST /p-users/_delete_by_query']);
    expect(requests[0]!.query.get('refresh')).toBe('true');
    expect(bodyOf(requests[0])).toEqual({ query: { bool: { filter: [{ ids: { values: ['app-1:u-1'] } }, ...tenantClauses(scope)] } } });
  });

  it('deletes what matches inside the tenant wrap as a background task, and reports its progress, its end and its failures', async () => {
    const answers: FakeAnswer[] = [
      { status: 200, body: { task: 'node-1:42' } },
      { status: 200, body: { completed: false, task: { status: { total: 10, deleted: 4 } } } },
      { status: 200, body: { completed: true, task: { status: { total: 10, deleted: 10 } }, response: { total: 10, deleted: 10, failures: [] } } },
      { status: 200, body: { completed: true, response: { total: 10, deleted: 9, failures: [{ cause: { type: 'es_rejected_execution_exception' } }] } } },
      { status: 404, body: { error: { type: 'resource_not_found_exception' } } },
      { status: 200, body: {} },
    ];
    const { client, requests } = fakeOpenSearch(() => answers.shift()!);
    const index = createOpenSearchIndex({ client });
    const query = parseQuery({ term: { user_id: 'u-1' } });
    const ctx = unbounded('events');
    expect(await index.deleteMatching(ctx, query)).toEqual({ task: 'node-1:42', completed: false, deleted: 0 });
    expect(call(requests[0]!)).toMatch(/_delete_by_query$/);
    expect(requests[0]!.query.get('wait_for_completion')).toBe('false');
    expect(requests[0]!.query.get('slices')).toBe('auto');
    expect(bodyOf(requests[0])).toEqual({ query: { bool: { filter: [...tenantClauses(scope), toOpenSearchQuery(query, ctx)] } } });
    expect(await index.deletionProgress('node-1:42')).toEqual({ task: 'node-1:42', completed: false, deleted: 4, total: 10 });
    expect(call(requests[1]!)).toBe('GET /_tasks/node-1:42');
    expect(await index.deletionProgress('node-1:42')).toEqual({ task: 'node-1:42', completed: true, deleted: 10, total: 10 });
    expect(await index.deletionProgress('node-1:42')).toMatchObject({
      completed: true,
      deleted: 9,
      error: expect.stringContaining('es_rejected_execution_exception'),
    });
    expect(await index.deletionProgress('node-9:1')).toBeUndefined();
    // A cluster that does not start the task is a 503 for the caller to retry.
    await expect(index.deleteMatching(ctx, query)).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('turns a search OpenSearch refuses into a 400 with its reason', async () => {
    const { client } = fakeOpenSearch(() => ({
      status: 400,
      body: {
        error: {
          root_cause: [{ type: 'illegal_argument_exception', reason: 'Text fields are not optimised for operations' }],
          type: 'search_phase_execution_exception',
        },
        status: 400,
      },
    }));
    const failure = createOpenSearchIndex({ client }).search(context(), parseSearchRequest({}, 'events'));
    await expect(failure).rejects.toBeInstanceOf(ValidationError);
    await expect(failure).rejects.toMatchObject({ details: [{ field: 'body', reason: 'Text fields are not optimised for operations' }] });
  });

  it('does not pass off a partial answer when a shard failed', async () => {
    const { client } = fakeOpenSearch(() => ({
      status: 200,
      body: {
        took: 1,
        timed_out: false,
        _shards: { total: 2, failed: 1, failures: [{ reason: { type: 'node_disconnected_exception', reason: 'gone' } }] },
        hits: { total: { value: 1 }, hits: [] },
      },
    }));
    await expect(createOpenSearchIndex({ client }).search(context(), parseSearchRequest({}, 'events'))).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});
