import type { Scalar } from '../../../../../schemas/search-tree';
import { ValidationError } from '../../../../shared/errors';
import { resolveDateMath } from '../../../dates/date-math';
import type { FieldRef } from '../../../fields';
import type { SearchContext } from '../../../port';
import { column, type SqlParams } from '../sql';
import { fieldValueSql, fieldValuesSql } from '../field-sql';
import type { FieldValue, ValueKind } from './plan';

/**
 * A field's values as the aggregations read them. A typed column holds one value per row (a scalar
 * expression, the fast path of every dashboard query); a JSON path may hold several (an array), so it is
 * read as a list and each bucket or metric sees every element, as OpenSearch flattens arrays.
 *
 * Views: `key` keeps the field's own type (keyword VARCHAR, number DOUBLE, boolean BOOLEAN, date BIGINT
 * epoch ms); `numeric` is DOUBLE (dates as epoch ms, booleans 1/0, as OpenSearch's numeric doc values);
 * `millis` is BIGINT epoch ms for date_histogram.
 */

export interface ValueSql {
  readonly sql: string;
  /** True when `sql` is a list of values (JSON path), false for one nullable value (typed column). */
  readonly list: boolean;
}

export type ValueView = 'key' | 'numeric' | 'millis';

/** The lambda parameter of list conversions (distinct from query-compiler.ts's own names). */
const ELEMENT = 'agg_element';

function convert(kind: ValueKind, view: ValueView, value: string): string {
  if (view === 'key') return kind === 'date' ? `epoch_ms(${value})` : value;
  if (view === 'millis') return kind === 'date' ? `epoch_ms(${value})` : `CAST(floor(${numeric(kind, value)}) AS BIGINT)`;
  return numeric(kind, value);
}

function numeric(kind: ValueKind, value: string): string {
  switch (kind) {
    case 'date':
      return `CAST(epoch_ms(${value}) AS DOUBLE)`;
    case 'boolean':
      return `CAST(CAST(${value} AS INTEGER) AS DOUBLE)`;
    default:
      return `CAST(${value} AS DOUBLE)`;
  }
}

/** Which of fieldValueSql's readings gives the values of a kind. */
const READ_AS: Record<ValueKind, 'keyword' | 'number' | 'date' | 'boolean'> = { keyword: 'keyword', number: 'number', date: 'date', boolean: 'boolean' };

const NUMBER_COLUMNS = new Set(['INTEGER', 'BIGINT', 'DOUBLE']);

/** A typed number column read as it is: grouping by its own type lets DuckDB use its fastest (perfect hash) aggregation. */
function numberColumn(value: FieldValue): string | undefined {
  const hot = value.ref.hot;
  return value.kind === 'number' && !value.ref.raw && hot !== undefined && NUMBER_COLUMNS.has(hot.type) ? hot.type : undefined;
}

export function valueSql(value: FieldValue, view: ValueView, alias = 'd'): ValueSql {
  const hot = value.ref.hot;
  if (hot !== undefined && numberColumn(value) !== undefined) {
    const sql = column(alias, hot.name);
    return { sql: view === 'key' ? sql : convert('number', view, sql), list: false };
  }
  if (hot !== undefined) return { sql: convert(value.kind, view, fieldValueSql(value.ref, READ_AS[value.kind], alias)), list: false };
  const list = fieldValuesSql(value.ref, READ_AS[value.kind], alias);
  const converted = convert(value.kind, view, ELEMENT);
  return { sql: converted === ELEMENT ? list : `list_transform(${list}, lambda ${ELEMENT}: ${converted})`, list: true };
}

/** The SQL type of a field's values read as keys (valueSql's `key` view). */
export function keyTypeOf(value: FieldValue): string {
  return numberColumn(value) ?? sqlTypeOf(value.kind, 'key');
}

/** The SQL type of a value in a view (number columns read as keys keep their own type, see keyTypeOf). */
export function sqlTypeOf(kind: ValueKind, view: ValueView): string {
  if (view === 'numeric') return 'DOUBLE';
  if (view === 'millis') return 'BIGINT';
  return { keyword: 'VARCHAR', number: 'DOUBLE', date: 'BIGINT', boolean: 'BOOLEAN' }[kind];
}

/**
 * A `missing` value as a parameter of the value's type and view: what documents without the field count
 * as (terms puts them in a bucket of that key; metrics compute with it).
 */
export function missingSql(missing: Scalar, kind: ValueKind, view: ValueView, ctx: SearchContext, params: SqlParams, path: string): string {
  const type = sqlTypeOf(kind, view);
  if (type === 'VARCHAR') return `CAST(${params.add(String(missing))} AS VARCHAR)`;
  if (kind === 'date' && typeof missing === 'string') {
    const millis = resolveDateMath(missing, ctx.now, 'UTC', false, { field: path });
    return `CAST(${params.add(String(millis))} AS ${type})`;
  }
  if (type === 'BOOLEAN') {
    const boolean = missing === true || missing === 'true' ? true : missing === false || missing === 'false' ? false : undefined;
    if (boolean === undefined) throw invalidMissing(path, missing, 'a boolean');
    return params.add(boolean);
  }
  const number =
    typeof missing === 'boolean' ? (missing ? 1 : 0) : typeof missing === 'number' ? missing : missing.trim() === '' ? Number.NaN : Number(missing);
  if (!Number.isFinite(number)) throw invalidMissing(path, missing, 'a number');
  return `CAST(${params.add(String(number))} AS ${type})`;
}

function invalidMissing(path: string, missing: Scalar, what: string): ValidationError {
  const reason = `${JSON.stringify(missing)} is not ${what}, as the field's values are`;
  return new ValidationError(`${path}: ${reason}`, [{ field: path, reason }]);
}

/** Substitutes `missing` for a row without values (a NULL scalar, or an empty list). */
export function withMissing(value: ValueSql, missing: string): ValueSql {
  if (!value.list) return { sql: `coalesce(${value.sql}, ${missing})`, list: false };
  return { sql: `(CASE WHEN len(${value.sql}) = 0 THEN [${missing}] ELSE ${value.sql} END)`, list: true };
}

/**
 * SQL telling which kinds of values an untyped field holds over the rows (one extra scan, for untyped fields
 * only). OpenSearch maps such a field by the first value it ever indexed, which cannot be known here: the field
 * reads as numbers if any value is one (other values being malformed for that mapping), else as booleans, else
 * as strings (text, which aggregations refuse).
 */
export function kindProbeSql(ref: FieldRef, fromWhereSql: string): string {
  const numbers = fieldValuesSql(ref, 'number');
  const booleans = fieldValuesSql(ref, 'boolean');
  const all = fieldValuesSql(ref, 'keyword');
  return (
    'SELECT coalesce(bool_or(len(n) > 0), FALSE) AS numbers, coalesce(bool_or(len(b) > 0), FALSE) AS booleans, ' +
    'coalesce(bool_or(len(k) > len(n) + len(b)), FALSE) AS strings ' +
    `FROM (SELECT ${numbers} AS n, ${booleans} AS b, ${all} AS k ${fromWhereSql})`
  );
}

export function kindFromProbe(row: Record<string, unknown> | undefined): ValueKind | 'text' | undefined {
  if (row?.['numbers'] === true) return 'number';
  if (row?.['booleans'] === true) return 'boolean';
  if (row?.['strings'] === true) return 'text';
  return undefined;
}
