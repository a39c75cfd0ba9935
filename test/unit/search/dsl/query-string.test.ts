import type { QueryNode } from '../../../../schemas/search-tree';
import { parseQueryString, QueryStringError } from '../../../../functions/search/query-string';

const or = { default_operator: 'or' as const };
const and = { default_operator: 'and' as const };
const match = (field: string, query: string, operator: 'or' | 'and' = 'or'): QueryNode => ({ type: 'match', field, query, operator });
const bool = (parts: Partial<Record<'must' | 'should' | 'must_not', QueryNode[]>>): QueryNode => ({
  type: 'bool',
  must: parts.must ?? [],
  filter: [],
  should: parts.should ?? [],
  must_not: parts.must_not ?? [],
});

describe('parseQueryString: supported forms', () => {
  test.each<[string, string, QueryNode]>([
    ['field:value', 'user_id:u1', match('user_id', 'u1')],
    ['a phrase', 'request.route:"/api/v1 orders"', { type: 'match_phrase', field: 'request.route', query: '/api/v1 orders' }],
    ['escapes', 'request.route.raw:\\/api\\/v1\\:x', match('request.route.raw', '/api/v1:x')],
    ['a dash inside a term', 'user_id:u-1', match('user_id', 'u-1')],
    ['an inclusive range', 'response.status:[200 TO 299]', { type: 'range', field: 'response.status', gte: '200', lte: '299' }],
    ['an exclusive range', 'response.status:{200 TO 299}', { type: 'range', field: 'response.status', gt: '200', lt: '299' }],
    ['a half-open range', 'time:[now-1d TO *]', { type: 'range', field: 'time', gte: 'now-1d' }],
    ['a mixed range', 'weight:[1 TO 5}', { type: 'range', field: 'weight', gte: '1', lt: '5' }],
    ['a fully open range', 'weight:[* TO *]', { type: 'exists', field: 'weight' }],
    ['>', 'response.status:>499', { type: 'range', field: 'response.status', gt: '499' }],
    ['>=', 'response.status:>=500', { type: 'range', field: 'response.status', gte: '500' }],
    ['<', 'duration_ms:<10', { type: 'range', field: 'duration_ms', lt: '10' }],
    ['<= with date math', 'time:<=now-1h', { type: 'range', field: 'time', lte: 'now-1h' }],
    ['_exists_', '_exists_:metadata.plan', { type: 'exists', field: 'metadata.plan' }],
    ['field:*', 'company_id:*', { type: 'exists', field: 'company_id' }],
    ['a wildcard term', 'user_id:u*', { type: 'wildcard', field: 'user_id', value: 'u*', case_insensitive: false }],
    ['an escaped star stays literal', 'user_id:u\\*x?', { type: 'wildcard', field: 'user_id', value: 'u\\*x?', case_insensitive: false }],
    ['*:*', '*:*', { type: 'match_all' }],
    ['a grouped field', 'user_id:(u1 OR u2)', bool({ should: [match('user_id', 'u1'), match('user_id', 'u2')] })],
  ])('%s', (_name, query, expected) => {
    expect(parseQueryString(query, or)).toEqual(expected);
  });

  test('bare terms use default_field', () => {
    expect(parseQueryString('orders', { ...or, default_field: 'request.route' })).toEqual(match('request.route', 'orders'));
    expect(parseQueryString('orders', { ...and, default_field: 'request.route' })).toEqual(match('request.route', 'orders', 'and'));
  });
});

describe('parseQueryString: Lucene clause occurrence', () => {
  const a = match('a', '1');
  const b = match('b', '2');
  const c = match('c', '3');

  test.each<[string, typeof or | typeof and, QueryNode]>([
    ['a:1 b:2', or, bool({ should: [a, b] })],
    ['a:1 b:2', and, bool({ must: [match('a', '1', 'and'), match('b', '2', 'and')] })],
    ['a:1 AND b:2', or, bool({ must: [a, b] })],
    ['a:1 && b:2', or, bool({ must: [a, b] })],
    ['a:1 OR b:2', and, bool({ should: [match('a', '1', 'and'), match('b', '2', 'and')] })],
    ['a:1 || b:2', or, bool({ should: [a, b] })],
    ['a:1 OR b:2 AND c:3', or, bool({ should: [a], must: [b, c] })],
    ['a:1 AND b:2 OR c:3', or, bool({ must: [a, b], should: [c] })],
    ['NOT a:1', or, bool({ must_not: [a] })],
    ['a:1 NOT b:2', or, bool({ should: [a], must_not: [b] })],
    ['a:1 AND NOT b:2', or, bool({ must: [a], must_not: [b] })],
    ['a:1 !b:2', or, bool({ should: [a], must_not: [b] })],
    ['+a:1 -b:2 c:3', or, bool({ must: [a], must_not: [b], should: [c] })],
    ['(a:1 OR b:2) AND c:3', or, bool({ must: [bool({ should: [a, b] }), c] })],
    ['+a:1', or, a],
  ])('%s (%j)', (query, options, expected) => {
    expect(parseQueryString(query, options)).toEqual(expected);
  });
});

describe('parseQueryString: refusals', () => {
  test.each([
    ['a:b^2', /boosts/],
    ['a:b~2', /fuzzy/],
    ['a:"b c"~3', /fuzzy/],
    ['a:/b.*/', /regular expressions/],
    ['a*:b', /field wildcards/],
    ['hello', /no default_field/],
    ['a:(b', /missing "\)"/],
    ['a:b)', /unexpected "\)"/],
    ['a:"open', /unterminated phrase/],
    ['a:[1 TO', /range/],
    ['a:[1 2]', /\[from TO to\]/],
    ['AND a:b', /cannot start with AND/],
    ['a:', /needs a value/],
    ['a:b\\', /escape character/],
    ['', /empty query/],
    ['_exists_:a*', /_exists_ needs a field name/],
  ])('%j', (query, reason) => {
    expect(() => parseQueryString(query, or)).toThrow(QueryStringError);
    expect(() => parseQueryString(query, or)).toThrow(reason);
  });

  test('every field named goes through the check', () => {
    const seen: string[] = [];
    parseQueryString('a:1 AND (b:2 OR _exists_:c) d:[1 TO 2]', or, (field) => void seen.push(field));
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
    expect(() =>
      parseQueryString('ok:1 _index:x', or, (field) => {
        if (field.startsWith('_')) throw new QueryStringError(`${field}: cannot be queried`);
      }),
    ).toThrow('_index: cannot be queried');
  });
});
