import { ARRAYS, CALLS } from '../fixtures';
import type { ConformanceCase, HitsExpectation } from '../types';

/** Multi-valued fields (ARRAYS, default order a5 … a1) and documents without a value (CALLS). */

const onArrays = (name: string, body: unknown, expected: HitsExpectation): ConformanceCase => ({
  name,
  area: 'arrays',
  documents: ARRAYS,
  body,
  expect: expected,
});
const found = (...ids: string[]): HitsExpectation => ({ total: ids.length, ids });

export const ARRAY_CASES: readonly ConformanceCase[] = [
  onArrays('term matches any element of an array', { query: { term: { 'metadata.tags': 'blue' } } }, found('a2', 'a1')),
  onArrays('range matches when any element is in range', { query: { range: { 'metadata.sizes': { gte: 3 } } } }, found('a3', 'a2')),
  onArrays('range needs one element inside both bounds, not one per bound', { query: { range: { 'metadata.sizes': { gte: 2, lte: 4 } } } }, found('a2', 'a1')),
  onArrays(
    'must_not excludes a document if any element matches',
    { query: { bool: { must_not: [{ term: { 'metadata.tags': 'blue' } }] } } },
    found('a5', 'a4', 'a3'),
  ),
  onArrays('exists: an array with elements has a value, an empty one has none', { query: { exists: { field: 'metadata.sizes' } } }, found('a3', 'a2', 'a1')),
  onArrays('sort ascending on an array uses its smallest element', { sort: [{ 'metadata.sizes': 'asc' }] }, found('a1', 'a3', 'a2', 'a4', 'a5')),
  onArrays('sort descending on an array uses its largest element', { sort: [{ 'metadata.sizes': { order: 'desc' } }] }, found('a3', 'a2', 'a1', 'a4', 'a5')),
  onArrays(
    'metrics count every element of an array',
    {
      size: 0,
      aggs: {
        total: { sum: { field: 'metadata.sizes' } },
        mean: { avg: { field: 'metadata.sizes' } },
        values: { value_count: { field: 'metadata.sizes' } },
        distinct: { cardinality: { field: 'metadata.sizes' } },
        summary: { stats: { field: 'metadata.sizes' } },
      },
    },
    {
      total: 5,
      ids: [],
      aggregations: {
        total: { value: 12 },
        mean: { value: 2.4 },
        values: { value: 5 },
        distinct: { value: 4 },
        summary: { count: 5, min: 1, max: 5, avg: 2.4, sum: 12 },
      },
    },
  ),
  onArrays(
    'terms counts a document once in each of its values',
    { size: 0, aggs: { tags: { terms: { field: 'metadata.tags.raw' } } } },
    {
      total: 5,
      aggregations: {
        tags: {
          doc_count_error_upper_bound: 0,
          sum_other_doc_count: 0,
          buckets: [
            { key: 'blue', doc_count: 2 },
            { key: 'green', doc_count: 1 },
            { key: 'red', doc_count: 1 },
          ],
        },
      },
    },
  ),
  onArrays(
    'histogram counts a document once per bucket its elements fall in',
    { size: 0, aggs: { sizes: { histogram: { field: 'metadata.sizes', interval: 2 } } } },
    {
      aggregations: {
        sizes: {
          buckets: [
            { key: 0, doc_count: 2 },
            { key: 2, doc_count: 2 },
            { key: 4, doc_count: 1 },
          ],
        },
      },
    },
  ),
];

export const MISSING_CASES: readonly ConformanceCase[] = [
  {
    name: 'terms puts documents without the field in the missing bucket',
    area: 'missing',
    documents: CALLS,
    body: { size: 0, aggs: { users: { terms: { field: 'user_id', missing: 'anonymous' } } } },
    expect: {
      total: 8,
      aggregations: {
        users: {
          doc_count_error_upper_bound: 0,
          sum_other_doc_count: 0,
          buckets: [
            { key: 'u-alice', doc_count: 3 },
            { key: 'u-bob', doc_count: 2 },
            { key: 'anonymous', doc_count: 1 },
            { key: 'u-carol', doc_count: 1 },
            { key: 'u-dave', doc_count: 1 },
          ],
        },
      },
    },
  },
  {
    name: 'sum of weight with missing 1 counts a document without weight as 1',
    area: 'missing',
    documents: CALLS,
    body: {
      size: 0,
      aggs: {
        billable: { sum: { field: 'weight', missing: 1 } },
        recorded: { sum: { field: 'weight' } },
        mean: { avg: { field: 'weight', missing: 1 } },
        users: { value_count: { field: 'user_id', missing: 'anonymous' } },
        lowest: { min: { field: 'weight', missing: 0 } },
      },
    },
    expect: {
      total: 8,
      aggregations: {
        billable: { value: 15 },
        recorded: { value: 14 },
        mean: { value: 1.875 },
        users: { value: 8 },
        lowest: { value: 0 },
      },
    },
  },
  {
    name: 'metrics of a field no document has',
    area: 'missing',
    documents: CALLS,
    body: {
      size: 0,
      aggs: {
        total: { sum: { field: 'metadata.nothing' } },
        mean: { avg: { field: 'metadata.nothing' } },
        low: { min: { field: 'metadata.nothing' } },
        high: { max: { field: 'metadata.nothing' } },
        values: { value_count: { field: 'metadata.nothing' } },
        distinct: { cardinality: { field: 'metadata.nothing' } },
        summary: { stats: { field: 'metadata.nothing' } },
      },
    },
    expect: {
      total: 8,
      aggregations: {
        total: { value: 0 },
        mean: { value: null },
        low: { value: null },
        high: { value: null },
        values: { value: 0 },
        distinct: { value: 0 },
        summary: { count: 0, min: null, max: null, avg: null, sum: 0 },
      },
    },
  },
  {
    name: 'metrics over no matching documents',
    area: 'missing',
    documents: CALLS,
    body: {
      query: { term: { user_id: 'nobody' } },
      size: 0,
      aggs: {
        total: { sum: { field: 'duration_ms' } },
        mean: { avg: { field: 'duration_ms' } },
        high: { max: { field: 'duration_ms' } },
        values: { value_count: { field: 'duration_ms' } },
        summary: { stats: { field: 'duration_ms' } },
        routes: { terms: { field: 'request.route.raw' } },
      },
    },
    expect: {
      total: 0,
      aggregations: {
        total: { value: 0 },
        mean: { value: null },
        high: { value: null },
        values: { value: 0 },
        summary: { count: 0, min: null, max: null, avg: null, sum: 0 },
        routes: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] },
      },
    },
  },
  {
    name: 'sort ascending puts missing values last',
    area: 'missing',
    documents: CALLS,
    body: { sort: [{ 'metadata.score': 'asc' }] },
    expect: { total: 8, ids: ['c3', 'c1', 'c7', 'c2', 'c6', 'c4', 'c5', 'c8'] },
  },
  {
    name: 'sort descending puts missing values last too',
    area: 'missing',
    documents: CALLS,
    body: { sort: [{ 'metadata.score': { order: 'desc' } }] },
    expect: { total: 8, ids: ['c6', 'c2', 'c7', 'c1', 'c3', 'c4', 'c5', 'c8'] },
  },
  {
    name: 'sort with missing _first',
    area: 'missing',
    documents: CALLS,
    body: { sort: [{ 'metadata.score': { order: 'desc', missing: '_first' } }] },
    expect: { total: 8, ids: ['c4', 'c5', 'c8', 'c6', 'c2', 'c7', 'c1', 'c3'] },
  },
  {
    name: 'sort with a value standing in for missing ones',
    area: 'missing',
    documents: CALLS,
    body: { sort: [{ 'metadata.score': { order: 'asc', missing: 12 } }] },
    expect: { total: 8, ids: ['c3', 'c1', 'c4', 'c5', 'c8', 'c7', 'c2', 'c6'] },
  },
];
