import { CALLS, NEW_YORK_MONTHS, PARIS_AUTUMN, PARIS_SPRING, WEEKS } from '../fixtures';
import type { Area, ConformanceCase, HitsExpectation } from '../types';

/**
 * Dates: range queries with date math and time zones (OpenSearch rounding: gte and lt round down,
 * gt and lte round up), date_histogram (calendar and fixed intervals, time zones over DST changes,
 * empty buckets, extended_bounds, key_as_string) and histogram. Now is 2026-03-15T10:30:00Z.
 */

const found = (...ids: string[]): HitsExpectation => ({ total: ids.length, ids });
const onCalls = (area: Area, name: string, query: unknown, expected: HitsExpectation, extra: Partial<ConformanceCase> = {}): ConformanceCase => ({
  name,
  area,
  documents: CALLS,
  body: { query },
  expect: expected,
  ...extra,
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Buckets of a UTC date_histogram: consecutive keys `step` apart from `start`, with these counts. */
function utcBuckets(start: string, step: number, counts: readonly number[]): { key_as_string: string; key: number; doc_count: number }[] {
  const first = Date.parse(start);
  return counts.map((doc_count, position) => {
    const key = first + position * step;
    return { key_as_string: new Date(key).toISOString(), key, doc_count };
  });
}

export const DATE_QUERY_CASES: readonly ConformanceCase[] = [
  onCalls('dates', 'range on time with ISO bounds', { range: { time: { gte: '2026-03-12T00:00:00Z', lt: '2026-03-14T00:00:00Z' } } }, found('c5', 'c4')),
  onCalls('dates', 'range on time with an epoch-millis bound', { range: { time: { gte: 1773532800000 } } }, found('c8', 'c7')),
  onCalls('dates', 'date-only bounds are midnight UTC', { range: { time: { gte: '2026-03-14', lt: '2026-03-15' } } }, found('c6')),
  onCalls('dates', 'gte now-1d/d rounds down to the start of yesterday', { range: { time: { gte: 'now-1d/d' } } }, found('c8', 'c7', 'c6')),
  onCalls(
    'dates',
    'lte now-1d/d rounds up to the last millisecond of yesterday',
    { range: { time: { lte: 'now-1d/d' } } },
    found('c6', 'c5', 'c4', 'c3', 'c2', 'c1'),
  ),
  onCalls('dates', 'gt rounds up and lt rounds down', { range: { time: { gt: '2026-03-13||/d', lt: '2026-03-15||/d' } } }, found('c6')),
  onCalls('dates', 'date math without rounding is exact', { range: { time: { gte: 'now-2d' } } }, found('c8', 'c7', 'c6', 'c5')),
  onCalls('dates', 'date math adds calendar months', { range: { time: { gte: '2026-02-09||+1M', lt: '2026-02-09||+1M+1d' } } }, found('c1')),
  onCalls('dates', 'range on another date field with now-1h', { range: { received_at: { gt: 'now-1h' } } }, found('c8')),
  onCalls(
    'dates',
    'a date without offset is read in the node’s time_zone',
    { range: { time: { gte: '2026-03-15T00:00:00', time_zone: 'Europe/Paris' } } },
    found('c8', 'c7', 'c6'),
  ),
  onCalls('dates', 'rounding happens in the node’s time_zone', { range: { time: { gte: 'now/d', time_zone: 'America/New_York' } } }, found('c8')),
  onCalls('dates', 'the request’s time zone applies when the node names none', { range: { time: { gte: 'now/d' } } }, found('c8'), {
    timeZone: 'America/New_York',
  }),
  onCalls(
    'dates',
    'an explicit offset wins over time_zone',
    { range: { time: { gte: '2026-03-15T00:00:00+00:00', time_zone: 'Europe/Paris' } } },
    found('c8', 'c7'),
  ),
  {
    name: 'gte rounds down to the Monday starting the week',
    area: 'dates',
    documents: WEEKS,
    body: { query: { range: { time: { gte: '2026-03-12||/w' } } } },
    expect: found('w3', 'w2'),
  },
  {
    name: 'lte rounds up to the end of the week (Sunday 23:59:59.999)',
    area: 'dates',
    documents: WEEKS,
    body: { query: { range: { time: { lte: '2026-03-08T12:00:00||/w' } } } },
    expect: found('w1'),
  },
];

const dayHistogram = (extra: Record<string, unknown> = {}) => ({ date_histogram: { field: 'time', calendar_interval: 'day', ...extra } });
const WITHOUT_C3_C5 = { bool: { must_not: [{ ids: { values: ['c3', 'c5'] } }] } };

export const DATE_HISTOGRAM_CASES: readonly ConformanceCase[] = [
  {
    name: 'date_histogram by day fills empty days between the first and last (min_doc_count 0 by default)',
    area: 'date_histogram',
    documents: CALLS,
    body: { size: 0, query: WITHOUT_C3_C5, aggs: { days: dayHistogram() } },
    expect: { total: 6, aggregations: { days: { buckets: utcBuckets('2026-03-09T00:00:00.000Z', DAY, [1, 1, 0, 1, 0, 1, 2]) } } },
  },
  {
    name: 'date_histogram with min_doc_count 1 drops empty days',
    area: 'date_histogram',
    documents: CALLS,
    body: { size: 0, query: WITHOUT_C3_C5, aggs: { days: dayHistogram({ min_doc_count: 1 }) } },
    expect: {
      total: 6,
      aggregations: {
        days: {
          buckets: [
            { key_as_string: '2026-03-09T00:00:00.000Z', key: 1773014400000, doc_count: 1 },
            { key_as_string: '2026-03-10T00:00:00.000Z', key: 1773100800000, doc_count: 1 },
            { key_as_string: '2026-03-12T00:00:00.000Z', key: 1773273600000, doc_count: 1 },
            { key_as_string: '2026-03-14T00:00:00.000Z', key: 1773446400000, doc_count: 1 },
            { key_as_string: '2026-03-15T00:00:00.000Z', key: 1773532800000, doc_count: 2 },
          ],
        },
      },
    },
  },
  {
    name: 'date_histogram with extended_bounds beyond the data',
    area: 'date_histogram',
    documents: CALLS,
    body: { size: 0, query: { ids: { values: ['c4'] } }, aggs: { days: dayHistogram({ extended_bounds: { min: '2026-03-07', max: '2026-03-16' } }) } },
    expect: { total: 1, aggregations: { days: { buckets: utcBuckets('2026-03-07T00:00:00.000Z', DAY, [0, 0, 0, 0, 0, 1, 0, 0, 0, 0]) } } },
  },
  {
    name: 'date_histogram with extended_bounds and no matching documents',
    area: 'date_histogram',
    documents: CALLS,
    body: { size: 0, query: { match_none: {} }, aggs: { days: dayHistogram({ extended_bounds: { min: '2026-03-01', max: '2026-03-03' } }) } },
    expect: { total: 0, aggregations: { days: { buckets: utcBuckets('2026-03-01T00:00:00.000Z', DAY, [0, 0, 0]) } } },
  },
  {
    name: 'extended_bounds (epoch millis) inside the data do not drop buckets',
    area: 'date_histogram',
    documents: CALLS,
    body: { size: 0, aggs: { days: dayHistogram({ extended_bounds: { min: 1773100800000, max: 1773273600000 } }) } },
    expect: { total: 8, aggregations: { days: { buckets: utcBuckets('2026-03-09T00:00:00.000Z', DAY, [1, 1, 1, 1, 1, 1, 2]) } } },
  },
  {
    name: 'date_histogram by day in Europe/Paris over the end of summer time (a 25-hour day)',
    area: 'date_histogram',
    documents: PARIS_AUTUMN,
    body: { size: 0, aggs: { days: { ...dayHistogram({ time_zone: 'Europe/Paris' }), aggs: { weight: { sum: { field: 'weight' } } } } } },
    expect: {
      total: 6,
      aggregations: {
        days: {
          buckets: [
            { key_as_string: '2026-10-24T00:00:00.000+02:00', key: 1792792800000, doc_count: 1, weight: { value: 1 } },
            { key_as_string: '2026-10-25T00:00:00.000+02:00', key: 1792879200000, doc_count: 4, weight: { value: 14 } },
            { key_as_string: '2026-10-26T00:00:00.000+01:00', key: 1792969200000, doc_count: 1, weight: { value: 6 } },
          ],
        },
      },
    },
  },
  {
    name: 'the same documents by day in UTC',
    area: 'date_histogram',
    documents: PARIS_AUTUMN,
    body: { size: 0, aggs: { days: dayHistogram() } },
    expect: { total: 6, aggregations: { days: { buckets: utcBuckets('2026-10-24T00:00:00.000Z', DAY, [2, 4]) } } },
  },
  {
    name: 'date_histogram uses the request’s time zone when it names none',
    area: 'date_histogram',
    documents: PARIS_AUTUMN,
    timeZone: 'Europe/Paris',
    body: { size: 0, aggs: { days: dayHistogram() } },
    expect: {
      total: 6,
      aggregations: {
        days: {
          buckets: [
            { key_as_string: '2026-10-24T00:00:00.000+02:00', key: 1792792800000, doc_count: 1 },
            { key_as_string: '2026-10-25T00:00:00.000+02:00', key: 1792879200000, doc_count: 4 },
            { key_as_string: '2026-10-26T00:00:00.000+01:00', key: 1792969200000, doc_count: 1 },
          ],
        },
      },
    },
  },
  {
    name: 'hourly in Europe/Paris: 02:00 happens twice when summer time ends',
    area: 'date_histogram',
    documents: PARIS_AUTUMN,
    body: {
      size: 0,
      query: { ids: { values: ['d3', 'd4'] } },
      aggs: { hours: { date_histogram: { field: 'time', calendar_interval: 'hour', time_zone: 'Europe/Paris' } } },
    },
    expect: {
      total: 2,
      aggregations: {
        hours: {
          buckets: [
            { key_as_string: '2026-10-25T02:00:00.000+02:00', key: 1792886400000, doc_count: 1 },
            { key_as_string: '2026-10-25T02:00:00.000+01:00', key: 1792890000000, doc_count: 1 },
          ],
        },
      },
    },
  },
  {
    name: 'hourly in Europe/Paris: 02:00 never happens when summer time starts',
    area: 'date_histogram',
    documents: PARIS_SPRING,
    body: { size: 0, aggs: { hours: { date_histogram: { field: 'time', calendar_interval: '1h', time_zone: 'Europe/Paris' } } } },
    expect: {
      total: 2,
      aggregations: {
        hours: {
          buckets: [
            { key_as_string: '2026-03-29T01:00:00.000+01:00', key: 1774742400000, doc_count: 1 },
            { key_as_string: '2026-03-29T03:00:00.000+02:00', key: 1774746000000, doc_count: 1 },
          ],
        },
      },
    },
  },
  {
    name: 'monthly in America/New_York, with an empty month, across the DST change',
    area: 'date_histogram',
    documents: NEW_YORK_MONTHS,
    body: { size: 0, aggs: { months: { date_histogram: { field: 'time', calendar_interval: 'month', time_zone: 'America/New_York' } } } },
    expect: {
      total: 3,
      aggregations: {
        months: {
          buckets: [
            { key_as_string: '2026-02-01T00:00:00.000-05:00', key: 1769922000000, doc_count: 1 },
            { key_as_string: '2026-03-01T00:00:00.000-05:00', key: 1772341200000, doc_count: 1 },
            { key_as_string: '2026-04-01T00:00:00.000-04:00', key: 1775016000000, doc_count: 0 },
            { key_as_string: '2026-05-01T00:00:00.000-04:00', key: 1777608000000, doc_count: 1 },
          ],
        },
      },
    },
  },
  {
    name: 'quarterly buckets',
    area: 'date_histogram',
    documents: NEW_YORK_MONTHS,
    body: { size: 0, aggs: { quarters: { date_histogram: { field: 'time', calendar_interval: '1q' } } } },
    expect: {
      total: 3,
      aggregations: {
        quarters: {
          buckets: [
            { key_as_string: '2026-01-01T00:00:00.000Z', key: 1767225600000, doc_count: 2 },
            { key_as_string: '2026-04-01T00:00:00.000Z', key: 1775001600000, doc_count: 1 },
          ],
        },
      },
    },
  },
  {
    name: 'weekly buckets start on Monday',
    area: 'date_histogram',
    documents: WEEKS,
    body: { size: 0, aggs: { weeks: { date_histogram: { field: 'time', calendar_interval: 'week' } } } },
    expect: { total: 3, aggregations: { weeks: { buckets: utcBuckets('2026-03-02T00:00:00.000Z', 7 * DAY, [1, 2]) } } },
  },
  {
    name: 'fixed_interval 12h on request.time',
    area: 'date_histogram',
    documents: CALLS,
    body: { size: 0, aggs: { halves: { date_histogram: { field: 'request.time', fixed_interval: '12h' } } } },
    expect: { total: 8, aggregations: { halves: { buckets: utcBuckets('2026-03-09T00:00:00.000Z', 12 * HOUR, [1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 2]) } } },
  },
  {
    name: 'date_histogram with a format for key_as_string',
    area: 'date_histogram',
    documents: CALLS,
    body: { size: 0, query: { ids: { values: ['c1', 'c2'] } }, aggs: { days: dayHistogram({ format: 'yyyy-MM-dd' }) } },
    expect: {
      total: 2,
      aggregations: {
        days: {
          buckets: [
            { key_as_string: '2026-03-09', key: 1773014400000, doc_count: 1 },
            { key_as_string: '2026-03-10', key: 1773100800000, doc_count: 1 },
          ],
        },
      },
    },
  },
  {
    name: 'date_histogram ordered by _key descending',
    area: 'date_histogram',
    documents: CALLS,
    body: { size: 0, query: WITHOUT_C3_C5, aggs: { days: dayHistogram({ min_doc_count: 1, order: { _key: 'desc' } }) } },
    expect: {
      total: 6,
      aggregations: {
        days: {
          buckets: [
            { key_as_string: '2026-03-15T00:00:00.000Z', key: 1773532800000, doc_count: 2 },
            { key_as_string: '2026-03-14T00:00:00.000Z', key: 1773446400000, doc_count: 1 },
            { key_as_string: '2026-03-12T00:00:00.000Z', key: 1773273600000, doc_count: 1 },
            { key_as_string: '2026-03-10T00:00:00.000Z', key: 1773100800000, doc_count: 1 },
            { key_as_string: '2026-03-09T00:00:00.000Z', key: 1773014400000, doc_count: 1 },
          ],
        },
      },
    },
  },
  {
    name: 'date_histogram with an offset: days starting at 06:00',
    area: 'date_histogram',
    documents: CALLS,
    body: { size: 0, query: { ids: { values: ['c6', 'c7', 'c8'] } }, aggs: { days: dayHistogram({ offset: '+6h' }) } },
    expect: {
      total: 3,
      aggregations: {
        days: {
          buckets: [
            { key_as_string: '2026-03-14T06:00:00.000Z', key: 1773468000000, doc_count: 2 },
            { key_as_string: '2026-03-15T06:00:00.000Z', key: 1773554400000, doc_count: 1 },
          ],
        },
      },
    },
  },
  {
    name: 'date_histogram inside terms fills gaps within each bucket',
    area: 'nesting',
    documents: CALLS,
    body: { size: 0, aggs: { verbs: { terms: { field: 'request.verb', size: 1 }, aggs: { days: dayHistogram() } } } },
    expect: {
      total: 8,
      aggregations: {
        verbs: {
          doc_count_error_upper_bound: 0,
          sum_other_doc_count: 3,
          buckets: [{ key: 'GET', doc_count: 5, days: { buckets: utcBuckets('2026-03-09T00:00:00.000Z', DAY, [1, 0, 1, 0, 1, 0, 2]) } }],
        },
      },
    },
  },
];

export const HISTOGRAM_CASES: readonly ConformanceCase[] = [
  {
    name: 'histogram fills empty buckets between the first and last',
    area: 'histogram',
    documents: CALLS,
    body: { size: 0, aggs: { durations: { histogram: { field: 'duration_ms', interval: 100 } } } },
    expect: {
      total: 8,
      aggregations: {
        durations: {
          buckets: [4, 1, 1, 1, 0, 0, 0, 0, 0, 1].map((doc_count, position) => ({ key: position * 100, doc_count })),
        },
      },
    },
  },
  {
    name: 'histogram with min_doc_count 1',
    area: 'histogram',
    documents: CALLS,
    body: { size: 0, aggs: { durations: { histogram: { field: 'duration_ms', interval: 100, min_doc_count: 1 } } } },
    expect: {
      total: 8,
      aggregations: {
        durations: {
          buckets: [
            { key: 0, doc_count: 4 },
            { key: 100, doc_count: 1 },
            { key: 200, doc_count: 1 },
            { key: 300, doc_count: 1 },
            { key: 900, doc_count: 1 },
          ],
        },
      },
    },
  },
  {
    name: 'histogram with extended_bounds',
    area: 'histogram',
    documents: CALLS,
    body: {
      size: 0,
      query: { term: { 'request.verb': 'GET' } },
      aggs: { durations: { histogram: { field: 'duration_ms', interval: 100, extended_bounds: { min: 0, max: 1200 } } } },
    },
    expect: {
      total: 5,
      aggregations: {
        durations: { buckets: [4, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0].map((doc_count, position) => ({ key: position * 100, doc_count })) },
      },
    },
  },
  {
    name: 'histogram with an offset',
    area: 'histogram',
    documents: CALLS,
    body: { size: 0, aggs: { durations: { histogram: { field: 'duration_ms', interval: 100, offset: 50, min_doc_count: 1 } } } },
    expect: {
      total: 8,
      aggregations: {
        durations: {
          buckets: [
            { key: -50, doc_count: 2 },
            { key: 50, doc_count: 3 },
            { key: 250, doc_count: 2 },
            { key: 850, doc_count: 1 },
          ],
        },
      },
    },
  },
  {
    name: 'histogram with a fractional interval keeps numeric keys',
    area: 'histogram',
    documents: CALLS,
    body: { size: 0, aggs: { scores: { histogram: { field: 'metadata.score', interval: 2.5, min_doc_count: 1 } } } },
    expect: {
      total: 8,
      aggregations: {
        scores: {
          buckets: [
            { key: 5, doc_count: 1 },
            { key: 10, doc_count: 1 },
            { key: 15, doc_count: 1 },
            { key: 25, doc_count: 1 },
            { key: 40, doc_count: 1 },
          ],
        },
      },
    },
  },
  {
    name: 'histogram with a sub-aggregation, empty buckets included',
    area: 'histogram',
    documents: CALLS,
    body: {
      size: 0,
      aggs: { durations: { histogram: { field: 'duration_ms', interval: 250 }, aggs: { billable: { sum: { field: 'weight', missing: 1 } } } } },
    },
    expect: {
      total: 8,
      aggregations: {
        durations: {
          buckets: [
            { key: 0, doc_count: 5, billable: { value: 5 } },
            { key: 250, doc_count: 2, billable: { value: 8 } },
            { key: 500, doc_count: 0, billable: { value: 0 } },
            { key: 750, doc_count: 1, billable: { value: 2 } },
          ],
        },
      },
    },
  },
];
