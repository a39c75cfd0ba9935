import { CALLS, CALLS_NEWEST_FIRST } from '../fixtures';
import type { Area, ConformanceCase, HitsExpectation } from '../types';

/** Term-level and full-text queries, bool and query_string, over CALLS (see fixtures.ts). */

const onCalls = (area: Area, name: string, query: unknown, expected: HitsExpectation): ConformanceCase => ({
  name,
  area,
  documents: CALLS,
  body: { query },
  expect: expected,
});

const found = (...ids: string[]): HitsExpectation => ({ total: ids.length, ids });

export const QUERY_CASES: readonly ConformanceCase[] = [
  { name: 'an empty body matches everything, newest first then _id', area: 'query', documents: CALLS, body: {}, expect: found(...CALLS_NEWEST_FIRST) },
  {
    name: 'size limits the hits, not the total',
    area: 'query',
    documents: CALLS,
    body: { query: { match_all: {} }, size: 3 },
    expect: { total: 8, ids: ['c8', 'c7', 'c6'] },
  },
  onCalls('query', 'match_none matches nothing', { match_none: {} }, found()),

  // term / terms
  onCalls('query', 'term on a keyword field is exact', { term: { user_id: 'u-alice' } }, found('c8', 'c3', 'c1')),
  onCalls('query', 'term on a keyword field is case-sensitive', { term: { user_id: { value: 'U-ALICE' } } }, found()),
  onCalls(
    'query',
    'term with case_insensitive on a keyword field',
    { term: { user_id: { value: 'U-ALICE', case_insensitive: true } } },
    found('c8', 'c3', 'c1'),
  ),
  onCalls('query', 'term on a number field', { term: { 'response.status': 404 } }, found('c3')),
  onCalls('numbers', 'term with a number given as a string matches the number', { term: { 'response.status': '200' } }, found('c8', 'c6', 'c5', 'c1')),
  onCalls('query', 'terms matches any of the values', { terms: { user_id: ['u-bob', 'u-carol', 'nobody'] } }, found('c5', 'c4', 'c2')),
  onCalls(
    'query',
    'terms with a long list of values (bound as one list) matches any of them, in a bool and negated',
    {
      bool: {
        filter: [{ terms: { user_id: [...Array.from({ length: 200 }, (_, k) => `nobody-${k}`), 'u-bob', "o'hara"] } }],
        must_not: [{ ids: { values: [...Array.from({ length: 100 }, (_, k) => `c${k + 100}`), 'c4'] } }],
      },
    },
    found('c5', 'c2'),
  ),
  onCalls('numbers', 'terms mixes numbers and numeric strings on a number field', { terms: { 'response.status': [201, '429'] } }, found('c7', 'c2')),
  onCalls('text', 'term on a text field matches one of its tokens', { term: { 'metadata.plan': 'pro' } }, found('c8', 'c6', 'c3', 'c1')),
  onCalls('text', 'term on a text field does not analyse its value', { term: { 'metadata.plan': 'Enterprise' } }, found()),
  onCalls('text', 'term on .raw is the exact, case-sensitive value', { term: { 'metadata.plan.raw': 'Enterprise' } }, found('c4')),
  onCalls('text', 'term on a text field never matches the whole multi-token value', { term: { 'request.route': '/v1/orders' } }, found()),
  onCalls('text', 'term on .raw matches the whole value', { term: { 'request.route.raw': '/v1/orders' } }, found('c7', 'c2', 'c1')),
  onCalls('query', 'term on event_type (keyword) matches every API call', { term: { event_type: 'api_call' } }, found(...CALLS_NEWEST_FIRST)),
  onCalls('query', 'term on a boolean field', { term: { is_late: true } }, found('c7', 'c4')),

  // range
  onCalls('query', 'range on a number: gte and lt', { range: { 'response.status': { gte: 400, lt: 500 } } }, found('c7', 'c3')),
  onCalls('numbers', 'range on a number with bounds given as strings', { range: { duration_ms: { gt: '100', lte: '300' } } }, found('c6', 'c2', 'c1')),
  onCalls('query', 'range on a keyword compares lexicographically', { range: { user_id: { gte: 'u-b', lt: 'u-d' } } }, found('c5', 'c4', 'c2')),

  // exists
  onCalls('missing', 'exists: null is no value', { exists: { field: 'metadata.score' } }, found('c7', 'c6', 'c3', 'c2', 'c1')),
  onCalls('missing', 'exists: an empty array is no value', { exists: { field: 'metadata.tags' } }, found('c4', 'c2', 'c1')),
  onCalls('missing', 'must_not exists finds the documents without the field', { bool: { must_not: [{ exists: { field: 'user_id' } }] } }, found('c6')),
  onCalls(
    'missing',
    'exists on an object path with values below it',
    { exists: { field: 'metadata' } },
    found(...CALLS_NEWEST_FIRST.filter((id) => id !== 'c5')),
  ),

  // match / match_phrase
  onCalls('text', 'match (or, the default) on a text field: any token', { match: { 'request.route': 'orders 42' } }, found('c7', 'c4', 'c3', 'c2', 'c1')),
  onCalls('text', 'match with operator and: every token', { match: { 'request.route': { query: 'orders 42', operator: 'and' } } }, found('c4', 'c3')),
  onCalls('text', 'match lower-cases the query', { match: { 'request.route': 'PRODUCTS' } }, found('c8', 'c6', 'c5')),
  onCalls(
    'text',
    'match on a keyword field is exact, not tokenised',
    { bool: { should: [{ match: { user_id: 'bob' } }, { match: { user_id: 'u-carol' } }] } },
    found('c4'),
  ),
  onCalls('numbers', 'match on a number field with a numeric string', { match: { 'response.status': '500' } }, found('c4')),
  onCalls('text', 'match_phrase: tokens adjacent and in order', { match_phrase: { 'request.route': 'orders 42' } }, found('c4', 'c3')),
  onCalls('text', 'match_phrase: tokens out of order do not match', { match_phrase: { 'request.route': '42 orders' } }, found()),
  onCalls('text', 'match_phrase on a keyword field is equality', { match_phrase: { user_id: 'u-dave' } }, found('c7')),

  // prefix / wildcard / ids
  onCalls('query', 'prefix on a keyword field', { prefix: { user_id: 'u-a' } }, found('c8', 'c3', 'c1')),
  onCalls('query', 'prefix on .raw matches the start of the whole value', { prefix: { 'request.route.raw': '/v1/products' } }, found('c8', 'c6', 'c5')),
  onCalls('text', 'prefix on a text field matches a token', { prefix: { 'request.route': 'prod' } }, found('c8', 'c6', 'c5')),
  onCalls('query', 'wildcard on a keyword field: ? is one character, * any run', { wildcard: { user_id: 'u-?o*' } }, found('c5', 'c2')),
  onCalls('text', 'wildcard on a text field matches a token', { wildcard: { 'request.route': 'ord*s' } }, found('c7', 'c4', 'c3', 'c2', 'c1')),
  onCalls('query', 'wildcard with case_insensitive on a keyword field', { wildcard: { user_id: { value: 'U-*OL', case_insensitive: true } } }, found('c4')),
  onCalls('query', 'ids matches the listed document ids only', { ids: { values: ['c2', 'c5', 'nope'] } }, found('c5', 'c2')),
  onCalls('query', 'term on _id', { term: { _id: 'c6' } }, found('c6')),
  // `_id` is a keyword here (OpenSearch's own _id field refuses prefix, wildcard and range; ours sort and compare).
  onCalls('query', 'prefix on _id', { prefix: { _id: 'c' } }, found(...CALLS_NEWEST_FIRST)),
  onCalls('query', 'range on _id compares ids as strings', { range: { _id: { gte: 'c3', lt: 'c6' } } }, found('c5', 'c4', 'c3')),
  onCalls('query', 'wildcard on _id', { wildcard: { _id: '*7' } }, found('c7')),
];

const SHOULD_THREE = [{ term: { user_id: 'u-alice' } }, { term: { 'request.verb': 'GET' } }, { term: { 'response.status': 200 } }];
// Clauses matched: c1 3, c2 0, c3 2, c4 0, c5 2, c6 1, c7 1, c8 3.

export const BOOL_CASES: readonly ConformanceCase[] = [
  onCalls(
    'bool',
    'must, filter and must_not combine with AND and NOT',
    {
      bool: {
        must: [{ term: { 'request.verb': 'GET' } }],
        filter: [{ range: { 'response.status': { gte: 200, lt: 300 } } }],
        must_not: [{ term: { user_id: 'u-bob' } }],
      },
    },
    found('c8', 'c1'),
  ),
  onCalls(
    'bool',
    'should alone: at least one clause must match',
    { bool: { should: [{ term: { user_id: 'u-carol' } }, { term: { 'response.status': 429 } }] } },
    found('c7', 'c4'),
  ),
  onCalls(
    'bool',
    'should next to must is optional',
    { bool: { must: [{ term: { company_id: 'c-acme' } }], should: [{ term: { 'request.verb': 'POST' } }] } },
    found('c8', 'c3', 'c2', 'c1'),
  ),
  onCalls(
    'bool',
    'should next to filter with minimum_should_match 1 is required',
    {
      bool: {
        filter: [{ term: { company_id: 'c-acme' } }],
        should: [{ term: { 'request.verb': 'POST' } }, { term: { 'response.status': 404 } }],
        minimum_should_match: 1,
      },
    },
    found('c3', 'c2'),
  ),
  onCalls(
    'bool',
    'a bool inside a filter keeps should optional next to must',
    { bool: { filter: [{ bool: { must: [{ term: { company_id: 'c-acme' } }], should: [{ term: { 'request.verb': 'POST' } }] } }] } },
    found('c8', 'c3', 'c2', 'c1'),
  ),
  onCalls('bool', 'minimum_should_match 2 of 3', { bool: { should: SHOULD_THREE, minimum_should_match: 2 } }, found('c8', 'c5', 'c3', 'c1')),
  onCalls('bool', 'minimum_should_match -1: all but one', { bool: { should: SHOULD_THREE, minimum_should_match: -1 } }, found('c8', 'c5', 'c3', 'c1')),
  onCalls('bool', 'minimum_should_match "100%"', { bool: { should: SHOULD_THREE, minimum_should_match: '100%' } }, found('c8', 'c1')),
  onCalls(
    'bool',
    'minimum_should_match "66%" of 3 rounds down to 1',
    { bool: { should: SHOULD_THREE, minimum_should_match: '66%' } },
    found('c8', 'c7', 'c6', 'c5', 'c3', 'c1'),
  ),
  onCalls(
    'bool',
    'minimum_should_match "-34%" of 3 may miss 1',
    { bool: { should: SHOULD_THREE, minimum_should_match: '-34%' } },
    found('c8', 'c5', 'c3', 'c1'),
  ),
  onCalls('bool', 'minimum_should_match above the number of clauses matches nothing', { bool: { should: SHOULD_THREE, minimum_should_match: 4 } }, found()),
  onCalls(
    'bool',
    'should alone with minimum_should_match 0 still needs one clause',
    { bool: { should: [{ term: { user_id: 'u-carol' } }, { term: { 'response.status': 429 } }], minimum_should_match: 0 } },
    found('c7', 'c4'),
  ),
  onCalls('bool', 'must_not alone matches everything else', { bool: { must_not: [{ term: { 'request.verb': 'GET' } }] } }, found('c6', 'c4', 'c2')),
  onCalls('bool', 'an empty bool matches everything', { bool: {} }, found(...CALLS_NEWEST_FIRST)),
  onCalls(
    'bool',
    'should of two bools',
    {
      bool: {
        should: [
          { bool: { must: [{ term: { user_id: 'u-alice' } }, { range: { 'response.status': { gte: 400 } } }] } },
          { bool: { must: [{ term: { 'request.verb': 'PUT' } }] } },
        ],
      },
    },
    found('c6', 'c3'),
  ),
  onCalls(
    'bool',
    'a single clause object instead of an array',
    { bool: { must: { term: { company_id: 'c-globex' } }, must_not: { term: { 'request.verb': 'GET' } } } },
    found('c4'),
  ),
];

export const QUERY_STRING_CASES: readonly ConformanceCase[] = [
  onCalls(
    'query_string',
    'query_string: field:"value" AND field:number',
    { query_string: { query: 'user_id:"u-alice" AND response.status:200' } },
    found('c8', 'c1'),
  ),
  onCalls('query_string', 'query_string: inclusive [a TO b] range', { query_string: { query: 'response.status:[400 TO 499]' } }, found('c7', 'c3')),
  onCalls('query_string', 'query_string: field:>n', { query_string: { query: 'duration_ms:>200' } }, found('c6', 'c4', 'c2')),
  onCalls(
    'query_string',
    'query_string: _exists_ AND NOT',
    { query_string: { query: '_exists_:metadata.score AND NOT metadata.plan:free' } },
    found('c6', 'c3', 'c1'),
  ),
  onCalls('query_string', 'query_string: field:(a OR b)', { query_string: { query: 'request.verb:(POST OR DELETE)' } }, found('c4', 'c2')),
  onCalls(
    'query_string',
    'query_string: parentheses group before AND',
    { query_string: { query: '(user_id:"u-bob" OR user_id:"u-carol") AND request.verb:GET' } },
    found('c5'),
  ),
  onCalls(
    'query_string',
    'query_string: a text field matches a token',
    { query_string: { query: 'request.route:orders' } },
    found('c7', 'c4', 'c3', 'c2', 'c1'),
  ),
  onCalls(
    'query_string',
    'query_string: a bare term searches default_field',
    { query_string: { query: 'products', default_field: 'request.route' } },
    found('c8', 'c6', 'c5'),
  ),
  onCalls(
    'query_string',
    'query_string: default_operator AND between bare terms',
    { query_string: { query: 'orders 42', default_field: 'request.route', default_operator: 'AND' } },
    found('c4', 'c3'),
  ),
  onCalls(
    'query_string',
    'query_string: bare terms default to OR',
    { query_string: { query: 'orders 42', default_field: 'request.route' } },
    found('c7', 'c4', 'c3', 'c2', 'c1'),
  ),
];
