import { SqlParams, jsonPath } from '../../../../functions/search/duckdb/query/sql';
import { fieldValueSql, fieldValuesSql, minimumShouldMatch } from '../../../../functions/search/duckdb/query/field-sql';
import { compileQuery } from '../../../../functions/search/duckdb/query/query-compiler';
import { resolveField } from '../../../../functions/search/fields';
import { parseQuery } from '../../../../functions/search/dsl';
import type { QueryNode } from '../../../../schemas/search-tree';
import { context, event, openDatabase, TENANT, type TestDatabase } from './fixture';

/** The compiler on trees built in code (no parser in front) and the value readers the aggregations use. */

let db: TestDatabase;
beforeAll(async () => {
  db = await openDatabase([
    ...event(
      'a',
      '2026-03-14T00:00:00.000Z',
      { user_id: 'u1', weight: 2, metadata: { n: [3, 1, 2], tag: 'x', plan: 'Pro', when: '2026-01-02T03:04:05Z', items: [{ k: 'p' }, { k: 'q' }] } },
      [TENANT],
    ),
    ...event('b', '2026-03-14T00:00:00.000Z', { user_id: 7, metadata: { n: 4, tag: ['y', 'z'], plan: 'x'.repeat(1500) } }, [TENANT]),
  ]);
});
afterAll(() => db.close());

test('a field name that cannot be queried is a 400 even without the parser', () => {
  const node: QueryNode = { type: 'term', field: 'metadata.a"b', value: 'x', case_insensitive: false };
  expect(() => compileQuery(node, 'events', context(), new SqlParams())).toThrow(
    expect.objectContaining({ status: 400, details: [{ field: 'metadata.a"b', reason: expect.stringMatching(/quotes/) }] }),
  );
});

test('a range on text is a 400 even without the parser', () => {
  const node: QueryNode = { type: 'range', field: 'request.uri', gte: 'a' };
  expect(() => compileQuery(node, 'events', context(), new SqlParams())).toThrow(expect.objectContaining({ status: 400 }));
});

test('values travel as parameters; only quoted paths are spliced', () => {
  const params = new SqlParams();
  const sql = compileQuery(
    { type: 'term', field: "metadata.it's.raw", value: "'; DROP TABLE events; --", case_insensitive: false },
    'events',
    context(),
    params,
  );
  expect(sql).not.toContain('DROP');
  // metadata.* is read from the metadata column, by the path below `metadata`.
  expect(sql).toContain(`json_extract(d."metadata", '$."it''s"')`);
  expect(params.values).toContain("'; DROP TABLE events; --");
});

test('optional clauses that cannot matter add no parameters', () => {
  const params = new SqlParams();
  const node: QueryNode = {
    type: 'bool',
    must: [{ type: 'match_all' }],
    filter: [],
    should: [{ type: 'term', field: 'user_id', value: 'x', case_insensitive: false }],
    must_not: [],
  };
  expect(compileQuery(node, 'events', context(), params)).toBe('TRUE');
  expect(params.values).toEqual([]);
});

test.each<[number | string | undefined, number, boolean, number]>([
  [undefined, 3, false, 1],
  [undefined, 3, true, 0],
  [0, 3, false, 1],
  [2, 3, true, 2],
  [-1, 3, true, 2],
  ['75%', 4, true, 3],
  ['-25%', 4, true, 3],
  ['-100%', 2, false, 1],
  [5, 3, true, 5],
])('minimumShouldMatch(%j, %d optional, required clauses: %s) = %d', (spec, optional, hasRequired, expected) => {
  expect(minimumShouldMatch(spec, optional, hasRequired)).toBe(expected);
});

test('jsonPath quotes every key and places wildcards', () => {
  expect(jsonPath(['a.b', 'c d'], [true, false])).toBe(`'$."a.b"[*]."c d"'`);
});

describe('keyword filters on JSON fields check the stored text first', () => {
  const compiled = (query: unknown) => {
    const params = new SqlParams();
    return { sql: compileQuery(parseQuery(query), 'events', context(), params), params: params.values };
  };

  test.each<[string, unknown, string[]]>([
    ['a term on a metadata keyword', { term: { 'metadata.plan.raw': 'pro' } }, ['"pro"']],
    ['terms, each value', { terms: { 'metadata.plan_id': ['p/1', 'é'] } }, ['"p/1"', '"é"']],
    ['a term in the document (not metadata)', { term: { 'request.headers.x_request_id': 'r1' } }, ['"r1"']],
  ])('%s', (_name, query, needles) => {
    const { sql, params } = compiled(query);
    expect(sql).toMatch(/^\(+contains\(CAST\(d\."(metadata|doc)" AS VARCHAR\)/);
    for (const needle of needles) expect(params).toContain(needle);
  });

  test.each<[string, unknown]>([
    ['case_insensitive', { term: { 'metadata.plan.raw': { value: 'pro', case_insensitive: true } } }],
    ['a text field (tokens, any case)', { term: { 'metadata.plan': 'pro' } }],
    ['a numeric string on a keyword field, which also matches the number', { term: { 'metadata.plan_id': '42' } }],
    ['a string JSON escapes', { term: { 'metadata.plan.raw': 'say "hi"' } }],
    ['a typed column', { term: { user_id: 'u1' } }],
  ])('not for %s', (_name, query) => {
    expect(compiled(query).sql).not.toContain('contains(');
  });
});

describe('field values for the aggregations', () => {
  async function values(sql: string): Promise<Record<string, unknown>> {
    const rows = await db.run(`SELECT d.id, ${sql} AS v FROM events d ORDER BY d.id`, []);
    return Object.fromEntries(rows.map((row) => [row.id, row.v]));
  }

  test('fieldValueSql: a column, or the scalar at a JSON path (arrays and other kinds are NULL)', async () => {
    expect(await values(fieldValueSql(resolveField('events', 'weight'), 'number'))).toEqual({ a: 2, b: null });
    expect(await values(fieldValueSql(resolveField('events', 'time'), 'number'))).toEqual({
      a: BigInt(Date.parse('2026-03-14T00:00:00Z')),
      b: BigInt(Date.parse('2026-03-14T00:00:00Z')),
    });
    expect(await values(fieldValueSql(resolveField('events', 'metadata.tag'), 'keyword'))).toEqual({ a: 'x', b: null });
    expect(await values(fieldValueSql(resolveField('events', 'metadata.n'), 'number'))).toEqual({ a: null, b: 4 });
    expect(await values(fieldValueSql(resolveField('events', 'metadata.plan.raw'), 'keyword'))).toEqual({ a: 'Pro', b: null });
    expect(await values(`epoch_ms(${fieldValueSql(resolveField('events', 'metadata.when'), 'date')})`)).toEqual({
      a: BigInt(Date.parse('2026-01-02T03:04:05Z')),
      b: null,
    });
  });

  test('fieldValuesSql: every value along the path, of one kind', async () => {
    expect(await values(fieldValuesSql(resolveField('events', 'metadata.n'), 'number'))).toEqual({ a: [3, 1, 2], b: [4] });
    expect(await values(fieldValuesSql(resolveField('events', 'metadata.tag'), 'keyword'))).toEqual({ a: ['x'], b: ['y', 'z'] });
    expect(await values(fieldValuesSql(resolveField('events', 'metadata.items.k'), 'keyword'))).toEqual({ a: ['p', 'q'], b: [] });
    expect(await values(fieldValuesSql(resolveField('events', 'metadata.plan.raw'), 'keyword'))).toEqual({ a: ['Pro'], b: [] });
    expect(await values(fieldValuesSql(resolveField('events', 'weight'), 'number'))).toEqual({ a: [2], b: [] });
  });
});
