import { CALL_MILLIS, CALLS, LATENCY } from '../fixtures';
import type { Area, ConformanceCase } from '../types';

/** Bucket and metric aggregations over CALLS (see the table in fixtures.ts), and LATENCY. */

const aggCase = (area: Area, name: string, body: Record<string, unknown>, aggregations: Record<string, unknown>, total = 8): ConformanceCase => ({
  name,
  area,
  documents: CALLS,
  body: { size: 0, ...body },
  expect: { total, ids: [], aggregations },
});

const terms = (buckets: unknown[], sumOther = 0) => ({ doc_count_error_upper_bound: 0, sum_other_doc_count: sumOther, buckets });

export const TERMS_CASES: readonly ConformanceCase[] = [
  aggCase(
    'terms',
    'terms: by count descending, ties by key ascending',
    { aggs: { routes: { terms: { field: 'request.route.raw' } } } },
    {
      routes: terms([
        { key: '/v1/orders', doc_count: 3 },
        { key: '/v1/orders/42', doc_count: 2 },
        { key: '/v1/products', doc_count: 2 },
        { key: '/v1/products/7', doc_count: 1 },
      ]),
    },
  ),
  aggCase(
    'terms',
    'terms: size keeps the top buckets and counts the rest',
    { aggs: { routes: { terms: { field: 'request.route.raw', size: 2 } } } },
    {
      routes: terms(
        [
          { key: '/v1/orders', doc_count: 3 },
          { key: '/v1/orders/42', doc_count: 2 },
        ],
        3,
      ),
    },
  ),
  aggCase(
    'terms',
    'terms on a number field: numeric keys, numeric tie order',
    { aggs: { statuses: { terms: { field: 'response.status' } } } },
    {
      statuses: terms([
        { key: 200, doc_count: 4 },
        { key: 201, doc_count: 1 },
        { key: 404, doc_count: 1 },
        { key: 429, doc_count: 1 },
        { key: 500, doc_count: 1 },
      ]),
    },
  ),
  aggCase(
    'terms',
    'terms ordered by _key descending',
    { aggs: { statuses: { terms: { field: 'response.status', order: { _key: 'desc' } } } } },
    {
      statuses: terms([
        { key: 500, doc_count: 1 },
        { key: 429, doc_count: 1 },
        { key: 404, doc_count: 1 },
        { key: 201, doc_count: 1 },
        { key: 200, doc_count: 4 },
      ]),
    },
  ),
  aggCase(
    'terms',
    'terms ordered by _count ascending, ties by key ascending',
    { aggs: { verbs: { terms: { field: 'request.verb', order: { _count: 'asc' } } } } },
    {
      verbs: terms([
        { key: 'DELETE', doc_count: 1 },
        { key: 'POST', doc_count: 1 },
        { key: 'PUT', doc_count: 1 },
        { key: 'GET', doc_count: 5 },
      ]),
    },
  ),
  aggCase(
    'terms',
    'terms ordered by a sub-metric that is not the one read',
    {
      aggs: {
        companies: {
          terms: { field: 'company_id', order: { slowest: 'desc' } },
          aggs: { slowest: { max: { field: 'duration_ms' } }, billable: { sum: { field: 'weight', missing: 1 } } },
        },
      },
    },
    {
      companies: terms([
        { key: 'c-globex', doc_count: 2, slowest: { value: 900 }, billable: { value: 3 } },
        { key: 'c-acme', doc_count: 4, slowest: { value: 250 }, billable: { value: 6 } },
        { key: 'c-initech', doc_count: 1, slowest: { value: 10 }, billable: { value: 1 } },
      ]),
    },
  ),
  aggCase(
    'terms',
    'top N by a sub-metric ascending, with the rest counted',
    { aggs: { companies: { terms: { field: 'company_id', size: 2, order: { weight: 'asc' } }, aggs: { weight: { sum: { field: 'weight' } } } } } },
    {
      companies: terms(
        [
          { key: 'c-initech', doc_count: 1, weight: { value: 1 } },
          { key: 'c-globex', doc_count: 2, weight: { value: 3 } },
        ],
        4,
      ),
    },
  ),
  aggCase(
    'terms',
    'terms ordered by one value of a stats sub-aggregation',
    { aggs: { companies: { terms: { field: 'company_id', order: { 'latency.max': 'desc' } }, aggs: { latency: { stats: { field: 'duration_ms' } } } } } },
    {
      companies: terms([
        { key: 'c-globex', doc_count: 2, latency: { count: 2, min: 60, max: 900, avg: 480, sum: 960 } },
        { key: 'c-acme', doc_count: 4, latency: { count: 4, min: 40, max: 250, avg: 122.5, sum: 490 } },
        { key: 'c-initech', doc_count: 1, latency: { count: 1, min: 10, max: 10, avg: 10, sum: 10 } },
      ]),
    },
  ),
  aggCase(
    'terms',
    'terms ordered by a sub-metric, ties by key',
    { aggs: { users: { terms: { field: 'user_id', order: { requests: 'desc' } }, aggs: { requests: { value_count: { field: 'request.verb' } } } } } },
    {
      users: terms([
        { key: 'u-alice', doc_count: 3, requests: { value: 3 } },
        { key: 'u-bob', doc_count: 2, requests: { value: 2 } },
        { key: 'u-carol', doc_count: 1, requests: { value: 1 } },
        { key: 'u-dave', doc_count: 1, requests: { value: 1 } },
      ]),
    },
  ),
  aggCase(
    'terms',
    'terms with min_doc_count',
    { aggs: { users: { terms: { field: 'user_id', min_doc_count: 2 } } } },
    {
      users: terms([
        { key: 'u-alice', doc_count: 3 },
        { key: 'u-bob', doc_count: 2 },
      ]),
    },
  ),
  // min_doc_count 0: zero buckets for the tenant's other terms (of its whole index, whatever the query
  // and window), ranked after the buckets with documents, ties by key; never another tenant's terms.
  aggCase(
    'terms',
    "terms with min_doc_count 0 adds the tenant's other terms as zero buckets",
    { query: { ids: { values: ['c1', 'c2'] } }, aggs: { users: { terms: { field: 'user_id', min_doc_count: 0 } } } },
    {
      users: terms([
        { key: 'u-alice', doc_count: 1 },
        { key: 'u-bob', doc_count: 1 },
        { key: 'u-carol', doc_count: 0 },
        { key: 'u-dave', doc_count: 0 },
      ]),
    },
    2,
  ),
  aggCase(
    'terms',
    'terms with min_doc_count 0: size cuts zero buckets too',
    { query: { ids: { values: ['c1'] } }, aggs: { users: { terms: { field: 'user_id', size: 2, min_doc_count: 0 } } } },
    {
      users: terms([
        { key: 'u-alice', doc_count: 1 },
        { key: 'u-bob', doc_count: 0 },
      ]),
    },
    1,
  ),
  aggCase(
    'terms',
    'terms with min_doc_count 0: zero buckets carry empty sub-aggregations',
    { query: { ids: { values: ['c4'] } }, aggs: { users: { terms: { field: 'user_id', min_doc_count: 0 }, aggs: { usage: { sum: { field: 'weight' } } } } } },
    {
      users: terms([
        { key: 'u-carol', doc_count: 1, usage: { value: 2 } },
        { key: 'u-alice', doc_count: 0, usage: { value: 0 } },
        { key: 'u-bob', doc_count: 0, usage: { value: 0 } },
        { key: 'u-dave', doc_count: 0, usage: { value: 0 } },
      ]),
    },
    1,
  ),
  {
    name: 'terms with min_doc_count 0 lists terms from outside the request window',
    area: 'terms',
    documents: CALLS,
    window: { from: '2026-03-13T00:00:00.000Z' },
    body: { size: 0, aggs: { users: { terms: { field: 'user_id', min_doc_count: 0 } } } },
    expect: {
      total: 4,
      ids: [],
      aggregations: {
        users: terms([
          { key: 'u-alice', doc_count: 1 },
          { key: 'u-bob', doc_count: 1 },
          { key: 'u-dave', doc_count: 1 },
          { key: 'u-carol', doc_count: 0 },
        ]),
      },
    },
  },
  aggCase(
    'terms',
    'terms on a boolean: keys 1/0 with key_as_string',
    { aggs: { late: { terms: { field: 'is_late' } } } },
    {
      late: terms([
        { key: 0, key_as_string: 'false', doc_count: 6 },
        { key: 1, key_as_string: 'true', doc_count: 2 },
      ]),
    },
  ),
  {
    name: 'terms on a date: epoch-millis keys with key_as_string',
    area: 'terms',
    documents: CALLS,
    body: { size: 0, query: { ids: { values: ['c2', 'c1'] } }, aggs: { times: { terms: { field: 'request.time' } } } },
    expect: {
      total: 2,
      aggregations: {
        times: terms([
          { key: CALL_MILLIS.c1, key_as_string: '2026-03-09T08:00:00.000Z', doc_count: 1 },
          { key: CALL_MILLIS.c2, key_as_string: '2026-03-10T09:30:00.000Z', doc_count: 1 },
        ]),
      },
    },
  },
  aggCase(
    'terms',
    'terms on a .raw string keeps its case',
    { aggs: { plans: { terms: { field: 'metadata.plan.raw' } } } },
    {
      plans: terms([
        { key: 'pro', doc_count: 4 },
        { key: 'free', doc_count: 2 },
        { key: 'Enterprise', doc_count: 1 },
      ]),
    },
  ),
  aggCase(
    'terms',
    'tenant keys have one value: the caller’s own',
    { aggs: { orgs: { cardinality: { field: 'org_id' } }, apps: { cardinality: { field: 'app_id' } } } },
    { orgs: { value: 1 }, apps: { value: 1 } },
  ),
];

export const METRIC_CASES: readonly ConformanceCase[] = [
  aggCase(
    'metrics',
    'sum, avg, min, max, value_count, cardinality and stats',
    {
      aggs: {
        total: { sum: { field: 'duration_ms' } },
        mean: { avg: { field: 'duration_ms' } },
        fastest: { min: { field: 'duration_ms' } },
        slowest: { max: { field: 'duration_ms' } },
        calls: { value_count: { field: 'duration_ms' } },
        users: { cardinality: { field: 'user_id' } },
        user_values: { value_count: { field: 'user_id' } },
        summary: { stats: { field: 'duration_ms' } },
      },
    },
    {
      total: { value: 1760 },
      mean: { value: 220 },
      fastest: { value: 10 },
      slowest: { value: 900 },
      calls: { value: 8 },
      users: { value: 4 },
      user_values: { value: 7 },
      summary: { count: 8, min: 10, max: 900, avg: 220, sum: 1760 },
    },
  ),
  aggCase(
    'metrics',
    'min and max of a date carry value_as_string',
    { aggs: { first: { min: { field: 'request.time' } }, last: { max: { field: 'time' } } } },
    {
      first: { value: CALL_MILLIS.c1, value_as_string: '2026-03-09T08:00:00.000Z' },
      last: { value: CALL_MILLIS.c8, value_as_string: '2026-03-15T10:00:00.000Z' },
    },
  ),
  aggCase(
    'metrics',
    'cardinality of a .raw string is case-sensitive',
    { aggs: { plans: { cardinality: { field: 'metadata.plan.raw' } } } },
    { plans: { value: 3 } },
  ),
  {
    name: 'percentiles of an odd number of values: 0, 50 and 100',
    area: 'metrics',
    documents: CALLS,
    body: { size: 0, query: { term: { 'request.verb': 'GET' } }, aggs: { latency: { percentiles: { field: 'duration_ms', percents: [0, 50, 100] } } } },
    expect: { total: 5, aggregations: { latency: { values: { '0.0': 10, '50.0': 60, '100.0': 120 } } } },
  },
  {
    name: 'percentiles with keyed false answer a list',
    area: 'metrics',
    documents: CALLS,
    body: { size: 0, query: { term: { 'request.verb': 'GET' } }, aggs: { latency: { percentiles: { field: 'duration_ms', percents: [50], keyed: false } } } },
    expect: { total: 5, aggregations: { latency: { values: [{ key: 50, value: 60 }] } } },
  },
  {
    name: 'p50 and p99 latency by route',
    area: 'metrics',
    documents: LATENCY,
    body: {
      size: 0,
      aggs: {
        routes: {
          terms: { field: 'request.route.raw', order: { _key: 'asc' } },
          aggs: { latency: { percentiles: { field: 'duration_ms', percents: [50, 99] } } },
        },
      },
    },
    expect: {
      total: 11,
      aggregations: {
        routes: terms([
          { key: '/a', doc_count: 3, latency: { values: { '50.0': 100, '99.0': 100 } } },
          { key: '/b', doc_count: 5, latency: { values: { '50.0': 20, '99.0': 20 } } },
          { key: '/c', doc_count: 3, latency: { values: { '50.0': 7, '99.0': 7 } } },
        ]),
      },
    },
  },
  {
    name: 'top_hits: the newest call of each top user, with filtered source',
    area: 'metrics',
    documents: CALLS,
    body: {
      size: 0,
      aggs: {
        users: {
          terms: { field: 'user_id', size: 2 },
          aggs: { latest: { top_hits: { size: 1, sort: [{ time: { order: 'desc' } }], _source: { includes: ['response.status', 'request.verb'] } } } },
        },
      },
    },
    expect: {
      total: 8,
      aggregations: {
        users: terms(
          [
            {
              key: 'u-alice',
              doc_count: 3,
              latest: { hits: { total: 3, max_score: null, hits: [{ _id: 'c8', _source: { request: { verb: 'GET' }, response: { status: 200 } } }] } },
            },
            {
              key: 'u-bob',
              doc_count: 2,
              latest: { hits: { total: 2, max_score: null, hits: [{ _id: 'c5', _source: { request: { verb: 'GET' }, response: { status: 200 } } }] } },
            },
          ],
          2,
        ),
      },
    },
  },
  aggCase(
    'metrics',
    'top_hits sorted ascending with from',
    {
      query: { term: { company_id: 'c-acme' } },
      aggs: { oldest: { top_hits: { from: 1, size: 2, sort: [{ 'response.status': 'desc' }, { time: 'asc' }], _source: false } } },
    },
    { oldest: { hits: { total: 4, max_score: null, hits: [{ _id: 'c2' }, { _id: 'c1' }] } } },
    4,
  ),
];

export const RANGE_AGG_CASES: readonly ConformanceCase[] = [
  aggCase(
    'range_agg',
    'range: keys from-to with * for open ends, from inclusive, to exclusive',
    { aggs: { statuses: { range: { field: 'response.status', ranges: [{ to: 300 }, { from: 300, to: 500 }, { from: 500 }] } } } },
    {
      statuses: {
        buckets: [
          { key: '*-300.0', to: 300, doc_count: 5 },
          { key: '300.0-500.0', from: 300, to: 500, doc_count: 2 },
          { key: '500.0-*', from: 500, doc_count: 1 },
        ],
      },
    },
  ),
  aggCase(
    'range_agg',
    'range keyed: an object by key',
    { aggs: { durations: { range: { field: 'duration_ms', keyed: true, ranges: [{ to: 100 }, { from: 100, to: 300 }, { from: 300 }] } } } },
    {
      durations: {
        buckets: {
          '*-100.0': { to: 100, doc_count: 4 },
          '100.0-300.0': { from: 100, to: 300, doc_count: 2 },
          '300.0-*': { from: 300, doc_count: 2 },
        },
      },
    },
  ),
  aggCase(
    'range_agg',
    'range with named buckets, fractional bounds and a sub-aggregation',
    {
      aggs: {
        speed: {
          range: {
            field: 'duration_ms',
            ranges: [
              { key: 'fast', to: 99.5 },
              { key: 'slow', from: 99.5 },
            ],
          },
          aggs: { weight: { sum: { field: 'weight', missing: 1 } } },
        },
      },
    },
    {
      speed: {
        buckets: [
          { key: 'fast', to: 99.5, doc_count: 4, weight: { value: 4 } },
          { key: 'slow', from: 99.5, doc_count: 4, weight: { value: 11 } },
        ],
      },
    },
  ),
  aggCase(
    'range_agg',
    'range bounds given as strings, overlapping ranges',
    {
      aggs: {
        statuses: {
          range: {
            field: 'response.status',
            ranges: [
              { from: '200', to: '300' },
              { from: '201', to: '430' },
            ],
          },
        },
      },
    },
    {
      statuses: {
        buckets: [
          { key: '200.0-300.0', from: 200, to: 300, doc_count: 5 },
          { key: '201.0-430.0', from: 201, to: 430, doc_count: 3 },
        ],
      },
    },
  ),
];

export const FILTER_AGG_CASES: readonly ConformanceCase[] = [
  aggCase(
    'filters',
    'filter: one bucket with sub-aggregations',
    { aggs: { gets: { filter: { term: { 'request.verb': 'GET' } }, aggs: { latency: { avg: { field: 'duration_ms' } } } } } },
    { gets: { doc_count: 5, latency: { value: 62 } } },
  ),
  aggCase(
    'filters',
    'filters with names: buckets by name',
    {
      aggs: {
        outcome: {
          filters: { filters: { errors: { range: { 'response.status': { gte: 400 } } }, ok: { range: { 'response.status': { lt: 400 } } } } },
          aggs: { weight: { sum: { field: 'weight', missing: 1 } } },
        },
      },
    },
    { outcome: { buckets: { errors: { doc_count: 3, weight: { value: 4 } }, ok: { doc_count: 5, weight: { value: 11 } } } } },
  ),
  aggCase(
    'filters',
    'filters given as a list: buckets in the same order',
    { aggs: { verbs: { filters: { filters: [{ term: { 'request.verb': 'POST' } }, { term: { 'request.verb': 'GET' } }] } } } },
    { verbs: { buckets: [{ doc_count: 1 }, { doc_count: 5 }] } },
  ),
  aggCase(
    'filters',
    'filters with other_bucket_key',
    { aggs: { plans: { filters: { filters: { pro: { term: { 'metadata.plan': 'pro' } } }, other_bucket_key: 'rest' } } } },
    { plans: { buckets: { pro: { doc_count: 4 }, rest: { doc_count: 4 } } } },
  ),
  aggCase(
    'filters',
    'filter with match_none is an empty bucket',
    { aggs: { none: { filter: { match_none: {} }, aggs: { mean: { avg: { field: 'duration_ms' } }, total: { sum: { field: 'duration_ms' } } } } } },
    { none: { doc_count: 0, mean: { value: null }, total: { value: 0 } } },
  ),
];

export const NESTING_CASES: readonly ConformanceCase[] = [
  aggCase(
    'nesting',
    'three levels: company, then verb, then billable weight',
    {
      aggs: {
        companies: {
          terms: { field: 'company_id' },
          aggs: { verbs: { terms: { field: 'request.verb' }, aggs: { billable: { sum: { field: 'weight', missing: 1 } } } } },
        },
      },
    },
    {
      companies: terms([
        {
          key: 'c-acme',
          doc_count: 4,
          verbs: terms([
            { key: 'GET', doc_count: 3, billable: { value: 3 } },
            { key: 'POST', doc_count: 1, billable: { value: 3 } },
          ]),
        },
        {
          key: 'c-globex',
          doc_count: 2,
          verbs: terms([
            { key: 'DELETE', doc_count: 1, billable: { value: 2 } },
            { key: 'GET', doc_count: 1, billable: { value: 1 } },
          ]),
        },
        { key: 'c-initech', doc_count: 1, verbs: terms([{ key: 'GET', doc_count: 1, billable: { value: 1 } }]) },
      ]),
    },
  ),
  aggCase(
    'nesting',
    'a filter inside terms inside a range',
    {
      aggs: {
        speed: {
          range: { field: 'duration_ms', ranges: [{ to: 100 }, { from: 100 }] },
          aggs: { users: { terms: { field: 'user_id', size: 1 }, aggs: { errors: { filter: { range: { 'response.status': { gte: 400 } } } } } } },
        },
      },
    },
    {
      speed: {
        buckets: [
          { key: '*-100.0', to: 100, doc_count: 4, users: terms([{ key: 'u-alice', doc_count: 2, errors: { doc_count: 1 } }], 2) },
          { key: '100.0-*', from: 100, doc_count: 4, users: terms([{ key: 'u-alice', doc_count: 1, errors: { doc_count: 0 } }], 2) },
        ],
      },
    },
  ),
  // `aggregations` is OpenSearch's long name for `aggs`, at the top level and inside an aggregation alike.
  aggCase(
    'nesting',
    'the top-level aggregations alias answers as aggs',
    { aggregations: { verbs: { terms: { field: 'request.verb' } }, weight: { sum: { field: 'weight' } } } },
    {
      verbs: terms([
        { key: 'GET', doc_count: 5 },
        { key: 'DELETE', doc_count: 1 },
        { key: 'POST', doc_count: 1 },
        { key: 'PUT', doc_count: 1 },
      ]),
      weight: { value: 14 },
    },
  ),
  aggCase(
    'nesting',
    'aggregations as the alias at every level',
    {
      aggregations: {
        companies: {
          terms: { field: 'company_id' },
          aggregations: {
            billable: { sum: { field: 'weight', missing: 1 } },
            recent: { filter: { range: { time: { gte: '2026-03-12' } } }, aggregations: { n: { value_count: { field: 'user_id' } } } },
          },
        },
      },
    },
    {
      companies: terms([
        { key: 'c-acme', doc_count: 4, billable: { value: 6 }, recent: { doc_count: 1, n: { value: 1 } } },
        { key: 'c-globex', doc_count: 2, billable: { value: 3 }, recent: { doc_count: 2, n: { value: 2 } } },
        { key: 'c-initech', doc_count: 1, billable: { value: 1 }, recent: { doc_count: 1, n: { value: 1 } } },
      ]),
    },
  ),
];
