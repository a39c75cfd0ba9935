import { javaDoubleString } from '../../../../functions/search/duckdb/query/aggs/java-double';

describe('range keys print numbers as Java does', () => {
  it.each([
    [100, '100.0'],
    [0, '0.0'],
    [-2.5, '-2.5'],
    [0.001, '0.001'],
    [0.0001, '1.0E-4'],
    [9_999_999, '9999999.0'],
    [10_000_000, '1.0E7'],
    [12_345_678.9, '1.23456789E7'],
    [1e21, '1.0E21'],
    [0.1 + 0.2, '0.30000000000000004'],
  ])('%p → %s', (value, text) => {
    expect(javaDoubleString(value)).toBe(text);
  });
});
