import { CALLS } from '../fixtures';
import type { ConformanceCase } from '../types';

/**
 * Requests refused with a 400 naming the offending member: the documented caps, scripts anywhere,
 * index names, members that are not supported, and what OpenSearch itself refuses on our mapping
 * (ranges, sorts and terms on analysed text).
 */

const rejected = (name: string, body: unknown, member: string | readonly string[]): ConformanceCase => ({
  name,
  area: 'rejections',
  documents: CALLS,
  body,
  expect: { status: 400, member },
});

/** Top-level members OpenSearch has and this service does not serve. */
const UNSUPPORTED_TOP_LEVEL: readonly [string, unknown][] = [
  ['script_fields', { doubled: { script: { source: "doc['weight'].value * 2" } } }],
  ['runtime_mappings', { day: { type: 'keyword', script: { source: "emit('x')" } } }],
  ['profile', true],
  ['highlight', { fields: { 'request.route': {} } }],
  ['suggest', { fix: { text: 'ordr', term: { field: 'request.route' } } }],
  ['rescore', { window_size: 10, query: { rescore_query: { match_all: {} } } }],
  ['collapse', { field: 'user_id' }],
  ['pit', { id: 'abc', keep_alive: '1m' }],
  ['stored_fields', ['user_id']],
  ['docvalue_fields', ['user_id']],
  ['indices_boost', [{ 'events-2026.03': 2 }]],
  ['index', 'events-2026.03'],
];

export const REJECTION_CASES: readonly ConformanceCase[] = [
  rejected('size above 1000', { size: 1001 }, 'size'),
  rejected('a negative size', { size: -1 }, 'size'),
  rejected('from + size above 10000', { from: 9990, size: 20 }, ['from', 'size']),
  rejected('a script query', { query: { script: { script: { source: "doc['weight'].value > 1" } } } }, 'query.script'),
  rejected('a script inside a bool', { query: { bool: { filter: [{ script: { script: 'true' } }] } } }, 'query.bool.filter.0.script'),
  rejected('a script in a metric', { aggs: { total: { sum: { script: { source: "doc['weight'].value" } } } } }, 'aggs.total.sum.script'),
  rejected('a stored script by id', { aggs: { total: { sum: { field: 'weight', script: { id: 'stored-script' } } } } }, 'aggs.total.sum.script'),
  rejected('a script sort', { sort: [{ _script: { type: 'number', script: 'Math.random()', order: 'asc' } }] }, 'sort.0._script'),
  rejected('a scripted_metric aggregation', { aggs: { x: { scripted_metric: { map_script: 'state.x = 1' } } } }, 'aggs.x.scripted_metric'),
  ...UNSUPPORTED_TOP_LEVEL.map(([member, value]) => rejected(`the ${member} member`, { [member]: value }, member)),
  rejected('an unknown top-level member', { querry: { match_all: {} } }, 'querry'),
  rejected('a query on _index', { query: { term: { _index: 'events-2026.03' } } }, 'query.term._index'),
  rejected('a query on _all', { query: { match: { _all: 'orders' } } }, 'query.match._all'),
  rejected('an unknown query type', { query: { fuzzy: { user_id: 'u-alice' } } }, 'query.fuzzy'),
  rejected('an unknown parameter of a query', { query: { match_all: { boots: 1 } } }, 'query.match_all.boots'),
  rejected('an unknown aggregation type', { aggs: { cells: { geohash_grid: { field: 'location' } } } }, 'aggs.cells.geohash_grid'),
  rejected('a global aggregation', { aggs: { everything: { global: {}, aggs: { n: { value_count: { field: 'user_id' } } } } } }, 'aggs.everything.global'),
  rejected(
    'aggregations nested deeper than 5',
    {
      aggs: {
        l1: {
          terms: { field: 'user_id' },
          aggs: {
            l2: {
              terms: { field: 'company_id' },
              aggs: {
                l3: {
                  terms: { field: 'request.verb' },
                  aggs: {
                    l4: { terms: { field: 'response.status' }, aggs: { l5: { terms: { field: 'event_type' }, aggs: { l6: { sum: { field: 'weight' } } } } } },
                  },
                },
              },
            },
          },
        },
      },
    },
    // The sixth level, or the `aggs` member that holds it.
    ['aggs.l1.aggs.l2.aggs.l3.aggs.l4.aggs.l5.aggs.l6', 'aggs.l1.aggs.l2.aggs.l3.aggs.l4.aggs.l5.aggs'],
  ),
  rejected('both aggs and aggregations', { aggs: { a: { sum: { field: 'weight' } } }, aggregations: { b: { sum: { field: 'weight' } } } }, 'aggregations'),
  rejected(
    'an unmapped_type that does not sort as the field does',
    { sort: [{ 'metadata.no_such_field': { order: 'asc', unmapped_type: 'keyword' } }] },
    'sort.0.metadata.no_such_field.unmapped_type',
  ),
  rejected('unmapped_type text', { sort: [{ 'metadata.note.raw': { unmapped_type: 'text' } }] }, 'sort.0.metadata.note.raw.unmapped_type'),
  rejected('terms size above 10000', { aggs: { users: { terms: { field: 'user_id', size: 10001 } } } }, 'aggs.users.terms.size'),
  rejected(
    'a date_histogram that would make more than 10000 buckets',
    { aggs: { minutes: { date_histogram: { field: 'time', fixed_interval: '1m', extended_bounds: { min: '2026-01-01', max: '2026-03-01' } } } } },
    'aggs.minutes',
  ),
  rejected('a histogram that would make more than 10000 buckets', { aggs: { fine: { histogram: { field: 'duration_ms', interval: 0.01 } } } }, 'aggs.fine'),
  // Our rule, stricter than OpenSearch (which ranges over tokens): a range on a field known to be text is refused.
  rejected('a range query on a text field', { query: { range: { 'request.route': { gte: '/v1/orders' } } } }, 'query.range.request.route'),
  rejected('a sort on a text field', { sort: [{ 'request.route': 'asc' }] }, 'sort.0'),
  rejected('a terms aggregation on a text field', { aggs: { routes: { terms: { field: 'request.route' } } } }, 'aggs.routes.terms.field'),
  rejected('a bare query_string term without default_field', { query: { query_string: { query: 'orders' } } }, 'query.query_string'),
  rejected('query_string syntax outside the supported forms', { query: { query_string: { query: 'user_id:u-alic~2' } } }, 'query.query_string'),
  rejected('an unknown time_zone in a range', { query: { range: { time: { gte: 'now-1d', time_zone: 'Mars/Olympus' } } } }, 'query.range.time'),
  rejected('date math that does not parse', { query: { range: { time: { gte: 'now-1x' } } } }, 'query.range.time'),
  rejected(
    'a calendar_interval that is not a calendar unit',
    { aggs: { d: { date_histogram: { field: 'time', calendar_interval: '2d' } } } },
    'aggs.d.date_histogram.calendar_interval',
  ),
];
