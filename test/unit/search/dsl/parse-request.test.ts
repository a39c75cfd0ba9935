import { memberPath, parseQuery, parseSearchRequest } from '../../../../functions/search/dsl';
import type { QueryNode } from '../../../../schemas/search-tree';
import { ValidationError } from '../../../../functions/shared/errors';

/** The details of the ValidationError a body is refused with. */
function rejection(parse: () => unknown): { field: string; reason: string }[] {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).details;
  }
  throw new Error('expected a ValidationError');
}

const search = (body: unknown) => parseSearchRequest(body, 'events');
const query = (body: unknown) => search({ query: body }).query;

describe('parseSearchRequest: defaults', () => {
  test('an empty body is match_all, 10 hits, newest first with the _id tie-breaker', () => {
    expect(search({})).toEqual({
      query: { type: 'match_all' },
      size: 10,
      from: 0,
      sort: [
        { field: 'time', order: 'desc', missing: '_last' },
        { field: '_id', order: 'asc', missing: '_last' },
      ],
      _source: { includes: [], excludes: [] },
      track_total_hits: true,
      aggs: {},
    });
  });

  test('profiles sort by _id by default', () => {
    expect(parseSearchRequest({}, 'users').sort).toEqual([{ field: '_id', order: 'asc', missing: '_last' }]);
  });

  test('a body that is not an object is refused', () => {
    expect(rejection(() => search([]))).toEqual([{ field: 'body', reason: 'not a JSON object' }]);
  });
});

describe('queries: surface forms', () => {
  test.each<[string, unknown, QueryNode]>([
    ['term shorthand', { term: { user_id: 'u1' } }, { type: 'term', field: 'user_id', value: 'u1', case_insensitive: false }],
    [
      'term with parameters',
      { term: { 'user_id.raw': { value: 'U1', case_insensitive: true, boost: 2 } } },
      { type: 'term', field: 'user_id.raw', value: 'U1', case_insensitive: true },
    ],
    [
      'term with boost beside the field',
      { term: { 'response.status': 200, boost: 1.5, _name: 'ok' } },
      { type: 'term', field: 'response.status', value: 200, case_insensitive: false },
    ],
    ['terms', { terms: { 'response.status': [200, '201'], boost: 1 } }, { type: 'terms', field: 'response.status', values: [200, '201'] }],
    ['range', { range: { weight: { gte: 1, lt: 10 } } }, { type: 'range', field: 'weight', gte: 1, lt: 10 }],
    ['range, older from/to', { range: { weight: { from: 1, to: 10, include_upper: false } } }, { type: 'range', field: 'weight', gte: 1, lt: 10 }],
    ['range, null bound is open', { range: { weight: { from: null, to: 5 } } }, { type: 'range', field: 'weight', lte: 5 }],
    [
      'range on a date with format and time zone',
      { range: { time: { gte: '2026-01-01', format: 'yyyy-MM-dd', time_zone: 'europe/berlin' } } },
      { type: 'range', field: 'time', gte: '2026-01-01', format: 'yyyy-MM-dd', time_zone: 'Europe/Berlin' },
    ],
    ['exists', { exists: { field: 'metadata.plan' } }, { type: 'exists', field: 'metadata.plan' }],
    ['match shorthand', { match: { 'request.route': 'orders' } }, { type: 'match', field: 'request.route', query: 'orders', operator: 'or' }],
    [
      'match with operator',
      { match: { 'request.route': { query: 'a b', operator: 'AND' } } },
      { type: 'match', field: 'request.route', query: 'a b', operator: 'and' },
    ],
    ['match_phrase', { match_phrase: { 'request.uri': { query: 'v1 orders', slop: 0 } } }, { type: 'match_phrase', field: 'request.uri', query: 'v1 orders' }],
    ['prefix', { prefix: { 'request.route.raw': '/v1' } }, { type: 'prefix', field: 'request.route.raw', value: '/v1', case_insensitive: false }],
    [
      'wildcard with wildcard member',
      { wildcard: { 'user_id.raw': { wildcard: 'u*', case_insensitive: true } } },
      { type: 'wildcard', field: 'user_id.raw', value: 'u*', case_insensitive: true },
    ],
    ['ids (numbers become strings)', { ids: { values: ['a', 7] } }, { type: 'ids', values: ['a', '7'] }],
    ['match_all with boost', { match_all: { boost: 2 } }, { type: 'match_all' }],
    ['match_none', { match_none: {} }, { type: 'match_none' }],
    [
      'query_string',
      { query_string: { query: 'user_id:u1', default_operator: 'AND', default_field: 'request.route' } },
      { type: 'query_string', query: 'user_id:u1', default_operator: 'and', default_field: 'request.route' },
    ],
    [
      'constant_score is a filter',
      { constant_score: { filter: { term: { user_id: 'u' } }, boost: 3 } },
      { type: 'bool', must: [], filter: [{ type: 'term', field: 'user_id', value: 'u', case_insensitive: false }], should: [], must_not: [] },
    ],
  ])('%s', (_name, body, expected) => {
    expect(query(body)).toEqual(expected);
  });

  test('bool clauses as an object or an array, minimum_should_match kept as given', () => {
    const term = { term: { user_id: 'u' } };
    const node: QueryNode = { type: 'term', field: 'user_id', value: 'u', case_insensitive: false };
    expect(query({ bool: { must: term, filter: [term, term], should: [term], must_not: term, minimum_should_match: '-25%', boost: 1 } })).toEqual({
      type: 'bool',
      must: [node],
      filter: [node, node],
      should: [node],
      must_not: [node],
      minimum_should_match: '-25%',
    });
    expect(query({ bool: {} })).toEqual({ type: 'bool', must: [], filter: [], should: [], must_not: [] });
  });

  test('parseQuery takes a bare query and names members from it', () => {
    expect(parseQuery({ term: { company_id: 'c1' } })).toEqual({ type: 'term', field: 'company_id', value: 'c1', case_insensitive: false });
    expect(rejection(() => parseQuery({ bool: { must: [{ script: {} }] } }))).toEqual([{ field: 'bool.must[0].script', reason: 'scripts are not supported' }]);
  });
});

describe('queries: rejections name the member', () => {
  test.each<[string, unknown, string, string | RegExp]>([
    ['a script query', { bool: { must: [{ term: { a: 1 } }, { script: { script: 'doc' } }] } }, 'query.bool.must[1].script', 'scripts are not supported'],
    ['script_score', { script_score: {} }, 'query.script_score', 'scripts are not supported'],
    ['an unknown query type', { fuzzy_thing: {} }, 'query.fuzzy_thing', 'unknown query type "fuzzy_thing"'],
    ['an unsupported query type', { regexp: { a: 'b.*' } }, 'query.regexp', 'the regexp query is not supported'],
    ['a wrapper query (raw query bytes)', { wrapper: { query: 'e30=' } }, 'query.wrapper', 'the wrapper query is not supported'],
    ['an unknown parameter', { term: { user_id: { value: 'u', fuzziness: 2 } } }, 'query.term.user_id.fuzziness', 'unknown parameter'],
    ['a script parameter', { terms: { user_id: ['a'], script: 'x' } }, 'query.terms.script', 'scripts are not supported'],
    ['_all', { match: { _all: 'x' } }, 'query.match._all', '_all cannot be queried'],
    ['_index', { term: { _index: 'other-tenant' } }, 'query.term._index', '_index cannot be queried'],
    ['field wildcards', { exists: { field: 'metadata.*' } }, 'query.exists.field', 'field wildcards are not supported: name one field'],
    ['index_meta', { range: { 'index_meta.time': { gte: 1 } } }, 'query.range.index_meta.time', 'index_meta is internal and cannot be queried'],
    ['two fields in a term', { term: { a: 1, b: 2 } }, 'query.term.b', 'term takes exactly one field'],
    ['two query types in one object', { term: { a: 1 }, match: { b: 2 } }, 'query.match', /exactly one query type/],
    ['a null term', { term: { a: null } }, 'query.term.a', 'must be a string, number or boolean'],
    ['terms lookup', { terms: { user_id: { index: 'users', id: '1', path: 'x' } } }, 'query.terms.user_id', /terms lookup/],
    ['both gt and gte', { range: { weight: { gt: 1, gte: 2 } } }, 'query.range.weight.gte', /give one of/],
    ['an unknown time zone', { range: { time: { gte: 'now', time_zone: 'Mars/Base' } } }, 'query.range.time.time_zone', /unknown time zone/],
    ['a date that does not parse', { range: { time: { gte: 'yesterday' } } }, 'query.range.time.gte', /cannot parse/],
    ['bad date math', { range: { received_at: { lt: 'now-1x' } } }, 'query.range.received_at.lt', /cannot parse/],
    ['a non-zero slop', { match_phrase: { a: { query: 'x y', slop: 2 } } }, 'query.match_phrase.a.slop', 'slop other than 0 is not supported'],
    [
      'minimum_should_match combinations',
      { bool: { should: [], minimum_should_match: '3<90%' } },
      'query.bool.minimum_should_match',
      /minimum_should_match must be/,
    ],
    ['an unsupported query_string form', { query_string: { query: 'a:b^2' } }, 'query.query_string.query', 'boosts (^) are not supported'],
    ['a bare query_string term without default_field', { query_string: { query: 'hello' } }, 'query.query_string.query', /no default_field/],
    ['a query_string field that cannot be queried', { query_string: { query: '_index:x' } }, 'query.query_string.query', /_index cannot be queried/],
    ['a wildcard with both value and wildcard', { wildcard: { a: { value: 'x*', wildcard: 'y*' } } }, 'query.wildcard.a', /one of value or wildcard/],
  ])('%s', (_name, body, field, reason) => {
    const details = rejection(() => query(body));
    expect(details).toContainEqual({ field, reason: typeof reason === 'string' ? reason : expect.stringMatching(reason) });
  });

  test('bodies nested deeper than the cap are refused before parsing', () => {
    let body: unknown = { match_all: {} };
    for (let i = 0; i < 40; i++) body = { bool: { must: [body] } };
    const details = rejection(() => query(body));
    expect(details[0]?.reason).toMatch(/nested more than 64 levels/);
  });

  test('a bool list over 1024 clauses is refused', () => {
    const clauses = Array.from({ length: 1025 }, () => ({ match_all: {} }));
    expect(rejection(() => query({ bool: { should: clauses } }))).toContainEqual({ field: 'query.bool.should', reason: 'at most 1024 clauses' });
  });
});

describe('top level', () => {
  test('size, from, numeric strings, track_total_hits, post_filter, aggregations alias', () => {
    const request = search({
      size: '20',
      from: 5,
      track_total_hits: 100,
      post_filter: { term: { user_id: 'u' } },
      aggregations: { n: { value_count: { field: 'user_id' } } },
    });
    expect(request).toMatchObject({ size: 20, from: 5, track_total_hits: 100, post_filter: { type: 'term', field: 'user_id' } });
    expect(request.aggs).toEqual({ n: { type: 'value_count', field: 'user_id', aggs: {} } });
  });

  test.each<[string, unknown, string, string | RegExp]>([
    ['size over 1000', { size: 1001 }, 'size', 'size must be at most 1000'],
    ['negative from', { from: -1 }, 'from', 'from must be at least 0'],
    ['from + size over 10000', { from: 9500, size: 600 }, 'from', /from \+ size must be at most 10000/],
    ['profile', { profile: true }, 'profile', 'profile is not supported'],
    ['runtime_mappings', { runtime_mappings: {} }, 'runtime_mappings', 'runtime_mappings is not supported'],
    ['script_fields', { script_fields: {} }, 'script_fields', 'scripts are not supported'],
    ['suggest', { suggest: {} }, 'suggest', 'suggest is not supported'],
    ['highlight', { highlight: {} }, 'highlight', 'highlight is not supported'],
    ['rescore', { rescore: {} }, 'rescore', 'rescore is not supported'],
    ['collapse', { collapse: {} }, 'collapse', 'collapse is not supported'],
    ['pit', { pit: { id: 'x' } }, 'pit', 'pit is not supported'],
    ['stored_fields', { stored_fields: ['a'] }, 'stored_fields', 'stored_fields is not supported'],
    ['docvalue_fields', { docvalue_fields: ['a'] }, 'docvalue_fields', 'docvalue_fields is not supported'],
    ['indices_boost', { indices_boost: [] }, 'indices_boost', 'indices_boost is not supported'],
    ['index', { index: 'other' }, 'index', /index names cannot be given/],
    ['_index', { _index: 'other' }, '_index', /index names cannot be given/],
    ['an unknown member', { querry: {} }, 'querry', 'unknown parameter'],
    ['both aggs and aggregations', { aggs: {}, aggregations: {} }, 'aggregations', 'give aggs or aggregations, not both'],
    ['search_after with from', { from: 1, search_after: [1, 'a'] }, 'from', 'from must be 0 when search_after is used'],
    ['search_after of the wrong length', { sort: ['_id'], search_after: [1, 2] }, 'search_after', /needs 1 values/],
  ])('%s', (_name, body, field, reason) => {
    expect(rejection(() => search(body))).toContainEqual({ field, reason: typeof reason === 'string' ? reason : expect.stringMatching(reason) });
  });
});

describe('sort', () => {
  test('every surface form; _id tie-breaker appended once', () => {
    expect(
      search({
        sort: [
          'user_id',
          { weight: 'DESC' },
          { time: { order: 'asc', missing: '_first', unmapped_type: 'date' } },
          { 'metadata.count': { missing: 0 } },
          '_score',
        ],
      }).sort,
    ).toEqual([
      { field: 'user_id', order: 'asc', missing: '_last' },
      { field: 'weight', order: 'desc', missing: '_last' },
      { field: 'time', order: 'asc', missing: '_first', unmapped_type: 'date' },
      { field: 'metadata.count', order: 'asc', missing: 0 },
      { field: '_score', order: 'desc', missing: '_last' },
      { field: '_id', order: 'asc', missing: '_last' },
    ]);
    expect(search({ sort: { _id: 'desc' } }).sort).toEqual([{ field: '_id', order: 'desc', missing: '_last' }]);
  });

  test('search_after takes one value per effective sort field, null for a missing one', () => {
    expect(search({ sort: [{ weight: 'desc' }], search_after: [null, 'e1'] }).search_after).toEqual([null, 'e1']);
  });

  test.each<[string, unknown, string, string | RegExp]>([
    ['a text field', ['request.route'], 'sort[0]', 'request.route is a text field and cannot be sorted on; use request.route.raw'],
    ['a script sort', [{ _script: { type: 'number' } }], 'sort[0]._script', 'scripts are not supported'],
    ['a bad order', [{ time: 'up' }], 'sort[0].time.order', 'order must be "asc" or "desc"'],
    ['an unknown sort parameter', [{ time: { order: 'asc', mode: 'max' } }], 'sort[0].time.mode', 'unknown parameter'],
    ['an unknown unmapped_type', [{ time: { unmapped_type: 'blob' } }], 'sort[0].time.unmapped_type', /unmapped_type must be one of/],
    ['_doc', ['_doc'], 'sort[0]', /sorting by _doc/],
  ])('refuses %s', (_name, sort, field, reason) => {
    expect(rejection(() => search({ sort }))).toContainEqual({ field, reason: typeof reason === 'string' ? reason : expect.stringMatching(reason) });
  });
});

describe('_source', () => {
  test.each<[unknown, unknown]>([
    [false, false],
    [true, { includes: [], excludes: [] }],
    ['request.*', { includes: ['request.*'], excludes: [] }],
    [['a', 'b'], { includes: ['a', 'b'], excludes: [] }],
    [
      { includes: 'a', excludes: ['a.b'] },
      { includes: ['a'], excludes: ['a.b'] },
    ],
    [
      { include: ['a'], exclude: 'c' },
      { includes: ['a'], excludes: ['c'] },
    ],
  ])('%j', (source, expected) => {
    expect(search({ _source: source })._source).toEqual(expected);
  });

  test('an unknown member is refused', () => {
    expect(rejection(() => search({ _source: { only: ['a'] } }))).toContainEqual({ field: '_source.only', reason: 'unknown parameter' });
  });
});

describe('aggregations', () => {
  test('terms: defaults and the key tie-breaker', () => {
    const { aggs } = search({ aggs: { routes: { terms: { field: 'request.route.raw' } } } });
    expect(aggs.routes).toEqual({
      type: 'terms',
      field: 'request.route.raw',
      size: 10,
      order: [
        { key: '_count', order: 'desc' },
        { key: '_key', order: 'asc' },
      ],
      min_doc_count: 1,
      aggs: {},
    });
  });

  test('terms ordered by a sub-metric, with missing; the order metric may differ from the returned one', () => {
    const { aggs } = search({
      aggs: {
        companies: {
          terms: { field: 'company_id', size: 5, order: { usage: 'desc' }, missing: 'none' },
          aggs: { usage: { sum: { field: 'weight', missing: 1 } }, calls: { value_count: { field: 'company_id' } } },
        },
      },
    });
    expect(aggs.companies).toMatchObject({
      order: [
        { key: 'usage', order: 'desc' },
        { key: '_key', order: 'asc' },
      ],
      missing: 'none',
      aggs: { usage: { type: 'sum', field: 'weight', missing: 1, aggs: {} }, calls: { type: 'value_count' } },
    });
  });

  test('order by a stats property or a percentile', () => {
    const stats = search({ aggs: { r: { terms: { field: 'user_id', order: [{ 's.avg': 'asc' }] }, aggs: { s: { stats: { field: 'weight' } } } } } });
    expect(stats.aggs.r).toMatchObject({
      order: [
        { key: 's.avg', order: 'asc' },
        { key: '_key', order: 'asc' },
      ],
    });
    const percentile = search({
      aggs: { r: { terms: { field: 'user_id', order: { 'p[99]': 'desc' } }, aggs: { p: { percentiles: { field: 'duration_ms', percents: [50, 99] } } } } },
    });
    expect(percentile.aggs.r).toMatchObject({
      order: [
        { key: 'p[99]', order: 'desc' },
        { key: '_key', order: 'asc' },
      ],
    });
  });

  test('date_histogram takes the request time zone unless it names one', () => {
    const request = parseSearchRequest(
      {
        aggs: {
          own: { date_histogram: { field: 'time', calendar_interval: '1d' } },
          named: {
            date_histogram: {
              field: 'time',
              fixed_interval: '30m',
              time_zone: '+01:00',
              offset: '+6h',
              extended_bounds: { min: 'now-7d/d', max: 'now' },
              min_doc_count: 1,
            },
          },
        },
      },
      'events',
      { timeZone: 'America/New_York' },
    );
    expect(request.aggs.own).toEqual({
      type: 'date_histogram',
      field: 'time',
      calendar_interval: '1d',
      time_zone: 'America/New_York',
      min_doc_count: 0,
      order: [{ key: '_key', order: 'asc' }],
      aggs: {},
    });
    expect(request.aggs.named).toMatchObject({
      fixed_interval: '30m',
      time_zone: '+01:00',
      offset: '+6h',
      extended_bounds: { min: 'now-7d/d', max: 'now' },
      min_doc_count: 1,
    });
  });

  test('histogram, range, filter, filters, metrics, percentiles, top_hits', () => {
    const { aggs } = search({
      aggs: {
        h: { histogram: { field: 'duration_ms', interval: 50 } },
        r: { range: { field: 'response.status', ranges: [{ to: 300 }, { from: 300, to: 500, key: 'mid' }, { from: 500 }], keyed: true } },
        f: { filter: { term: { 'request.verb': 'GET' } }, aggs: { m: { max: { field: 'weight' } } } },
        named: { filters: { filters: { ok: { range: { 'response.status': { lt: 400 } } } }, other_bucket: true } },
        anonymous: { filters: { filters: [{ match_all: {} }] } },
        p: { percentiles: { field: 'duration_ms' } },
        c: { cardinality: { field: 'user_id', precision_threshold: 100 } },
        top: { top_hits: { size: 2, sort: [{ time: 'desc' }], _source: ['user_id'] } },
      },
    });
    expect(aggs.h).toEqual({
      type: 'histogram',
      field: 'duration_ms',
      interval: 50,
      min_doc_count: 0,
      offset: 0,
      order: [{ key: '_key', order: 'asc' }],
      aggs: {},
    });
    expect(aggs.r).toEqual({
      type: 'range',
      field: 'response.status',
      ranges: [{ to: 300 }, { key: 'mid', from: 300, to: 500 }, { from: 500 }],
      keyed: true,
      aggs: {},
    });
    expect(aggs.f).toMatchObject({ type: 'filter', filter: { type: 'term', field: 'request.verb' }, aggs: { m: { type: 'max' } } });
    expect(aggs.named).toMatchObject({ type: 'filters', keyed: true, other_bucket_key: '_other_', filters: [{ key: 'ok' }] });
    expect(aggs.anonymous).toMatchObject({ type: 'filters', keyed: false, filters: [{ key: '0', filter: { type: 'match_all' } }] });
    expect(aggs.p).toEqual({ type: 'percentiles', field: 'duration_ms', percents: [1, 5, 25, 50, 75, 95, 99], keyed: true, aggs: {} });
    expect(aggs.c).toEqual({ type: 'cardinality', field: 'user_id', precision_threshold: 100, aggs: {} });
    expect(aggs.top).toEqual({
      type: 'top_hits',
      size: 2,
      from: 0,
      sort: [{ field: 'time', order: 'desc', missing: '_last' }],
      _source: { includes: ['user_id'], excludes: [] },
      aggs: {},
    });
  });

  test.each<[string, unknown, string, string | RegExp]>([
    ['global', { all: { global: {} } }, 'aggs.all.global', /global aggregations are not supported/],
    ['scripted_metric', { s: { scripted_metric: {} } }, 'aggs.s.scripted_metric', 'scripts are not supported'],
    ['a script in terms', { t: { terms: { script: 'doc' } } }, 'aggs.t.terms.script', 'scripts are not supported'],
    ['an unknown type', { t: { bogus: {} } }, 'aggs.t.bogus', 'unknown aggregation type "bogus"'],
    ['an unsupported type', { t: { composite: {} } }, 'aggs.t.composite', 'the composite aggregation is not supported'],
    ['terms size over 10000', { t: { terms: { field: 'user_id', size: 10001 } } }, 'aggs.t.terms.size', 'size must be at most 10000'],
    ['terms on a text field', { t: { terms: { field: 'request.route' } } }, 'aggs.t.terms.field', /text field and cannot be aggregated; use request.route.raw/],
    ['sum of a keyword', { t: { sum: { field: 'user_id' } } }, 'aggs.t.sum.field', /keyword field/],
    [
      'sub-aggregations under a metric',
      { t: { sum: { field: 'weight' }, aggs: { x: { max: { field: 'weight' } } } } },
      'aggs.t.aggs',
      /cannot have sub-aggregations/,
    ],
    [
      'order by a missing sub-aggregation',
      { t: { terms: { field: 'user_id', order: { nope: 'desc' } } } },
      'aggs.t.terms.order[0].nope',
      /not a sub-aggregation/,
    ],
    [
      'order by a bucket aggregation',
      { t: { terms: { field: 'user_id', order: { x: 'desc' } }, aggs: { x: { terms: { field: 'company_id' } } } } },
      'aggs.t.terms.order[0].x',
      /single-value metric/,
    ],
    [
      'both interval kinds',
      { d: { date_histogram: { field: 'time', calendar_interval: '1d', fixed_interval: '1h' } } },
      'aggs.d.date_histogram.fixed_interval',
      /exactly one of/,
    ],
    [
      'the legacy interval',
      { d: { date_histogram: { field: 'time', interval: '1d' } } },
      'aggs.d.date_histogram.interval',
      /use calendar_interval or fixed_interval/,
    ],
    [
      'a calendar multiple',
      { d: { date_histogram: { field: 'time', calendar_interval: '2d' } } },
      'aggs.d.date_histogram.calendar_interval',
      /use fixed_interval for multiples/,
    ],
    [
      'a bad fixed interval',
      { d: { date_histogram: { field: 'time', fixed_interval: '1M' } } },
      'aggs.d.date_histogram.fixed_interval',
      /not a fixed interval/,
    ],
    [
      'a bad agg time zone',
      { d: { date_histogram: { field: 'time', calendar_interval: 'day', time_zone: 'Nowhere' } } },
      'aggs.d.date_histogram.time_zone',
      /unknown time zone/,
    ],
    [
      'bad extended bounds',
      { d: { date_histogram: { field: 'time', calendar_interval: 'day', extended_bounds: { min: 'soon', max: 'now' } } } },
      'aggs.d.date_histogram.extended_bounds.min',
      /cannot parse/,
    ],
    ['a zero histogram interval', { h: { histogram: { field: 'weight', interval: 0 } } }, 'aggs.h.histogram.interval', 'interval must be above 0'],
    ['no ranges', { r: { range: { field: 'weight', ranges: [] } } }, 'aggs.r.range.ranges', 'give at least one range'],
    ['top_hits beyond 100', { t: { top_hits: { from: 90, size: 20 } } }, 'aggs.t.top_hits.size', 'from + size must be at most 100'],
    ['a bad name', { 'a>b': { max: { field: 'weight' } } }, 'aggs.a>b', /cannot be empty or contain/],
    ['two types', { t: { max: { field: 'weight' }, min: { field: 'weight' } } }, 'aggs.t.min', 'an aggregation has exactly one type'],
    ['meta', { t: { max: { field: 'weight' }, meta: {} } }, 'aggs.t.meta', 'an aggregation has exactly one type'],
  ])('refuses %s', (_name, aggs, field, reason) => {
    expect(rejection(() => search({ aggs }))).toContainEqual({ field, reason: typeof reason === 'string' ? reason : expect.stringMatching(reason) });
  });

  test('aggregations nest at most 5 levels', () => {
    const nest = (levels: number): Record<string, unknown> =>
      levels === 1 ? { l: { terms: { field: 'user_id' } } } : { l: { terms: { field: 'user_id' }, aggs: nest(levels - 1) } };
    expect(() => search({ aggs: nest(5) })).not.toThrow();
    expect(rejection(() => search({ aggs: nest(6) }))).toContainEqual({
      field: 'aggs.l.aggs.l.aggs.l.aggs.l.aggs.l.aggs.l',
      reason: 'aggregations may nest at most 5 levels deep',
    });
  });
});

test('memberPath writes keys dotted and positions in brackets', () => {
  expect(memberPath(['query', 'bool', 'must', 1, 'script'])).toBe('query.bool.must[1].script');
  expect(memberPath([])).toBe('body');
});
