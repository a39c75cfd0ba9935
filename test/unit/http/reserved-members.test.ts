import * as fc from 'fast-check';
import { ValidationError } from '../../../functions/shared/errors';
import { assertNoReservedMembers, mayHoldReservedMembers } from '../../../functions/shared/http/reserved-members';

const management = { storedAsMaps: true };
const collector = { keptUnder: new Set(['metadata', 'body']), storedAsMaps: false };
const issues = (body: unknown, rules: Parameters<typeof assertNoReservedMembers>[1]) => {
  try {
    assertNoReservedMembers(body, rules);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).details;
  }
};

describe('reserved member names', () => {
  it('refuses __proto__ anywhere in a management body, naming its path', () => {
    expect(issues(JSON.parse('{"a":{"b":[{"__proto__":1}]}}'), management)).toEqual([
      { field: 'a.b[0].__proto__', reason: expect.stringContaining('__proto__') },
    ]);
    expect(issues(JSON.parse('{"aggs":{"__proto__":{"terms":{"field":"x"}}}}'), management)).toEqual([expect.objectContaining({ field: 'aggs.__proto__' })]);
  });

  it("keeps __proto__ inside the collector's free-form members and refuses it elsewhere, with the batch index", () => {
    expect(issues(JSON.parse('{"metadata":{"x":{"__proto__":1}},"request":{"body":{"__proto__":2}}}'), collector)).toEqual([]);
    expect(issues(JSON.parse('[{"user_id":"a"},{"request":{"__proto__":1}}]'), collector)).toEqual([
      expect.objectContaining({ field: 'request.__proto__', index: 1 }),
    ]);
  });

  it('refuses a constructor object the marshaller would misread only where bodies become DynamoDB maps', () => {
    const body = { rates: { constructor: { name: 'Set' } } };
    expect(issues(body, management)).toEqual([expect.objectContaining({ field: 'rates.constructor' })]);
    expect(issues(body, collector)).toEqual([]);
    expect(issues({ rates: { constructor: 5, toString: 1, hasOwnProperty: { name: 'x' } } }, management)).toEqual([]);
  });

  it('the text pre-check never misses a body that holds a reserved member, even escaped', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom('"__proto__"', '"\\u005f_proto__"', '"__pr\\u006fto__"', '"constructor"'), (value, key) => {
        const text = `{"x":${JSON.stringify(value)},${key}:{"name":"Set"}}`;
        if (issues(JSON.parse(text), management).length > 0) expect(mayHoldReservedMembers(text, management)).toBe(true);
        if (issues(JSON.parse(text), collector).length > 0) expect(mayHoldReservedMembers(text, collector)).toBe(true);
      }),
    );
  });
});
