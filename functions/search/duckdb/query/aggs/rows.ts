import { listValue } from '@duckdb/node-api';
import type { QueryNode } from '../../../../../schemas/search-tree';
import type { TableContext } from '../../search-tables';
import { column, type SqlParams } from '../sql';
import { compileQuery } from '../query-compiler';
import { dateBucketKeySql, type InstantSpan } from './date-buckets';
import type { Level } from './plan';
import { keyTypeOf, missingSql, sqlTypeOf, valueSql, withMissing, type ValueSql } from './values';

/**
 * The rows the aggregation queries (queries.ts) read, over the rows of the search (the caller's FROM ... WHERE,
 * alias `d`), and the bucket keys of each row. The root's metrics and top-level levels with one key per row (the
 * common dashboard queries) aggregate the table rows directly. Everything else reads them through layers (rowsSql):
 *   1. per row: the raw value of each enclosing level's field, metric inputs, filter flags;
 *   2. bucket keys from those values (one key, or a list of them for multi-valued fields, ranges and filters),
 *      keeping only rows that meet the `filter` aggregations on the way;
 *   3. one UNNEST per list of keys, so a row counts once in each of its buckets;
 * and then groups (a level) or ranks documents (top_hits).
 */

export type Key = string | number | boolean;

export interface QueryEnv {
  readonly fromWhereSql: string;
  /** The search, with the table layout its SQL is compiled for (typed metadata keys, INTEGER-valued columns). */
  readonly ctx: TableContext;
  /** This statement's parameters (each statement has its own). */
  readonly params: SqlParams;
  /** The instants each date_histogram's field holds (see date-buckets.ts); none for UTC and fixed offsets. */
  readonly spans: ReadonlyMap<number, InstantSpan | undefined>;
}

/** Only rows under these bucket keys (the buckets the parent level kept). */
export interface Restriction {
  readonly levels: readonly Level[];
  readonly tuples: readonly (readonly Key[])[];
}

export const keyColumn = (level: { id: number }): string => `k${level.id}`;
const listColumn = (level: { id: number }): string => `l${level.id}`;
const rawColumn = (level: { id: number }): string => `v${level.id}`;

/** The SQL type of a level's bucket key: the field's type for terms, epoch ms for dates, positions for the rest. */
export function keySqlType(level: Level): string {
  const dimension = level.dimension;
  switch (dimension.type) {
    case 'terms':
      // `missing` may be any number, so a number column's keys are then DOUBLE.
      return dimension.missing === undefined ? keyTypeOf(dimension.value) : sqlTypeOf(dimension.value.kind, 'key');
    case 'date_histogram':
    case 'histogram':
      return 'BIGINT';
    default:
      return 'INTEGER';
  }
}

/**
 * Terms on a `.raw` typed column read the column as it is, and the buckets of strings over RAW_IGNORE_ABOVE
 * characters (not indexed as keywords by OpenSearch) are ranked last and dropped after grouping: measuring
 * every row's length costs a third of a dashboard's terms query. (A HAVING on the key would not help: DuckDB
 * pushes it below the aggregation, onto every row.)
 */
export function defersRawLimit(level: Level): boolean {
  const dimension = level.dimension;
  return dimension.type === 'terms' && dimension.missing === undefined && dimension.value.ref.raw && dimension.value.ref.hot?.type === 'VARCHAR';
}

/** True when a level's rows carry a list of keys (one row per key after UNNEST) rather than one key. */
export function keysAreLists(level: Level): boolean {
  const dimension = level.dimension;
  return dimension.type === 'range' || dimension.type === 'filters' || dimension.value.ref.hot === undefined;
}

/** Keys as a VARCHAR[] parameter cast back to their type in SQL (a parameter list needs one item type). */
function keyListSql(level: Level, keys: readonly Key[], params: SqlParams): string {
  return `unnest(CAST(CAST(${params.add(listValue(keys.map(String)))} AS VARCHAR[]) AS ${keySqlType(level)}[]))`;
}

/** A relation of key tuples (one column per level), from a parameter list per level. */
export function tuplesSql(levels: readonly Level[], tuples: readonly (readonly Key[])[], params: SqlParams): string {
  return `SELECT ${levels
    .map(
      (level, position) =>
        `${keyListSql(
          level,
          tuples.map((tuple) => tuple[position] as Key),
          params,
        )} AS ${keyColumn(level)}`,
    )
    .join(', ')}`;
}

export const conjunction = (conditions: readonly QueryNode[], env: QueryEnv): string =>
  `coalesce(${conditions.map((condition) => `(${compileQuery(condition, env.ctx.kind, env.ctx, env.params)})`).join(' AND ')}, FALSE)`;

const ELEMENT = 'agg_key_value';

/** Bucket keys of one level from its raw value: layer 2 (see above). */
function keyExpression(level: Level, raw: ValueSql, env: QueryEnv): ValueSql {
  const dimension = level.dimension;
  const each = (toKey: (value: string) => string): ValueSql =>
    raw.list ? { sql: `list_distinct(list_transform(${raw.sql}, lambda ${ELEMENT}: ${toKey(ELEMENT)}))`, list: true } : { sql: toKey(raw.sql), list: false };
  switch (dimension.type) {
    case 'terms':
      return raw.list ? { sql: `list_distinct(${raw.sql})`, list: true } : raw;
    case 'date_histogram':
      return each((value) => dateBucketKeySql(value, dimension.rounding, env.spans.get(level.id)));
    case 'histogram': {
      const offset = env.params.add(String(dimension.offset));
      const interval = env.params.add(String(dimension.interval));
      return each((value) => `CAST(floor((${value} - CAST(${offset} AS DOUBLE)) / CAST(${interval} AS DOUBLE)) AS BIGINT)`);
    }
    case 'range': {
      const buckets = dimension.ranges.map((range, position) => {
        const within = (value: string) =>
          [
            ...(range.from === undefined ? [] : [`${value} >= CAST(${env.params.add(String(range.from))} AS DOUBLE)`]),
            ...(range.to === undefined ? [] : [`${value} < CAST(${env.params.add(String(range.to))} AS DOUBLE)`]),
          ].join(' AND ') || `${value} IS NOT NULL`;
        const test = raw.list ? `list_bool_or(list_transform(${raw.sql}, lambda ${ELEMENT}: ${within(ELEMENT)}))` : within(raw.sql);
        return `CASE WHEN ${test} THEN ${position} END`;
      });
      return { sql: `[${buckets.join(', ')}]`, list: true };
    }
    case 'filters': {
      const flags = dimension.filters.map((_filter, position) => `${rawColumn(level)}_${position}`);
      const buckets = flags.map((flag, position) => `CASE WHEN ${flag} THEN ${position} END`);
      // The other bucket comes after the filters; with no filters every row is in it.
      if (dimension.otherKey !== undefined) buckets.push(flags.length === 0 ? '0' : `CASE WHEN NOT (${flags.join(' OR ')}) THEN ${flags.length} END`);
      return { sql: `[${buckets.join(', ')}]`, list: true };
    }
  }
}

/** The value a level's keys come from (terms honour `missing`); not for filters, whose keys are conditions. */
export function fieldOfLevelSql(level: Level, env: QueryEnv): ValueSql {
  const dimension = level.dimension;
  if (dimension.type === 'filters') throw new Error('filters have no field');
  const hot = dimension.value.ref.hot;
  if (defersRawLimit(level) && hot !== undefined) return { sql: column('d', hot.name), list: false };
  const view = dimension.type === 'terms' ? 'key' : dimension.type === 'date_histogram' ? 'millis' : 'numeric';
  const value = valueSql(dimension.value, view);
  if (dimension.type !== 'terms' || dimension.missing === undefined) return value;
  return withMissing(value, missingSql(dimension.missing, dimension.value.kind, 'key', env.ctx, env.params, `${level.path}.terms.missing`));
}

/** A level's key straight from the table row (one key per row: see keysAreLists). */
export function keyValueSql(level: Level, env: QueryEnv): ValueSql {
  return keyExpression(level, fieldOfLevelSql(level, env), env);
}

export interface RowColumn {
  readonly name: string;
  /** Over the search table row (alias d). */
  readonly sql: string;
}

/**
 * The rows of a query: the keys of every level in `chain` (outermost first) as `k<id>` columns, plus `columns`,
 * for rows of the search meeting `conditions`, restricted to `restriction`'s key tuples.
 */
export function rowsSql(
  env: QueryEnv,
  chain: readonly Level[],
  conditions: readonly QueryNode[],
  columns: readonly RowColumn[],
  restriction?: Restriction,
  keepNullKeys?: Level,
): string {
  const first: string[] = [];
  const second: string[] = [];
  const lists: Level[] = [];
  for (const level of chain) {
    const dimension = level.dimension;
    let raw: ValueSql;
    if (dimension.type === 'filters') {
      dimension.filters.forEach((filter, position) => first.push(`${conjunction([filter.filter], env)} AS ${rawColumn(level)}_${position}`));
      raw = { sql: rawColumn(level), list: false };
    } else {
      const value = fieldOfLevelSql(level, env);
      first.push(`${value.sql} AS ${rawColumn(level)}`);
      raw = { sql: rawColumn(level), list: value.list };
    }
    const key = keyExpression(level, raw, env);
    second.push(`${key.sql} AS ${key.list ? listColumn(level) : keyColumn(level)}`);
    if (key.list) lists.push(level);
  }
  for (const column of columns) {
    first.push(`${column.sql} AS ${column.name}`);
    second.push(column.name);
  }
  if (conditions.length > 0) first.push(`${conjunction(conditions, env)} AS agg_keep`);
  if (first.length === 0) first.push('TRUE AS agg_row');
  if (second.length === 0) second.push('agg_row');

  let sql = `SELECT ${second.join(', ')} FROM (SELECT ${first.join(', ')} ${env.fromWhereSql})${conditions.length > 0 ? ' WHERE agg_keep' : ''}`;
  for (const level of lists) sql = `SELECT * EXCLUDE (${listColumn(level)}), unnest(${listColumn(level)}) AS ${keyColumn(level)} FROM (${sql})`;
  const filters = chain.filter((level) => level !== keepNullKeys).map((level) => `${keyColumn(level)} IS NOT NULL`);
  if (restriction !== undefined) {
    const keys = restriction.levels.map(keyColumn);
    const tuple = keys.length === 1 ? (keys[0] as string) : `(${keys.join(', ')})`;
    filters.push(`${tuple} IN (${tuplesSql(restriction.levels, restriction.tuples, env.params)})`);
  }
  return filters.length === 0 ? sql : `SELECT * FROM (${sql}) WHERE ${filters.join(' AND ')}`;
}

/** Every `filter` condition on the way from the root to (and into) a level. */
export function chainConditions(chain: readonly Level[]): QueryNode[] {
  return chain.flatMap((level) => level.conditions);
}
