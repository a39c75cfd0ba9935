import fc from 'fast-check';
import { parseQuery, parseSearchRequest } from '../../../functions/search/dsl';
import { expandQuery, typesByName } from '../../../functions/search/virtual-event-types/expand-query';
import { expandRequest, requestMentions } from '../../../functions/search/virtual-event-types/expand-request';
import type { SearchResponse } from '../../../functions/search/port';
import { ValidationError } from '../../../functions/shared/errors';

const GET = parseQuery({ term: { 'request.verb': 'GET' } });
const FAILED = parseQuery({ range: { 'response.status': { gte: 500 } } });
const types = typesByName([
  { name: 'Reads', query: GET },
  { name: 'Failed', query: FAILED },
  { name: 'Failed', query: parseQuery({ term: { status_text: 'error' } }) },
]);
const anyFailed = {
  type: 'bool',
  must: [],
  filter: [],
  should: [FAILED, parseQuery({ term: { status_text: 'error' } })],
  must_not: [],
  minimum_should_match: 1,
};

describe('virtual event types in queries', () => {
  it('replace each query on the field by the criteria of the types it selects', () => {
    expect(expandQuery(parseQuery({ term: { virtual_event_types: 'Reads' } }), types)).toEqual(GET);
    expect(expandQuery(parseQuery({ term: { 'virtual_event_types.raw': { value: 'reads', case_insensitive: true } } }), types)).toEqual(GET);
    expect(expandQuery(parseQuery({ term: { virtual_event_types: 'reads' } }), types)).toEqual({ type: 'match_none' });
    expect(expandQuery(parseQuery({ terms: { virtual_event_types: ['Failed', 'Nope'] } }), types)).toEqual(anyFailed);
    expect(expandQuery(parseQuery({ prefix: { virtual_event_types: 'Fa' } }), types)).toEqual(anyFailed);
    expect(expandQuery(parseQuery({ wildcard: { virtual_event_types: 'R?a*' } }), types)).toEqual(GET);
    expect(expandQuery(parseQuery({ exists: { field: 'virtual_event_types' } }), types)).toEqual({
      type: 'bool',
      must: [],
      filter: [],
      should: [GET, anyFailed],
      must_not: [],
      minimum_should_match: 1,
    });
    const nested = expandQuery(parseQuery({ bool: { must_not: [{ term: { virtual_event_types: 'Reads' } }], filter: [{ term: { user_id: 'u' } }] } }), types);
    expect(nested).toMatchObject({ type: 'bool', must_not: [GET], filter: [{ type: 'term', field: 'user_id' }] });
  });

  it('leave a query that does not name the field exactly as it was', () => {
    const leaf = fc.constantFrom(
      { term: { user_id: 'a' } },
      { range: { weight: { gt: 1 } } },
      { exists: { field: 'company_id' } },
      { prefix: { 'request.route.raw': '/v1' } },
      { match_all: {} },
    );
    const query = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.record({ bool: fc.record({ must: fc.array(tie('node'), { maxLength: 3 }), must_not: fc.array(tie('node'), { maxLength: 2 }) }) }),
      ),
    })).node;
    fc.assert(
      fc.property(query, (body) => {
        const parsed = parseQuery(body);
        expect(expandQuery(parsed, types)).toEqual(parsed);
        expect(requestMentions(parseSearchRequest({ query: body }, 'events'))).toBe(false);
      }),
    );
  });

  it('refuse a range on the field, naming the member', () => {
    expect(() => expandQuery(parseQuery({ bool: { filter: [{ range: { virtual_event_types: { gte: 'a' } } }] } }), types)).toThrow(ValidationError);
    try {
      expandQuery(parseQuery({ bool: { filter: [{ range: { virtual_event_types: { gte: 'a' } } }] } }), types);
    } catch (error) {
      expect((error as ValidationError).details[0]!.field).toBe('query.bool.filter[0].range.virtual_event_types');
    }
  });
});

describe('virtual event types in aggregations', () => {
  const answer = (aggregations: Record<string, unknown>): SearchResponse => ({
    took: 1,
    timed_out: false,
    hits: { total: 0, max_score: null, hits: [] },
    aggregations,
  });

  it('run a terms aggregation as keyed filters and answer as terms: ordered, cut to size, the rest counted', () => {
    const request = parseSearchRequest(
      { size: 0, aggs: { by_type: { terms: { field: 'virtual_event_types', size: 1 }, aggs: { total: { sum: { field: 'weight' } } } } } },
      'events',
    );
    const plan = expandRequest(request, types);
    expect(plan.request.aggs['by_type']).toMatchObject({
      type: 'filters',
      keyed: true,
      filters: [
        { key: 'Reads', filter: GET },
        { key: 'Failed', filter: anyFailed },
      ],
    });
    const reshaped = plan.reshape(
      answer({ by_type: { buckets: { Reads: { doc_count: 3, total: { value: 9 } }, Failed: { doc_count: 5, total: { value: 2 } } } } }),
    );
    expect(reshaped.aggregations).toEqual({
      by_type: { doc_count_error_upper_bound: 0, sum_other_doc_count: 3, buckets: [{ key: 'Failed', doc_count: 5, total: { value: 2 } }] },
    });
  });

  it('order by a sub-aggregation, put events of no type under `missing`, and drop empty types unless min_doc_count is 0', () => {
    const request = parseSearchRequest(
      { aggs: { t: { terms: { field: 'virtual_event_types', missing: 'none', order: { total: 'asc' } }, aggs: { total: { sum: { field: 'weight' } } } } } },
      'events',
    );
    const plan = expandRequest(request, types);
    const filters = plan.request.aggs['t'] as { other_bucket_key?: string };
    expect(filters.other_bucket_key).toBeDefined();
    const reshaped = plan.reshape(
      answer({
        t: {
          buckets: {
            Reads: { doc_count: 0, total: { value: 0 } },
            Failed: { doc_count: 2, total: { value: 7 } },
            [filters.other_bucket_key!]: { doc_count: 1, total: { value: 1 } },
          },
        },
      }),
    );
    expect((reshaped.aggregations!['t'] as { buckets: unknown[] }).buckets).toEqual([
      { key: 'none', doc_count: 1, total: { value: 1 } },
      { key: 'Failed', doc_count: 2, total: { value: 7 } },
    ]);
  });

  it('refuse other aggregations and sorts on the field, naming the member', () => {
    const problem = (body: Record<string, unknown>) => {
      try {
        expandRequest(parseSearchRequest(body, 'events'), types);
      } catch (error) {
        return (error as ValidationError).details[0]!.field;
      }
      return undefined;
    };
    expect(problem({ aggs: { n: { cardinality: { field: 'virtual_event_types' } } } })).toBe('aggs.n.cardinality');
    expect(
      problem({ aggs: { d: { date_histogram: { field: 'time', calendar_interval: 'day' }, aggs: { n: { value_count: { field: 'virtual_event_types' } } } } } }),
    ).toBe('aggs.d.aggs.n.value_count');
    expect(problem({ sort: [{ time: 'desc' }, { virtual_event_types: 'asc' }] })).toBe('sort[1]');
  });
});
