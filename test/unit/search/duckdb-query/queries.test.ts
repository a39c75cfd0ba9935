import { ValidationError } from '../../../../functions/shared/errors';
import { context, event, ids, openDatabase, search, type TestDatabase } from './fixture';

/**
 * Every query type against a small set of events, each indexed for three tenants (same ids), so a
 * leak shows up as a duplicated id. now = 2026-03-15T10:30:00Z.
 */

const DOCUMENTS = [
  ...event('e1', '2026-03-14T10:00:00.000Z', {
    request: {
      time: '2026-03-14T10:00:00.000Z',
      verb: 'GET',
      uri: 'https://api.example.com/api/users/42?expand=orders',
      route: '/api/users/{id}',
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)', 'x-trace': 'abc' },
    },
    response: { time: '2026-03-14T10:00:00.120Z', status: 200, headers: {} },
    user_id: 'u1',
    company_id: 'c1',
    weight: 1,
    metadata: {
      plan: 'Pro plan',
      tags: ['alpha', 'beta'],
      count: 5,
      items: [
        { sku: 'x1', qty: 1 },
        { sku: 'x2', qty: 3 },
      ],
      flag: false,
      long: 'x'.repeat(1100),
    },
  }),
  ...event('e2', '2026-03-15T09:00:00.000Z', {
    request: { time: '2026-03-15T09:00:00.000Z', verb: 'POST', uri: 'https://api.example.com/api/orders', route: '/api/orders', headers: {} },
    response: { time: '2026-03-15T09:00:01.500Z', status: 500, headers: {} },
    user_id: 'u2',
    weight: 2,
    metadata: { plan: 'free', count: '7', flag: true, tags: 'gamma', signed_up_at: '2026-01-05T00:00:00Z' },
  }),
  ...event('e3', '2026-03-10T00:00:00.000Z', {
    request: { time: '2026-03-10T00:00:00.000Z', verb: 'GET', uri: 'https://api.example.com/health', route: '/health', headers: {} },
    response: { time: '2026-03-10T00:00:00.005Z', status: 204, headers: {} },
    user_id: 'U1',
    company_id: 'c2',
    metadata: { plan: null, count: 12.5, tags: [], signed_up_at: 'not a date' },
  }),
  ...event('e4', '2026-02-01T00:00:00.000Z', {
    request: { time: '2026-02-01T00:00:00.000Z', verb: 'DELETE', uri: 'https://api.example.com/api/users/7', route: '/api/users/{id}', headers: {} },
    response: { time: '2026-02-01T00:00:00.250Z', status: 404, headers: {}, body: { items: { sku: 'x9' }, ok: false } },
    user_id: 'u3',
    company_id: 'c1',
    direction: 'Outgoing',
    metadata: {},
  }),
];

let db: TestDatabase;
beforeAll(async () => {
  db = await openDatabase(DOCUMENTS);
});
afterAll(() => db.close());

const matches = (query: unknown) => ids(db, query);

async function refusal(query: unknown): Promise<ValidationError> {
  try {
    await matches(query);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a 400');
}

describe('term and terms', () => {
  test.each<[string, unknown, string[]]>([
    ['keyword, exact and case-sensitive', { term: { user_id: 'u1' } }, ['e1']],
    ['keyword, case_insensitive', { term: { user_id: { value: 'U1', case_insensitive: true } } }, ['e1', 'e3']],
    ['keyword .raw of an id', { term: { 'user_id.raw': 'U1' } }, ['e3']],
    ['enum field', { term: { 'request.verb': 'GET' } }, ['e1', 'e3']],
    ['enum field is not analyzed', { term: { 'request.verb': 'get' } }, []],
    ['JSON keyword field', { term: { direction: 'Outgoing' } }, ['e4']],
    ['text .raw is the exact string', { term: { 'request.route.raw': '/api/users/{id}' } }, ['e1', 'e4']],
    ['text: the value must be one token', { term: { 'request.route': 'users' } }, ['e1', 'e4']],
    ['text: a value that is not one token matches nothing', { term: { 'request.route': '/api/users/{id}' } }, []],
    ['text: tokens are lower-case', { term: { 'metadata.plan': 'Pro' } }, []],
    ['text: case_insensitive compares with the tokens', { term: { 'metadata.plan': { value: 'PRO', case_insensitive: true } } }, ['e1']],
    ['number given as a string', { term: { 'response.status': '200' } }, ['e1']],
    ['untyped number', { term: { 'metadata.count': 5 } }, ['e1']],
    ['untyped: "7" is text, its token matches', { term: { 'metadata.count': 7 } }, ['e2']],
    ['untyped decimal', { term: { 'metadata.count': '12.5' } }, ['e3']],
    ['boolean column', { term: { is_late: false } }, ['e1', 'e2', 'e3', 'e4']],
    ['untyped boolean, as a string', { term: { 'metadata.flag': 'true' } }, ['e2']],
    ['date: the whole day a date names', { term: { time: '2026-03-14' } }, ['e1']],
    ['date: an instant', { term: { time: '2026-03-15T09:00:00Z' } }, ['e2']],
    ['_id', { term: { _id: 'e3' } }, ['e3']],
    ['terms: numbers and numeric strings', { terms: { 'response.status': [200, '404'] } }, ['e1', 'e4']],
    ['terms: keywords', { terms: { company_id: ['c2', 'c9'] } }, ['e3']],
    ['terms: text tokens', { terms: { 'request.route': ['orders', 'health'] } }, ['e2', 'e3']],
    ['terms: none', { terms: { user_id: [] } }, []],
    // JavaScript's Number() reads "0x…" as hex; OpenSearch reads only decimal strings as numbers.
    ['untyped: a hex string (an Ethereum address) is text, not a number', { term: { 'metadata.count': '0x2222222222222222222222222222222222222222' } }, []],
    ['untyped: a number past 2^64', { term: { 'metadata.count': 1e30 } }, []],
    ['terms: numbers past 2^64', { terms: { 'metadata.count': [1e30, 5] } }, ['e1']],
  ])('%s', async (_name, query, expected) => {
    expect(await matches(query)).toEqual(expected);
  });

  test('a hex string on a number column is a 400, not a number', async () => {
    expect((await refusal({ term: { 'response.status': '0xc8' } })).details).toEqual([{ field: 'response.status', reason: '"0xc8" is not a number' }]);
  });

  test('a value that is not a number on a number column is a 400', async () => {
    expect((await refusal({ term: { 'response.status': 'ok' } })).details).toEqual([{ field: 'response.status', reason: '"ok" is not a number' }]);
  });
});

describe('arrays: any element matches', () => {
  test.each<[string, unknown, string[]]>([
    ['a leaf array', { term: { 'metadata.tags': 'beta' } }, ['e1']],
    ['a single value where others hold arrays', { term: { 'metadata.tags': 'gamma' } }, ['e2']],
    ['an array of objects', { term: { 'metadata.items.sku.raw': 'x2' } }, ['e1']],
    ['an object where others hold arrays of objects', { term: { 'response.body.items.sku': 'x9' } }, ['e4']],
    ['a range over array elements', { range: { 'metadata.items.qty': { gte: 2 } } }, ['e1']],
    ['terms over array elements', { terms: { 'metadata.tags.raw': ['alpha', 'zeta'] } }, ['e1']],
    ['must_not of an array element', { bool: { must_not: { term: { 'metadata.tags': 'alpha' } } } }, ['e2', 'e3', 'e4']],
  ])('%s', async (_name, query, expected) => {
    expect(await matches(query)).toEqual(expected);
  });
});

describe('exists: at least one non-null value', () => {
  test.each<[string, string, string[]]>([
    ['a column', 'company_id', ['e1', 'e3', 'e4']],
    ['null and missing are no value', 'metadata.plan', ['e1', 'e2']],
    ['[] is no value', 'metadata.tags', ['e1', 'e2']],
    ['an object with fields', 'response.body', ['e4']],
    ['a date that does not parse is not indexed', 'metadata.signed_up_at', ['e2']],
    ['.raw: strings of up to 1024 characters', 'metadata.long.raw', []],
    ['text over 1024 characters still exists', 'metadata.long', ['e1']],
    ['.raw of a number', 'metadata.count.raw', ['e2']],
    ['_id', '_id', ['e1', 'e2', 'e3', 'e4']],
  ])('%s', async (_name, field, expected) => {
    expect(await matches({ exists: { field } })).toEqual(expected);
  });
});

describe('range', () => {
  test.each<[string, unknown, string[]]>([
    ['numbers', { range: { 'response.status': { gte: 400 } } }, ['e2', 'e4']],
    ['numbers given as strings', { range: { 'response.status': { gt: '204', lt: '500' } } }, ['e4']],
    ['untyped numbers only (the string "7" is text)', { range: { 'metadata.count': { gte: 5 } } }, ['e1', 'e3']],
    ['a bound past 2^64', { range: { 'metadata.count': { lt: 1e30 } } }, ['e1', 'e3']],
    ['keywords lexicographically', { range: { user_id: { gte: 'u', lt: 'u3' } } }, ['e1', 'e2']],
    ['date math rounded down for gte', { range: { time: { gte: 'now-1d/d' } } }, ['e1', 'e2']],
    ['date math rounded down for lt', { range: { time: { lt: 'now-1d/d' } } }, ['e3', 'e4']],
    ['gt rounds up to the end of the day', { range: { time: { gt: '2026-03-14' } } }, ['e2']],
    ['lte rounds up to the end of the day', { range: { time: { lte: '2026-03-14' } } }, ['e1', 'e3', 'e4']],
    ['epoch millis', { range: { time: { gte: Date.parse('2026-03-15T09:00:00Z') } } }, ['e2']],
    ['anchored date math', { range: { time: { gte: '2026-02-01||+1M/d' } } }, ['e1', 'e2', 'e3']],
    ['a time zone for dates without offset', { range: { time: { gte: '2026-03-15', time_zone: '+10:00' } } }, ['e2']],
    ['a format', { range: { time: { lt: '10/03/2026', format: 'dd/MM/yyyy' } } }, ['e4']],
    ['a JSON date field', { range: { 'request.time': { gte: '2026-03-14T00:00:00Z', lt: '2026-03-15' } } }, ['e1']],
    ['a JSON date field ignores what does not parse', { range: { 'metadata.signed_up_at': { lt: 'now' } } }, ['e2']],
    ['.raw of a text field', { range: { 'request.route.raw': { gte: '/api', lt: '/apj' } } }, ['e1', 'e2', 'e4']],
    ['no bounds is exists', { range: { company_id: {} } }, ['e1', 'e3', 'e4']],
  ])('%s', async (_name, query, expected) => {
    expect(await matches(query)).toEqual(expected);
  });

  test('the request time zone applies when the query names none', async () => {
    const query = { range: { time: { lt: '2026-03-14T12:00:00' } } };
    expect(await ids(db, query)).toEqual(['e1', 'e3', 'e4']);
    // Noon in Auckland (+13:00 in March) is 23:00 UTC the day before.
    expect(await ids(db, query, context('events', { timeZone: 'Pacific/Auckland' }))).toEqual(['e3', 'e4']);
  });

  test('a text field is a 400 naming the field', async () => {
    expect((await refusal({ range: { 'request.route': { gte: 5 } } })).details).toEqual([
      { field: 'query.range.request.route', reason: 'request.route holds text: range compares exact values, use request.route.raw' },
    ]);
  });
});

describe('match and match_phrase', () => {
  test.each<[string, unknown, string[]]>([
    ['text, any token (or)', { match: { 'request.uri': 'USERS health' } }, ['e1', 'e3', 'e4']],
    ['text, all tokens (and)', { match: { 'request.uri': { query: 'users expand', operator: 'and' } } }, ['e1']],
    ['text, no tokens matches nothing', { match: { 'request.uri': '--' } }, []],
    ['keyword: the whole value', { match: { user_id: 'u1' } }, ['e1']],
    ['number', { match: { 'response.status': '500' } }, ['e2']],
    ['header text', { match: { 'request.headers.user-agent': 'linux' } }, ['e1']],
    ['phrase: consecutive tokens in order', { match_phrase: { 'request.headers.user-agent': 'Linux X86' } }, ['e1']],
    ['phrase: wrong order', { match_phrase: { 'request.headers.user-agent': 'x86 linux' } }, []],
    ['phrase: not adjacent', { match_phrase: { 'request.headers.user-agent': 'x11 x86' } }, []],
    ['phrase on a keyword is equality', { match_phrase: { 'user_id.raw': 'u2' } }, ['e2']],
  ])('%s', async (_name, query, expected) => {
    expect(await matches(query)).toEqual(expected);
  });
});

describe('prefix and wildcard', () => {
  test.each<[string, unknown, string[]]>([
    ['prefix on a keyword: the whole value', { prefix: { user_id: 'u' } }, ['e1', 'e2', 'e4']],
    ['prefix, case_insensitive', { prefix: { user_id: { value: 'u', case_insensitive: true } } }, ['e1', 'e2', 'e3', 'e4']],
    ['prefix on text: any token, pattern lower-cased', { prefix: { 'request.route': 'USE' } }, ['e1', 'e4']],
    ['prefix on .raw', { prefix: { 'request.route.raw': '/api/o' } }, ['e2']],
    ['prefix on text with a separator matches nothing', { prefix: { 'request.route': 'api/u' } }, []],
    ['wildcard on a keyword: the whole value', { wildcard: { 'user_id.raw': 'u?' } }, ['e1', 'e2', 'e4']],
    ['wildcard: * anywhere', { wildcard: { 'request.route.raw': '/api/*/{id}' } }, ['e1', 'e4']],
    ['wildcard: escaped characters are literal', { wildcard: { 'request.route.raw': '*\\{id\\}' } }, ['e1', 'e4']],
    ['wildcard on text: some whole token', { wildcard: { 'request.uri': 'ord*s' } }, ['e1', 'e2']],
    ['wildcard on text: ? is one character', { wildcard: { 'request.uri': 'heal?h' } }, ['e3']],
    ['wildcard, case_insensitive keyword', { wildcard: { user_id: { value: 'U*', case_insensitive: true } } }, ['e1', 'e2', 'e3', 'e4']],
  ])('%s', async (_name, query, expected) => {
    expect(await matches(query)).toEqual(expected);
  });

  test('prefix on a number column is a 400', async () => {
    expect((await refusal({ prefix: { 'response.status': '2' } })).details[0]?.field).toBe('response.status');
  });
});

describe('ids, match_all, match_none', () => {
  test.each<[unknown, string[]]>([
    [{ ids: { values: ['e2', 'e4', 'nope'] } }, ['e2', 'e4']],
    [{ match_all: {} }, ['e1', 'e2', 'e3', 'e4']],
    [{ match_none: {} }, []],
  ])('%j', async (query, expected) => {
    expect(await matches(query)).toEqual(expected);
  });
});

describe('bool', () => {
  const get = { term: { 'request.verb': 'GET' } };
  const c1 = { term: { company_id: 'c1' } };
  const ok = { range: { 'response.status': { lt: 300 } } };

  test.each<[string, unknown, string[]]>([
    ['must and filter', { bool: { must: get, filter: [ok] } }, ['e1', 'e3']],
    ['must_not keeps documents without the field', { bool: { must_not: [c1] } }, ['e2', 'e3']],
    ['should only: at least one', { bool: { should: [get, c1] } }, ['e1', 'e3', 'e4']],
    ['should next to must is optional', { bool: { must: ok, should: [c1] } }, ['e1', 'e3']],
    ['should next to must_not only is required', { bool: { must_not: ok, should: [c1] } }, ['e4']],
    ['minimum_should_match 2', { bool: { should: [get, c1, ok], minimum_should_match: 2 } }, ['e1', 'e3']],
    ['minimum_should_match -1 of 3', { bool: { should: [get, c1, ok], minimum_should_match: -1 } }, ['e1', 'e3']],
    ['minimum_should_match 50% of 3 is 1', { bool: { should: [get, c1, ok], minimum_should_match: '50%' } }, ['e1', 'e3', 'e4']],
    ['minimum_should_match -50% of 3 is 2', { bool: { should: [get, c1, ok], minimum_should_match: '-50%' } }, ['e1', 'e3']],
    ['minimum_should_match 100%', { bool: { should: [get, c1, ok], minimum_should_match: '100%' } }, ['e1']],
    ['minimum_should_match above the clauses', { bool: { should: [get, c1], minimum_should_match: 3 } }, []],
    ['minimum_should_match 0 with should only still needs one', { bool: { should: [c1], minimum_should_match: 0 } }, ['e1', 'e4']],
    ['minimum_should_match with must', { bool: { must: get, should: [c1, ok], minimum_should_match: 2 } }, ['e1']],
    ['an empty bool matches all', { bool: {} }, ['e1', 'e2', 'e3', 'e4']],
    ['nested', { bool: { should: [{ bool: { must: [get], must_not: [ok] } }, { term: { _id: 'e2' } }] } }, ['e2']],
    ['must_not of a missing field under NOT', { bool: { must_not: { bool: { must_not: { exists: { field: 'company_id' } } } } } }, ['e1', 'e3', 'e4']],
  ])('%s', async (_name, query, expected) => {
    expect(await matches(query)).toEqual(expected);
  });
});

describe('query_string', () => {
  test.each<[string, unknown, string[]]>([
    ['field:value on a keyword', { query_string: { query: 'user_id:u2' } }, ['e2']],
    ['field:value on text is analyzed', { query_string: { query: 'request.uri:"api users"' } }, ['e1', 'e4']],
    ['a grouped OR', { query_string: { query: 'company_id:(c1 OR c2)' } }, ['e1', 'e3', 'e4']],
    ['a range', { query_string: { query: 'response.status:[200 TO 299]' } }, ['e1', 'e3']],
    ['a comparison', { query_string: { query: 'response.status:>=404' } }, ['e2', 'e4']],
    ['date math in a range', { query_string: { query: 'time:[now-1d/d TO *]' } }, ['e1', 'e2']],
    ['_exists_ and NOT', { query_string: { query: '_exists_:company_id AND NOT request.verb:DELETE' } }, ['e1', 'e3']],
    ['a bare term against default_field', { query_string: { query: 'orders', default_field: 'request.uri' } }, ['e1', 'e2']],
    ['default_operator AND', { query_string: { query: 'request.uri:(users orders)', default_operator: 'AND' } }, ['e1']],
    ['a wildcard term', { query_string: { query: 'user_id:u*' } }, ['e1', 'e2', 'e4']],
    ['*:*', { query_string: { query: '*:*' } }, ['e1', 'e2', 'e3', 'e4']],
  ])('%s', async (_name, query, expected) => {
    expect(await matches(query)).toEqual(expected);
  });
});

describe('hits', () => {
  test('total counts the query and the post_filter; hits follow the page', async () => {
    const response = await search(db, { query: { exists: { field: 'user_id' } }, post_filter: { term: { 'request.verb': 'GET' } }, size: 1, sort: ['_id'] });
    expect(response).toMatchObject({ timed_out: false, hits: { total: 2, max_score: null } });
    expect(response.hits.hits.map((hit) => hit._id)).toEqual(['e1']);
    const next = await search(db, { post_filter: { term: { 'request.verb': 'GET' } }, size: 1, from: 1, sort: ['_id'] });
    expect(next.hits.hits.map((hit) => hit._id)).toEqual(['e3']);
  });

  test('the default sort is newest first', async () => {
    const response = await search(db, {});
    expect(response.hits.hits.map((hit) => [hit._id, hit.sort])).toEqual([
      ['e2', [Date.parse('2026-03-15T09:00:00Z'), 'e2']],
      ['e1', [Date.parse('2026-03-14T10:00:00Z'), 'e1']],
      ['e3', [Date.parse('2026-03-10T00:00:00Z'), 'e3']],
      ['e4', [Date.parse('2026-02-01T00:00:00Z'), 'e4']],
    ]);
  });

  test('the time window of the request confines hits and totals', async () => {
    const window = context('events', { range: { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-15T00:00:00Z') } });
    const response = await search(db, { sort: ['_id'] }, window);
    expect(response.hits.total).toBe(2);
    expect(response.hits.hits.map((hit) => hit._id)).toEqual(['e1', 'e3']);
  });

  test('_source: filtered, or left out', async () => {
    const filtered = await search(db, {
      query: { ids: { values: ['e2'] } },
      _source: { includes: ['request.*', 'metadata'], excludes: ['request.headers', 'metadata.plan'] },
    });
    expect(filtered.hits.hits[0]?._source).toEqual({
      request: { time: '2026-03-15T09:00:00.000Z', verb: 'POST', uri: 'https://api.example.com/api/orders', route: '/api/orders' },
      metadata: { count: '7', flag: true, tags: 'gamma', signed_up_at: '2026-01-05T00:00:00Z' },
    });
    const none = await search(db, { query: { ids: { values: ['e2'] } }, _source: false });
    expect(none.hits.hits[0]).toEqual({ _id: 'e2', sort: [Date.parse('2026-03-15T09:00:00Z'), 'e2'] });
  });

  test('track_total_hits: a number counts up to it; false counts nothing', async () => {
    expect((await search(db, { track_total_hits: 2, size: 0 })).hits.total).toBe(2);
    const untracked = await search(db, { track_total_hits: false, size: 3 });
    expect(untracked.hits.total).toBe(3);
    expect(untracked.hits.hits).toHaveLength(3);
  });

  test('size 0 answers the total without hits', async () => {
    const response = await search(db, { size: 0, query: { term: { company_id: 'c1' } } });
    expect(response.hits).toEqual({ total: 2, max_score: null, hits: [] });
  });
});
