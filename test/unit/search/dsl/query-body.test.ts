import { toOpenSearchQuery, toOpenSearchSearchBody } from '../../../../functions/search/opensearch/query-body';
import { serialiseBody } from '../../../../functions/search/opensearch/sort';
import type { SearchContext } from '../../../../functions/search/port';
import { parseQuery, parseSearchRequest } from '../../../../functions/search/dsl';

const NOW = new Date('2026-03-15T10:30:00.000Z');
const ctx: SearchContext = { scope: { org_id: 'org-1', app_id: 'app-1' }, kind: 'events', timeZone: 'UTC', now: NOW };
const serialize = (query: unknown, at: SearchContext = ctx) => toOpenSearchQuery(parseQuery(query), at);
const WRAP = { bool: { filter: [{ term: { org_id: 'org-1' } }, { term: { app_id: 'app-1' } }] } };

describe('toOpenSearchQuery', () => {
  test.each<[string, unknown, unknown]>([
    ['term', { term: { user_id: 'u1' } }, { term: { user_id: { value: 'u1' } } }],
    [
      'term, case_insensitive, .raw kept',
      { term: { 'request.route.raw': { value: '/A', case_insensitive: true } } },
      { term: { 'request.route.raw': { value: '/A', case_insensitive: true } } },
    ],
    ['terms', { terms: { 'response.status': [200, '404'] } }, { terms: { 'response.status': [200, '404'] } }],
    ["ids carry the app: the one clause on OpenSearch's own _id", { ids: { values: ['e1', 'e2'] } }, { ids: { values: ['app-1:e1', 'app-1:e2'] } }],
    ["an exact term on _id asks OpenSearch's indexed _id (doc_id is doc values only)", { term: { _id: 'e1' } }, { ids: { values: ['app-1:e1'] } }],
    [
      'case_insensitive term on _id keeps the flag',
      { term: { _id: { value: 'E1', case_insensitive: true } } },
      { term: { 'index_meta.doc_id': { value: 'E1', case_insensitive: true } } },
    ],
    ['terms on _id', { terms: { _id: ['e1', 'e2'] } }, { ids: { values: ['app-1:e1', 'app-1:e2'] } }],
    ['_id.raw is _id too', { terms: { '_id.raw': ['e1'] } }, { ids: { values: ['app-1:e1'] } }],
    ['a prefix of _id reads the plain doc_id', { prefix: { _id: 'e' } }, { prefix: { 'index_meta.doc_id': { value: 'e' } } }],
    ['prefix on _id', { prefix: { _id: 'ord_' } }, { prefix: { 'index_meta.doc_id': { value: 'ord_' } } }],
    ['range on _id compares plain ids', { range: { _id: { gte: 'e1', lt: 'e5' } } }, { range: { 'index_meta.doc_id': { gte: 'e1', lt: 'e5' } } }],
    ['match on _id is an exact term', { match: { _id: 'e1' } }, { ids: { values: ['app-1:e1'] } }],
    ['exists on _id is every document', { exists: { field: '_id' } }, { match_all: {} }],
    ['time is index_meta.time', { exists: { field: 'time' } }, { exists: { field: 'index_meta.time' } }],
    [
      'a date term is the range it names, resolved here (epoch-millis text, as the specification types date bounds)',
      { term: { time: '2026-03-14' } },
      {
        range: {
          'index_meta.time': { gte: String(Date.parse('2026-03-14T00:00:00Z')), lte: String(Date.parse('2026-03-14T23:59:59.999Z')), format: 'epoch_millis' },
        },
      },
    ],
    [
      'date math with the request now',
      { range: { received_at: { gte: 'now-1d/d', lt: 'now' } } },
      { range: { received_at: { gte: String(Date.parse('2026-03-14T00:00:00Z')), lt: String(NOW.getTime()), format: 'epoch_millis' } } },
    ],
    [
      'gt and lte round up',
      { range: { 'request.time': { gt: '2026-03-14', lte: '2026-03-15||/d' } } },
      {
        range: {
          'request.time': { gt: String(Date.parse('2026-03-14T23:59:59.999Z')), lte: String(Date.parse('2026-03-15T23:59:59.999Z')), format: 'epoch_millis' },
        },
      },
    ],
    [
      'a range time zone',
      { range: { time: { gte: '2026-03-15', time_zone: '+02:00' } } },
      { range: { 'index_meta.time': { gte: String(Date.parse('2026-03-14T22:00:00Z')), format: 'epoch_millis' } } },
    ],
    ['a number range', { range: { 'response.status': { gte: '400' } } }, { range: { 'response.status': { gte: '400' } } }],
    ['numbers stay numbers', { range: { 'response.status': { gte: 400, lt: 500 } } }, { range: { 'response.status': { gte: 400, lt: 500 } } }],
    [
      'a bound of mixed types is sent as text',
      { range: { 'response.status': { gte: 400, lt: '500' } } },
      { range: { 'response.status': { gte: '400', lt: '500' } } },
    ],
    ['match', { match: { 'request.uri': { query: 'a b', operator: 'and' } } }, { match: { 'request.uri': { query: 'a b', operator: 'and' } } }],
    ['match_phrase', { match_phrase: { 'request.uri': 'a b' } }, { match_phrase: { 'request.uri': { query: 'a b' } } }],
    ['prefix on text is lower-cased', { prefix: { 'request.route': 'USE' } }, { prefix: { 'request.route': { value: 'use' } } }],
    [
      'prefix on a keyword is not',
      { prefix: { user_id: { value: 'U', case_insensitive: true } } },
      { prefix: { user_id: { value: 'U', case_insensitive: true } } },
    ],
    ['wildcard on _id matches plain ids', { wildcard: { _id: 'e*' } }, { wildcard: { 'index_meta.doc_id': { value: 'e*' } } }],
    [
      'match_all / match_none',
      { bool: { should: [{ match_all: {} }, { match_none: {} }], minimum_should_match: '50%' } },
      { bool: { should: [{ match_all: {} }, { match_none: {} }], minimum_should_match: '50%' } },
    ],
    [
      'query_string is expanded into clauses',
      { query_string: { query: 'user_id:u1 AND response.status:>=500' } },
      { bool: { must: [{ match: { user_id: { query: 'u1', operator: 'or' } } }, { range: { 'response.status': { gte: '500' } } }] } },
    ],
  ])('%s', (_name, query, expected) => {
    expect(serialize(query)).toEqual(expected);
  });

  test('empty bool lists are left out', () => {
    expect(serialize({ bool: { must_not: { term: { user_id: 'x' } } } })).toEqual({ bool: { must_not: [{ term: { user_id: { value: 'x' } } }] } });
  });

  test('a range on text is a 400, as on DuckDB', () => {
    expect(() => toOpenSearchQuery({ type: 'range', field: 'request.uri', gte: 'a' }, ctx)).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe('toOpenSearchSearchBody', () => {
  test('the query and post_filter sit inside the tenant wrap; sort gets the tie-breaker and unmapped types', () => {
    const request = parseSearchRequest(
      {
        query: { bool: { should: [{ match_all: {} }, { term: { app_id: 'app-2' } }] } },
        post_filter: { term: { user_id: 'u1' } },
        sort: [{ time: 'desc' }, 'weight', { 'metadata.tier.raw': { order: 'asc', missing: '_first' } }],
        size: 5,
        _source: ['user_id'],
      },
      'events',
    );
    expect(toOpenSearchSearchBody(request, [WRAP], ctx)).toEqual({
      query: { bool: { filter: [WRAP, { bool: { should: [{ match_all: {} }, { term: { app_id: { value: 'app-2' } } }] } }] } },
      post_filter: { term: { user_id: { value: 'u1' } } },
      size: 5,
      from: 0,
      sort: [
        { 'index_meta.time': { order: 'desc', missing: '_last', unmapped_type: 'date' } },
        { weight: { order: 'asc', missing: '_last', unmapped_type: 'double', numeric_type: 'double' } },
        { 'metadata.tier.raw': { order: 'asc', missing: '_first', unmapped_type: 'keyword' } },
        { 'index_meta.doc_id': { order: 'asc', missing: '_last', unmapped_type: 'keyword' } },
      ],
      track_total_hits: true,
      _source: true,
    });
  });

  test('a match_all query leaves only the wrap; an array wrap is spread', () => {
    const body = toOpenSearchSearchBody(parseSearchRequest({ _source: false }, 'users'), [{ term: { org_id: 'o' } }], { ...ctx, kind: 'users' });
    expect(body).toMatchObject({
      query: { bool: { filter: [{ term: { org_id: 'o' } }] } },
      _source: false,
      sort: [{ 'index_meta.doc_id': { order: 'asc', missing: '_last' } }],
    });
  });

  test('hits without sources take their ids from doc values, fetching no stored field; a listing in id order from its sort values', () => {
    const byTime = toOpenSearchSearchBody(parseSearchRequest({ _source: false }, 'events'), [WRAP], ctx);
    expect(byTime).toMatchObject({ _source: false, stored_fields: '_none_', docvalue_fields: ['index_meta.doc_id'] });
    // Profiles sort by id alone: each hit's sort value is its id, no doc values fetched beside it.
    const body = toOpenSearchSearchBody(parseSearchRequest({ _source: false }, 'users'), [WRAP], { ...ctx, kind: 'users' });
    expect(body).toMatchObject({ _source: false, stored_fields: '_none_', sort: [{ 'index_meta.doc_id': expect.anything() }] });
    expect(body.docvalue_fields).toBeUndefined();
    const withSources = toOpenSearchSearchBody(parseSearchRequest({}, 'users'), [WRAP], { ...ctx, kind: 'users' });
    expect(withSources.stored_fields).toBeUndefined();
    expect(withSources.docvalue_fields).toBeUndefined();
  });

  test('search_after: plain _id (doc_id), dates as millis, missing values as the extremes OpenSearch sorts them at', () => {
    const request = parseSearchRequest(
      {
        sort: ['weight', { time: 'desc' }, { received_at: { order: 'desc', missing: '_first' } }, 'user_id'],
        search_after: [null, 1700000000000, null, null, 'e9'],
      },
      'events',
    );
    expect(serialiseBody(toOpenSearchSearchBody(request, [WRAP], ctx))).toContain('"search_after":["Infinity",1700000000000,9223372036854775807,null,"e9"]');
    const ascendingFirst = parseSearchRequest({ sort: [{ received_at: { missing: '_first' } }], search_after: [null, 'e1'] }, 'events');
    expect(serialiseBody(toOpenSearchSearchBody(ascendingFirst, [WRAP], ctx))).toContain('"search_after":[-9223372036854775808,"e1"]');
  });

  test('_id sorts, aggregates and pages on doc_id', () => {
    const request = parseSearchRequest(
      { sort: [{ _id: 'desc' }], search_after: ['e5'], aggs: { ids: { terms: { field: '_id' } }, distinct: { cardinality: { field: '_id.raw' } } } },
      'events',
    );
    const body = toOpenSearchSearchBody(request, [WRAP], ctx);
    expect(body.sort).toEqual([{ 'index_meta.doc_id': { order: 'desc', missing: '_last', unmapped_type: 'keyword' } }]);
    expect(body.search_after).toEqual(['e5']);
    expect(body.aggs).toMatchObject({ ids: { terms: { field: 'index_meta.doc_id' } }, distinct: { cardinality: { field: 'index_meta.doc_id' } } });
  });

  test('cardinality passes precision_threshold on (DuckDB counts exactly anyway); past 40,000 is a 400 naming it', () => {
    const request = parseSearchRequest(
      { size: 0, aggs: { users: { cardinality: { field: 'user_id.raw', precision_threshold: 40_000 } }, plain: { cardinality: { field: 'user_id.raw' } } } },
      'events',
    );
    expect(toOpenSearchSearchBody(request, [WRAP], ctx).aggs).toEqual({
      users: { cardinality: { field: 'user_id', precision_threshold: 40_000 } },
      plain: { cardinality: { field: 'user_id' } },
    });
    let details: unknown;
    try {
      parseSearchRequest({ aggs: { users: { cardinality: { field: 'user_id.raw', precision_threshold: 40_001 } } } }, 'events');
    } catch (error) {
      details = (error as { details?: unknown }).details;
    }
    expect(details).toEqual([{ field: 'aggs.users.cardinality.precision_threshold', reason: 'precision_threshold is at most 40000' }]);
  });

  test('aggregations: names mapped, dates resolved, orders as lists', () => {
    const request = parseSearchRequest(
      {
        size: 0,
        aggs: {
          per_day: {
            date_histogram: { field: 'time', calendar_interval: 'day', extended_bounds: { min: 'now-2d/d', max: 'now/d' } },
            aggs: { usage: { sum: { field: 'weight', missing: 1 } } },
          },
          routes: { terms: { field: 'request.route.raw', size: 3, order: { usage: 'desc' } }, aggs: { usage: { sum: { field: 'weight' } } } },
          ok: { filters: { filters: { good: { range: { 'response.status': { lt: 400 } } } }, other_bucket_key: 'rest' } },
          listed: { filters: { filters: [{ term: { _id: 'e1' } }] } },
          latest: { top_hits: { size: 1, _source: false } },
          p: { percentiles: { field: 'duration_ms', percents: [50] } },
          h: { histogram: { field: 'weight', interval: 2 } },
          r: { range: { field: 'weight', ranges: [{ to: 2 }] } },
          f: { filter: { exists: { field: 'time' } } },
        },
      },
      'events',
      { timeZone: 'Europe/Berlin' },
    );
    expect(toOpenSearchSearchBody(request, [WRAP], ctx).aggs).toEqual({
      per_day: {
        date_histogram: {
          field: 'index_meta.time',
          calendar_interval: 'day',
          time_zone: 'Europe/Berlin',
          min_doc_count: 0,
          order: [{ _key: 'asc' }],
          extended_bounds: { min: Date.parse('2026-03-12T23:00:00Z'), max: Date.parse('2026-03-14T23:00:00Z') },
        },
        aggs: { usage: { sum: { field: 'weight', missing: 1 } } },
      },
      routes: {
        terms: { field: 'request.route.raw', size: 3, order: [{ usage: 'desc' }, { _key: 'asc' }], min_doc_count: 1 },
        aggs: { usage: { sum: { field: 'weight' } } },
      },
      ok: { filters: { filters: { good: { range: { 'response.status': { lt: 400 } } } }, other_bucket: true, other_bucket_key: 'rest' } },
      listed: { filters: { filters: [{ ids: { values: ['app-1:e1'] } }] } },
      latest: {
        top_hits: {
          size: 1,
          from: 0,
          sort: [
            { 'index_meta.time': { order: 'desc', missing: '_last', unmapped_type: 'date' } },
            { 'index_meta.doc_id': { order: 'asc', missing: '_last', unmapped_type: 'keyword' } },
          ],
          _source: false,
        },
      },
      p: { percentiles: { field: 'duration_ms', percents: [50], keyed: true } },
      h: { histogram: { field: 'weight', interval: 2, min_doc_count: 0, offset: 0, order: [{ _key: 'asc' }] } },
      r: { range: { field: 'weight', ranges: [{ to: 2 }], keyed: false } },
      f: { filter: { exists: { field: 'index_meta.time' } } },
    });
  });
});
