import { CALL_MILLIS, CALLS, CALLS_NEWEST_FIRST } from '../fixtures';
import type { ConformanceCase } from '../types';

/** Sorting, keyset paging, `_source` filtering, the request window and post_filter, over CALLS. */

export const SORT_CASES: readonly ConformanceCase[] = [
  {
    name: 'sort on a low-cardinality number, _id breaks ties',
    area: 'sort',
    documents: CALLS,
    body: { sort: [{ 'response.status': 'asc' }] },
    expect: { total: 8, ids: ['c1', 'c5', 'c6', 'c8', 'c2', 'c3', 'c7', 'c4'] },
  },
  {
    name: 'two sort keys: status descending, then time ascending',
    area: 'sort',
    documents: CALLS,
    body: { sort: [{ 'response.status': { order: 'desc' } }, { time: { order: 'asc' } }] },
    expect: { total: 8, ids: ['c4', 'c7', 'c3', 'c2', 'c1', 'c5', 'c6', 'c8'] },
  },
  {
    name: 'an explicit _id sort replaces the tie-breaker',
    area: 'sort',
    documents: CALLS,
    body: { sort: [{ 'request.verb': 'asc' }, { _id: 'desc' }] },
    expect: { total: 8, ids: ['c4', 'c8', 'c7', 'c5', 'c3', 'c1', 'c2', 'c6'] },
  },
  {
    name: 'a field name alone sorts ascending',
    area: 'sort',
    documents: CALLS,
    body: { sort: ['user_id'] },
    expect: { total: 8, ids: ['c1', 'c3', 'c8', 'c2', 'c5', 'c4', 'c7', 'c6'] },
  },
  {
    name: 'sort on .raw of a text field',
    area: 'sort',
    documents: CALLS,
    body: { sort: [{ 'request.route.raw': 'desc' }, { time: 'desc' }] },
    expect: { total: 8, ids: ['c6', 'c8', 'c5', 'c4', 'c3', 'c7', 'c2', 'c1'] },
  },
  {
    name: 'sort values: dates as epoch millis, then the _id tie-breaker',
    area: 'sort',
    documents: CALLS,
    body: { sort: [{ time: 'asc' }], size: 2 },
    expect: {
      total: 8,
      hits: [
        { _id: 'c1', sort: [CALL_MILLIS.c1, 'c1'] },
        { _id: 'c2', sort: [CALL_MILLIS.c2, 'c2'] },
      ],
    },
  },
  {
    name: 'sort values: numbers as numbers',
    area: 'sort',
    documents: CALLS,
    body: { sort: [{ 'response.status': 'desc' }, { _id: 'asc' }], size: 2 },
    expect: {
      total: 8,
      hits: [
        { _id: 'c4', sort: [500, 'c4'] },
        { _id: 'c7', sort: [429, 'c7'] },
      ],
    },
  },
  {
    name: 'from skips hits in sort order',
    area: 'sort',
    documents: CALLS,
    body: { from: 2, size: 3 },
    expect: { total: 8, ids: ['c6', 'c5', 'c4'] },
  },
  {
    name: 'search_after continues after the given sort values',
    area: 'sort',
    documents: CALLS,
    body: { sort: [{ time: 'asc' }, { _id: 'asc' }], search_after: [CALL_MILLIS.c4, 'c4'] },
    expect: { total: 8, ids: ['c5', 'c6', 'c7', 'c8'] },
  },
  {
    name: 'search_after with a date sort value given as an ISO string',
    area: 'sort',
    documents: CALLS,
    body: { sort: [{ time: 'desc' }, { _id: 'asc' }], search_after: ['2026-03-13T18:20:00.000Z', 'c5'] },
    expect: { total: 8, ids: ['c4', 'c3', 'c2', 'c1'] },
  },
  // unmapped_type on a field no document has (no index maps it): every document is missing it, so the
  // next key (or the _id tie-breaker) decides, and the missing value reports as null.
  {
    name: 'unmapped_type on a field no document has: all missing, _id breaks ties',
    area: 'sort',
    documents: CALLS,
    body: { sort: [{ 'metadata.no_such_field': { order: 'desc', unmapped_type: 'long' } }], size: 2 },
    expect: {
      total: 8,
      hits: [
        { _id: 'c1', sort: [null, 'c1'] },
        { _id: 'c2', sort: [null, 'c2'] },
      ],
    },
  },
  {
    name: 'unmapped_type with missing _first, then a second sort key',
    area: 'sort',
    documents: CALLS,
    body: { sort: [{ 'metadata.no_such_field': { order: 'asc', missing: '_first', unmapped_type: 'double' } }, { time: 'desc' }] },
    expect: { total: 8, ids: [...CALLS_NEWEST_FIRST] },
  },
  {
    name: 'unmapped_type keyword on a keyword-named field no document has',
    area: 'sort',
    documents: CALLS,
    body: { sort: [{ 'metadata.partner_id': { order: 'asc', unmapped_type: 'keyword' } }, { 'response.status': 'desc' }], size: 3 },
    expect: {
      total: 8,
      hits: [
        { _id: 'c4', sort: [null, 500, 'c4'] },
        { _id: 'c7', sort: [null, 429, 'c7'] },
        { _id: 'c3', sort: [null, 404, 'c3'] },
      ],
    },
  },
  {
    name: 'unmapped_type date on a date-named field no document has',
    area: 'sort',
    documents: CALLS,
    body: { sort: [{ 'metadata.cancelled_at': { order: 'desc', unmapped_type: 'date' } }], query: { term: { 'request.verb': 'GET' } } },
    expect: { total: 5, ids: ['c1', 'c3', 'c5', 'c7', 'c8'] },
  },
];

export const PAGING_CASES: readonly ConformanceCase[] = [
  {
    name: 'paging with the default sort yields every event once',
    area: 'paging',
    documents: CALLS,
    body: { size: 3 },
    expect: { pages: { ids: [...CALLS_NEWEST_FIRST] } },
  },
  {
    name: 'paging on a low-cardinality key yields every event once',
    area: 'paging',
    documents: CALLS,
    body: { size: 3, sort: [{ 'request.verb': 'asc' }] },
    expect: { pages: { ids: ['c4', 'c1', 'c3', 'c5', 'c7', 'c8', 'c2', 'c6'] } },
  },
  {
    name: 'paging through missing values sorted last',
    area: 'paging',
    documents: CALLS,
    body: { size: 2, sort: [{ 'metadata.score': 'asc' }] },
    expect: { pages: { ids: ['c3', 'c1', 'c7', 'c2', 'c6', 'c4', 'c5', 'c8'] } },
  },
  {
    name: 'paging through missing values sorted first, descending',
    area: 'paging',
    documents: CALLS,
    body: { size: 3, sort: [{ 'metadata.score': { order: 'desc', missing: '_first' } }] },
    expect: { pages: { ids: ['c4', 'c5', 'c8', 'c6', 'c2', 'c7', 'c1', 'c3'] } },
  },
  {
    name: 'paging with a value standing in for missing ones',
    area: 'paging',
    documents: CALLS,
    body: { size: 3, sort: [{ 'metadata.score': { order: 'asc', missing: 12 } }] },
    expect: { pages: { ids: ['c3', 'c1', 'c4', 'c5', 'c8', 'c7', 'c2', 'c6'] } },
  },
  {
    name: 'paging on a date field inside the request window',
    area: 'paging',
    documents: CALLS,
    window: { from: '2026-03-10T00:00:00.000Z', to: '2026-03-15T00:00:00.000Z' },
    body: { size: 2, sort: [{ 'request.time': 'asc' }] },
    expect: { pages: { ids: ['c2', 'c3', 'c4', 'c5', 'c6'] } },
  },
  {
    name: 'paging on a keyword with missing values and a query',
    area: 'paging',
    documents: CALLS,
    body: { size: 2, query: { range: { 'response.status': { lt: 500 } } }, sort: [{ company_id: 'desc' }] },
    expect: { pages: { ids: ['c7', 'c5', 'c1', 'c2', 'c3', 'c8', 'c6'] } },
  },
  {
    name: 'paging on a field no document has, with unmapped_type',
    area: 'paging',
    documents: CALLS,
    body: { size: 3, sort: [{ 'metadata.no_such_field': { order: 'asc', unmapped_type: 'long' } }] },
    expect: { pages: { ids: ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8'] } },
  },
];

/**
 * hits.total under track_total_hits, the same on both backends and always an integer
 * (functions/search/total-hits.ts): true exact; N the matches up to N (OpenSearch's value, relation
 * gte past N); false nothing counted, so the matches the page proves: from + its hits, 0 when empty.
 */
export const TOTAL_CASES: readonly ConformanceCase[] = [
  {
    name: 'track_total_hits true counts every match',
    area: 'totals',
    documents: CALLS,
    body: { size: 2, track_total_hits: true },
    expect: { total: 8, ids: ['c8', 'c7'] },
  },
  {
    name: 'track_total_hits as a number below the matches counts up to it',
    area: 'totals',
    documents: CALLS,
    body: { size: 2, track_total_hits: 5 },
    expect: { total: 5, ids: ['c8', 'c7'] },
  },
  {
    name: 'track_total_hits as a number above the matches counts them all',
    area: 'totals',
    documents: CALLS,
    body: { size: 2, track_total_hits: 100 },
    expect: { total: 8, ids: ['c8', 'c7'] },
  },
  {
    name: 'track_total_hits as a number caps the total even when the page holds every match',
    area: 'totals',
    documents: CALLS,
    body: { size: 10, track_total_hits: 3, query: { term: { 'request.verb': 'GET' } } },
    expect: { total: 3, ids: ['c8', 'c7', 'c5', 'c3', 'c1'] },
  },
  {
    name: 'track_total_hits as a number with aggregations',
    area: 'totals',
    documents: CALLS,
    body: { size: 0, track_total_hits: 3, aggs: { weight: { sum: { field: 'weight' } } } },
    expect: { total: 3, aggregations: { weight: { value: 14 } } },
  },
  {
    name: 'track_total_hits false reports the matches up to the page',
    area: 'totals',
    documents: CALLS,
    body: { from: 2, size: 3, track_total_hits: false },
    expect: { total: 5, ids: ['c6', 'c5', 'c4'] },
  },
  {
    name: 'track_total_hits false on the last page reports every match',
    area: 'totals',
    documents: CALLS,
    body: { from: 6, size: 5, track_total_hits: false },
    expect: { total: 8, ids: ['c2', 'c1'] },
  },
  {
    name: 'track_total_hits false past the last match reports 0',
    area: 'totals',
    documents: CALLS,
    body: { from: 10, size: 5, track_total_hits: false },
    expect: { total: 0, ids: [] },
  },
  {
    name: 'track_total_hits false with aggregations only reports 0 and still aggregates',
    area: 'totals',
    documents: CALLS,
    body: { size: 0, track_total_hits: false, aggs: { weight: { sum: { field: 'weight' } } } },
    expect: { total: 0, aggregations: { weight: { value: 14 } } },
  },
];

export const SOURCE_CASES: readonly ConformanceCase[] = [
  {
    name: '_source false leaves the source out',
    area: 'source',
    documents: CALLS,
    body: { _source: false, size: 1 },
    expect: { total: 8, hits: [{ _id: 'c8', _source: undefined }] },
  },
  {
    name: '_source as a list of fields keeps those paths',
    area: 'source',
    documents: CALLS,
    body: { _source: ['user_id', 'response.status'], size: 2 },
    expect: {
      total: 8,
      hits: [
        { _id: 'c8', _source: { user_id: 'u-alice', response: { status: 200 } } },
        { _id: 'c7', _source: { user_id: 'u-dave', response: { status: 429 } } },
      ],
    },
  },
  {
    name: '_source as a single path',
    area: 'source',
    documents: CALLS,
    body: { _source: 'metadata.plan', query: { ids: { values: ['c5', 'c4'] } } },
    expect: {
      total: 2,
      hits: [
        { _id: 'c5', _source: {} },
        { _id: 'c4', _source: { metadata: { plan: 'Enterprise' } } },
      ],
    },
  },
  {
    name: '_source includes with a wildcard and excludes',
    area: 'source',
    documents: CALLS,
    body: { _source: { includes: ['request.*'], excludes: ['request.headers', 'request.uri'] }, query: { ids: { values: ['c2'] } } },
    expect: {
      total: 1,
      hits: [{ _id: 'c2', _source: { request: { time: '2026-03-10T09:30:00.000Z', verb: 'POST', route: '/v1/orders' } } }],
    },
  },
  {
    name: '_source includes by field-name pattern',
    area: 'source',
    documents: CALLS,
    body: { _source: { includes: ['*_id'], excludes: ['org_id', 'app_id'] }, query: { ids: { values: ['c7', 'c6'] } } },
    expect: {
      total: 2,
      hits: [
        { _id: 'c7', _source: { user_id: 'u-dave', company_id: 'c-initech' } },
        { _id: 'c6', _source: {} },
      ],
    },
  },
  {
    name: '_source excludes only',
    area: 'source',
    documents: CALLS,
    body: { _source: { excludes: ['request', 'response', 'metadata', 'org_id', 'app_id', 'received_at'] }, query: { ids: { values: ['c4'] } } },
    expect: {
      total: 1,
      hits: [{ _id: 'c4', _source: { user_id: 'u-carol', company_id: 'c-globex', weight: 2, event_type: 'api_call', is_late: true, duration_ms: 900 } }],
    },
  },
];

export const WINDOW_CASES: readonly ConformanceCase[] = [
  {
    name: 'the request window confines hits: from inclusive, to exclusive',
    area: 'window',
    documents: CALLS,
    window: { from: '2026-03-10T09:30:00.000Z', to: '2026-03-15T00:00:00.000Z' },
    body: {},
    expect: { total: 5, ids: ['c6', 'c5', 'c4', 'c3', 'c2'] },
  },
  {
    name: 'the request window confines aggregations',
    area: 'window',
    documents: CALLS,
    window: { from: '2026-03-11T00:00:00.000Z', to: '2026-03-14T00:00:00.000Z' },
    body: { size: 0, aggs: { users: { terms: { field: 'user_id' } }, weight: { sum: { field: 'weight', missing: 1 } } } },
    expect: {
      total: 3,
      aggregations: {
        users: {
          doc_count_error_upper_bound: 0,
          sum_other_doc_count: 0,
          buckets: [
            { key: 'u-alice', doc_count: 1 },
            { key: 'u-bob', doc_count: 1 },
            { key: 'u-carol', doc_count: 1 },
          ],
        },
        weight: { value: 4 },
      },
    },
  },
  {
    name: 'a query cannot widen the request window',
    area: 'window',
    documents: CALLS,
    window: { from: '2026-03-14T00:00:00.000Z' },
    body: { query: { bool: { should: [{ range: { time: { gte: '2020-01-01' } } }, { match_all: {} }] } } },
    expect: { total: 3, ids: ['c8', 'c7', 'c6'] },
  },
  {
    name: 'a window with only an end',
    area: 'window',
    documents: CALLS,
    window: { to: '2026-03-10T09:30:00.000Z' },
    body: {},
    expect: { total: 1, ids: ['c1'] },
  },
];

export const POST_FILTER_CASES: readonly ConformanceCase[] = [
  {
    name: 'post_filter narrows hits and total, not aggregations',
    area: 'post_filter',
    documents: CALLS,
    body: { post_filter: { term: { 'request.verb': 'GET' } }, aggs: { verbs: { terms: { field: 'request.verb' } } } },
    expect: {
      total: 5,
      ids: ['c8', 'c7', 'c5', 'c3', 'c1'],
      aggregations: {
        verbs: {
          doc_count_error_upper_bound: 0,
          sum_other_doc_count: 0,
          buckets: [
            { key: 'GET', doc_count: 5 },
            { key: 'DELETE', doc_count: 1 },
            { key: 'POST', doc_count: 1 },
            { key: 'PUT', doc_count: 1 },
          ],
        },
      },
    },
  },
  {
    name: 'post_filter applies after the query',
    area: 'post_filter',
    documents: CALLS,
    body: {
      query: { term: { company_id: 'c-acme' } },
      post_filter: { range: { 'response.status': { gte: 400 } } },
      aggs: { weight: { sum: { field: 'weight' } } },
    },
    expect: { total: 1, ids: ['c3'], aggregations: { weight: { value: 5 } } },
  },
  {
    name: 'post_filter with bool should',
    area: 'post_filter',
    documents: CALLS,
    body: { post_filter: { bool: { should: [{ term: { 'response.status': 500 } }, { term: { 'user_id.raw': 'u-dave' } }] } } },
    expect: { total: 2, ids: ['c7', 'c4'] },
  },
];
