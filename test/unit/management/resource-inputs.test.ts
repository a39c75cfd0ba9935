import * as z from 'zod';
import { listOptions } from '../../../functions/resources/crud-operations';
import { normaliseEsQuery } from '../../../functions/management/billing-meters';
import { newResourceId, isPlausibleId } from '../../../functions/resources/resource-store';
import { parseCriteria } from '../../../functions/search/stored-criteria';
import { readStoredCriteria } from '../../../functions/cohorts/cohort-criteria';
import { ValidationError } from '../../../functions/shared/errors';
import { GovernanceRuleCreate } from '../../../schemas/resources/governance-rule';
import { parseBody } from '../../../functions/shared/invalid-input';

const fieldsOf = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.details.map((d) => d.field);
    throw error;
  }
  throw new Error('expected a ValidationError');
};

describe('resource ids', () => {
  it('sort by creation time and are unique within a millisecond', () => {
    const ids = [0, 1, 999, 1_700_000_000_000, 1_700_000_000_001].map((ms) => newResourceId(ms));
    expect([...ids].sort()).toEqual(ids);
    const same = new Set(Array.from({ length: 200 }, () => newResourceId(42)));
    expect(same.size).toBe(200);
    expect(ids.every((id) => /^[0-9a-f]{20}$/.test(id) && isPlausibleId(id))).toBe(true);
    expect(isPlausibleId('a#b')).toBe(false);
    expect(isPlausibleId('x'.repeat(129))).toBe(false);
  });
});

describe('list options', () => {
  it('defaults take to 50 and bounds it to 1..1000', () => {
    expect(listOptions({})).toEqual({ take: 50 });
    expect(listOptions({ take: '1000', before_id: '018bcfe56800abcdef12' })).toEqual({ take: 1000, beforeId: '018bcfe56800abcdef12' });
    expect(fieldsOf(() => listOptions({ take: '0' }))).toEqual(['take']);
    expect(fieldsOf(() => listOptions({ take: '2.5' }))).toEqual(['take']);
    expect(fieldsOf(() => listOptions({ take: '-1', before_id: 'a b' }))).toEqual(['take', 'before_id']);
  });
});

describe('body parsing', () => {
  const schema = z.strictObject({ name: z.string(), inner: z.strictObject({ n: z.number() }).optional(), list: z.array(z.number()).optional() });
  it('names each field: missing, wrong type, nested, array item, unknown member', () => {
    expect(fieldsOf(() => parseBody(schema, {}))).toEqual(['name']);
    expect(fieldsOf(() => parseBody(schema, { name: 'a', inner: { n: 'x' }, list: [1, 'b'] })).sort()).toEqual(['inner.n', 'list[1]']);
    expect(fieldsOf(() => parseBody(schema, { name: 'a', colour: 1, inner: { n: 1, extra: 2 } })).sort()).toEqual(['colour', 'inner.extra']);
    expect(fieldsOf(() => parseBody(schema, 'text'))).toEqual(['body']);
  });
});

describe('governance rule schema', () => {
  const rule = { name: 'r', type: 'regex', state: 1, block: false };
  it('refuses regex values that do not compile, naming the condition', () => {
    const bad = { ...rule, regex_config: [{ conditions: [{ path: 'request.route', value: 'ok' }] }, { conditions: [{ path: 'request.verb', value: '*' }] }] };
    expect(fieldsOf(() => parseBody(GovernanceRuleCreate, bad))).toEqual(['regex_config[1].conditions[0].value']);
    expect(
      parseBody(GovernanceRuleCreate, { ...rule, regex_config: [{ conditions: [{ path: 'request.route', value: '^/v[0-9]+/items$' }] }] }).regex_config,
    ).toHaveLength(1);
  });
  it('takes state 0 or 1 and type user, company or regex', () => {
    expect(fieldsOf(() => parseBody(GovernanceRuleCreate, { ...rule, state: 2, type: 'team' })).sort()).toEqual(['state', 'type']);
  });
});

describe('search criteria', () => {
  it('reads a search body or a bare query and reports problems under the field', () => {
    expect(parseCriteria({ query: { term: { 'user_id.raw': 'a' } } }, 'users', 'criteria').form).toBe('body');
    expect(parseCriteria({ term: { 'user_id.raw': 'a' } }, 'users', 'criteria').form).toBe('query');
    expect(fieldsOf(() => parseCriteria({ query: { script: {} } }, 'users', 'criteria'))[0]).toMatch(/^criteria\.query/);
    expect(fieldsOf(() => parseCriteria({ size: -1 }, 'users', 'criteria'))).toEqual(['criteria.size']);
    expect(readStoredCriteria(JSON.stringify({ term: { 'user_id.raw': 'a' } }), 'user')).toEqual(
      readStoredCriteria(JSON.stringify({ query: { term: { 'user_id.raw': 'a' } } }), 'user'),
    );
  });
});

describe('billing meter es_query', () => {
  const query = { query: { term: { 'company_id.raw': '{{company_id}}' } }, aggs: { n: { value_count: { field: 'request.time' } } } };
  it('accepts an object, its JSON text or base64 of it, and stores the same text with placeholders kept', () => {
    const text = JSON.stringify(query);
    expect(normaliseEsQuery(query)).toBe(text);
    expect(normaliseEsQuery(text)).toBe(text);
    expect(normaliseEsQuery(Buffer.from(text).toString('base64'))).toBe(text);
    expect(normaliseEsQuery(Buffer.from(text).toString('base64url'))).toBe(text);
  });
  it('refuses text that is neither, and queries the events search refuses', () => {
    expect(fieldsOf(() => normaliseEsQuery('{"query":'))).toEqual(['es_query']);
    expect(fieldsOf(() => normaliseEsQuery('[1,2]'))).toEqual(['es_query']);
    expect(fieldsOf(() => normaliseEsQuery({ term: { a: 1 } }))[0]).toMatch(/^es_query/);
    expect(fieldsOf(() => normaliseEsQuery({ query: { match_all: {} }, size: 'many' }))).toEqual(['es_query.size']);
  });
});
