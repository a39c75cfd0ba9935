import type { Scalar } from '../../../../schemas/search-tree';
import type { FieldRef } from '../../fields';
import type { LiteralWildcard } from '../../wildcard-patterns';
import { invalid } from './field-sql';
import type { SqlParams } from './sql';

/** The values a query compares with, as the compiler reads them: numbers, booleans, plain string tests. */

/** A number as OpenSearch reads it from a string: decimal, with an optional fraction and exponent. */
const DECIMAL_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A number for numeric fields: numbers, and decimal numeric strings (OpenSearch coerces "200" to
 * 200, but not "0x10": JavaScript's Number() would read hex, binary and octal strings too).
 */
export function numberOf(field: FieldRef, value: Scalar): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && DECIMAL_NUMBER.test(value.trim()) ? Number(value) : Number.NaN;
  if (Number.isFinite(number)) return number;
  if (field.hot !== undefined && field.type === 'number') throw invalid(field.path, `${JSON.stringify(value)} is not a number`);
  return undefined;
}

/**
 * A number compared with the DOUBLE values of numeric fields. An integer beyond 2^53 is bound as
 * text and cast: bound as a number, the driver takes an integer for a BIGINT and refuses one past int64.
 */
export function numberParam(params: SqlParams, number: number): string {
  return Number.isSafeInteger(number) || !Number.isInteger(number) ? params.add(number) : `CAST(${params.add(String(number))} AS DOUBLE)`;
}

export function booleanOf(field: FieldRef, value: Scalar): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  if (field.hot !== undefined && field.type === 'boolean') throw invalid(field.path, `${JSON.stringify(value)} is not a boolean`);
  return undefined;
}

/** SQL of the plain string test a wildcard pattern stands for, on a string and the literal's parameter. */
export function literalTest(literal: LiteralWildcard, s: string, parameter: string): string {
  switch (literal.match) {
    case 'equals':
      return `${s} = ${parameter}`;
    case 'prefix':
      return `starts_with(${s}, ${parameter})`;
    case 'suffix':
      return `ends_with(${s}, ${parameter})`;
    case 'contains':
      return `contains(${s}, ${parameter})`;
  }
}
