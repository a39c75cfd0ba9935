import { withFields } from '../../../functions/billing/reports/object-copy';

describe('withFields', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['overwrites in place', { a: 1, b: 2, c: 3 }, { b: 20 }],
    ['appends new keys in the order given', { a: 1, b: 2 }, { z: 26, b: 20, y: 25 }],
    ['keeps undefined values as spread does', { a: 1, b: undefined }, { c: undefined }],
    ['copies an own "__proto__" key as a key', JSON.parse('{"a":1,"__proto__":{"x":1}}') as Record<string, unknown>, { b: 2 }],
    ['takes an own "__proto__" key of the fields as a key', { a: 1 }, JSON.parse('{"__proto__":{"x":1}}') as Record<string, unknown>],
    ['copies an empty object', {}, { a: 1 }],
  ];
  it.each(cases)('%s, exactly as {...object, ...fields}', (_name, object, fields) => {
    const expected = { ...object, ...fields };
    const actual = withFields(object, fields);
    expect(Object.keys(actual)).toEqual(Object.keys(expected));
    expect(Object.getPrototypeOf(actual)).toBe(Object.prototype);
    for (const key of Object.keys(expected)) expect(Object.getOwnPropertyDescriptor(actual, key)).toEqual(Object.getOwnPropertyDescriptor(expected, key));
    expect(actual).not.toBe(object);
  });
});
