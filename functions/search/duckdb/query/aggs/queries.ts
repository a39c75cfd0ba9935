import { RAW_IGNORE_ABOVE } from '../../../fields';
import { SEARCH_TABLES } from '../../tables';
import { quoteIdentifier } from '../sql';
import { tenantConditionSql } from '../search';
import { dateBucketKeySql, keyStepMs } from './date-buckets';
import { conditionColumn, emptyMetricSortSql, inputColumn, metricAggregatesSql, metricInputSql, metricSortSql, type MetricInput } from './metrics';
import { chainOf, type Level, type OrderTerm, type Scope } from './plan';
import {
  chainConditions,
  conjunction,
  defersRawLimit,
  fieldOfLevelSql,
  keyColumn,
  keysAreLists,
  keyValueSql,
  rowsSql,
  tuplesSql,
  type Key,
  type QueryEnv,
  type Restriction,
  type RowColumn,
} from './rows';
import { valueSql } from './values';

/**
 * The aggregation queries: the root's metrics, and one GROUP BY query per level over the rows of the search
 * (rows.ts), with the metrics of its scope and the values its buckets are ordered by.
 */

export const filterCountColumn = (output: { id: number }): string => `n${output.id}`;
export const orderColumn = (level: { id: number }, position: number): string => `s${level.id}_${position}`;

/**
 * Whether a level's query can also count the rows of the search: a top-level level outside any filter whose
 * rows hold one key each keeps the rows without a key as a NULL bucket, so its buckets add up to every row.
 */
export function canCountRows(level: Level): boolean {
  const node = level.node;
  if (level.parent !== undefined || level.conditions.length > 0 || keysAreLists(level)) return false;
  // Buckets dropped by min_doc_count (HAVING) would be missing from the count.
  return (node.type === 'terms' || node.type === 'date_histogram' || node.type === 'histogram') && node.min_doc_count <= 1;
}

interface ScopeSql {
  /** Per-row columns the aggregates read (none when they read the table row directly). */
  readonly columns: RowColumn[];
  readonly aggregates: string[];
  readonly inputs: ReadonlyMap<number, MetricInput>;
}

/**
 * What a scope computes: aggregate columns over per-row inputs. `inline` aggregates read expressions over the
 * table row itself (a query straight over the search's FROM ... WHERE); otherwise they read columns of the rows
 * relation (rowsSql), which computes the inputs per row.
 */
function scopeSql(scope: Scope, env: QueryEnv, inline: boolean): ScopeSql {
  const columns: RowColumn[] = [];
  const aggregates: string[] = [];
  const inputs = new Map<number, MetricInput>();
  for (const output of scope.metrics) {
    const value = metricInputSql(output, env.ctx, env.params);
    const condition = output.conditions.length > 0 ? conjunction(output.conditions, env) : undefined;
    let input: MetricInput;
    if (inline) {
      input = { value: `(${value.sql})`, list: value.list, ...(condition === undefined ? {} : { filter: condition }) };
    } else {
      columns.push({ name: inputColumn(output), sql: value.sql });
      if (condition !== undefined) columns.push({ name: conditionColumn(output), sql: condition });
      input = { value: inputColumn(output), list: value.list, ...(condition === undefined ? {} : { filter: conditionColumn(output) }) };
    }
    inputs.set(output.id, input);
    aggregates.push(...metricAggregatesSql(output, input));
  }
  for (const output of scope.counts) {
    const condition = conjunction(output.conditions, env);
    if (!inline) columns.push({ name: conditionColumn(output), sql: condition });
    aggregates.push(`count(*) FILTER (WHERE ${inline ? condition : conditionColumn(output)}) AS ${filterCountColumn(output)}`);
  }
  return { columns, aggregates, inputs };
}

/** The root's metrics and filter counts, and the number of rows: one row. Undefined when the root computes nothing itself. */
export function rootSql(scope: Scope, env: QueryEnv): string | undefined {
  if (scope.metrics.length === 0 && scope.counts.length === 0) return undefined;
  const { aggregates } = scopeSql(scope, env, true);
  return `SELECT count(*) AS agg_docs, ${aggregates.join(', ')} ${env.fromWhereSql}`;
}

function orderSql(term: OrderTerm, position: number, level: Level): string {
  const direction = term.order === 'asc' ? 'ASC' : 'DESC';
  if (term.by === 'count') return `doc_count ${direction}`;
  if (term.by === 'key') return `${keyColumn(level)} ${direction}`;
  return `${orderColumn(level, position)} ${direction}`;
}

/** The tenant's documents of the index, ignoring the query and the time window (terms with min_doc_count 0). */
function tenantFromSql(env: QueryEnv): string {
  const table = quoteIdentifier(SEARCH_TABLES[env.ctx.kind].name);
  return `FROM ${table} d WHERE ${tenantConditionSql(env.ctx, env.params)}`;
}

export interface LevelQueryOptions {
  readonly restriction?: Restriction;
  /** Every bucket the parent level kept: terms with min_doc_count 0 add empty buckets under each. */
  readonly parentTuples?: readonly (readonly Key[])[];
  /** At most this many rows are read: one more than the buckets still allowed. */
  readonly limit: number;
  /** Keep the rows without a key as a NULL bucket (see canCountRows); terms add `agg_docs`, every row of the search. */
  readonly countRows?: boolean;
}

/**
 * One level: its buckets under every kept parent bucket, with the metrics of its scope and the values it is
 * ordered by. Terms are ranked and cut to `size` in SQL (`agg_rank` under a parent; top-level rows come in
 * rank order), with `agg_total` (documents in all buckets of the parent, for sum_other_doc_count).
 */
export function levelSql(level: Level, env: QueryEnv, options: LevelQueryOptions): string {
  const chain = chainOf(level);
  const keys = chain.map(keyColumn);
  const key = keyColumn(level);
  const parentKeys = keys.slice(0, -1);
  const countRows = options.countRows === true && canCountRows(level);
  // A top-level level with one key per row, outside any filter, groups the search's rows directly: one SELECT
  // is planned faster than the layers rowsSql builds for the general case.
  const flat = chain.length === 1 && !keysAreLists(level) && level.conditions.length === 0 && options.restriction === undefined;
  const { columns, aggregates, inputs } = scopeSql(level.scope, env, flat);
  const orders = level.order.map((term, position) => {
    const input = term.by === 'metric' ? inputs.get(term.output.id) : undefined;
    return term.by === 'metric' && input !== undefined ? `${metricSortSql(term.output, input, term.property)} AS ${orderColumn(level, position)}` : undefined;
  });
  const measures = ['count(*) AS doc_count', ...aggregates, ...orders.filter((order): order is string => order !== undefined)];
  const minDocCount = level.node.type === 'terms' || level.node.type === 'date_histogram' || level.node.type === 'histogram' ? level.node.min_doc_count : 1;
  const countsOnly = flat && level.dimension.type === 'date_histogram' && aggregates.length === 0;
  const counted = countsOnly ? 'sum(agg_rows)' : 'count(*)';
  const kept = minDocCount > 1 ? [`${counted} >= ${minDocCount}`] : [];
  if (flat && !countRows) kept.push(`${key} IS NOT NULL`);
  const having = kept.length === 0 ? '' : ` HAVING ${countRows ? `${key} IS NULL OR ` : ''}(${kept.join(' AND ')})`;
  let grouped: string;
  if (countsOnly) {
    grouped = countsByStepSql(level, env, having);
  } else if (flat) {
    grouped = `SELECT ${keyValueSql(level, env).sql} AS ${key}, ${measures.join(', ')} ${env.fromWhereSql} GROUP BY ${key}${having}`;
  } else {
    const rows = rowsSql(env, chain, chainConditions(chain), columns, options.restriction, countRows ? level : undefined);
    grouped = `SELECT ${keys.join(', ')}, ${measures.join(', ')} FROM (${rows}) GROUP BY ${keys.join(', ')}${having}`;
  }
  if (level.node.type !== 'terms') return `${grouped} LIMIT ${options.limit}`;

  const size = level.node.size;
  const partition = parentKeys.length > 0 ? `PARTITION BY ${parentKeys.join(', ')}` : '';
  // Buckets that are not terms (rows without a value, kept to count rows; over-long .raw strings) rank last,
  // are flagged `agg_unkeyed` for the caller to drop, and count in agg_docs only.
  const unkeyed = defersRawLimit(level) ? `(${key} IS NULL OR length(${key}) > ${RAW_IGNORE_ABOVE})` : countRows ? `${key} IS NULL` : undefined;
  const ranking = [...(unkeyed === undefined ? [] : [unkeyed]), ...level.order.map((term, position) => orderSql(term, position, level))].join(', ');
  const totals = [
    `sum(doc_count)${unkeyed === undefined ? '' : ` FILTER (WHERE NOT ${unkeyed})`} OVER (${partition}) AS agg_total`,
    ...(countRows ? ['sum(doc_count) OVER () AS agg_docs'] : []),
    ...(unkeyed === undefined ? [] : [`${unkeyed} AS agg_unkeyed`]),
  ].join(', ');
  // Top-level terms are one top N (ORDER BY ... LIMIT, rows come in rank order); nested ones a top N per parent.
  const ranked = (candidates: string) =>
    parentKeys.length === 0
      ? `SELECT *, ${totals} FROM (${candidates}) ORDER BY ${ranking} LIMIT ${Math.min(size, options.limit)}`
      : `SELECT *, row_number() OVER (${partition} ORDER BY ${ranking}) AS agg_rank, ${totals} FROM (${candidates}) QUALIFY agg_rank <= ${size} LIMIT ${options.limit}`;
  if (minDocCount > 0) return ranked(grouped);
  // The buckets with documents are read twice (as buckets, and to leave them out of the empty ones): once in SQL.
  return `WITH agg_grouped AS MATERIALIZED (${grouped}) ${ranked(`SELECT * FROM agg_grouped UNION ALL BY NAME ${emptyTermsSql(level, env, options.parentTuples)}`)}`;
}

/**
 * Lifts every instant DuckDB can hold (timestamps end near ±9.22e15 ms) above zero, so the integer division of
 * BIGINTs, which truncates toward zero, is a floor division; a multiple of the step.
 */
const stepLift = (step: number): string => String((9_300_000_000_000_000n / BigInt(step) + 1n) * BigInt(step));

/**
 * The buckets of a top-level date_histogram that only counts, in two groupings: the rows by their step (date-buckets.ts
 * keyStepMs: one integer division per row), then the steps by key. Every instant of a step has the step's key, and the
 * zone arithmetic of a key then runs once per step instead of once per row (an hourly histogram in a zone with DST
 * over 10 M events: 0.64× the time of keying every row).
 */
function countsByStepSql(level: Level, env: QueryEnv, having: string): string {
  const dimension = level.dimension;
  if (dimension.type !== 'date_histogram') throw new Error('steps are for date_histogram');
  const span = env.spans.get(level.id);
  const step = keyStepMs(dimension.rounding, span);
  const lift = stepLift(step);
  const steps = `SELECT (${fieldOfLevelSql(level, env).sql} + ${lift}) // ${step} AS agg_step, count(*) AS agg_rows ${env.fromWhereSql} GROUP BY agg_step`;
  const key = keyColumn(level);
  const keySql = dateBucketKeySql(`(agg_step * ${step} - ${lift})`, dimension.rounding, span);
  return `SELECT ${keySql} AS ${key}, CAST(sum(agg_rows) AS BIGINT) AS doc_count FROM (${steps}) GROUP BY ${key}${having}`;
}

/**
 * Buckets without documents for terms with min_doc_count 0: every term of the field in the tenant's documents
 * (OpenSearch lists the terms of the whole index, which here is one tenant's part of it), under every parent
 * bucket, unless the bucket has documents.
 */
function emptyTermsSql(level: Level, env: QueryEnv, parentTuples: readonly (readonly Key[])[] | undefined): string {
  const dimension = level.dimension;
  if (dimension.type !== 'terms') throw new Error('empty buckets are for terms');
  const key = keyColumn(level);
  const value = valueSql(dimension.value, 'key');
  const terms = `SELECT DISTINCT ${value.list ? `unnest(${value.sql})` : value.sql} AS ${key} ${tenantFromSql(env)}`;
  const parents = chainOf(level.parent);
  const orders = level.order.map((term, position) =>
    term.by === 'metric' ? `${emptyMetricSortSql(term.output, term.property)} AS ${orderColumn(level, position)}` : undefined,
  );
  const extras = ['0::BIGINT AS doc_count', ...orders.filter((order): order is string => order !== undefined)];
  const tupleKeys = [...parents.map(keyColumn), key];
  const candidates =
    parents.length === 0
      ? `SELECT ${key} FROM (${terms}) WHERE ${key} IS NOT NULL`
      : `SELECT p.*, t.${key} FROM (${tuplesSql(parents, parentTuples ?? [], env.params)}) p CROSS JOIN (${terms}) t WHERE t.${key} IS NOT NULL`;
  const match = tupleKeys.map((column) => `g.${column} = c.${column}`).join(' AND ');
  return `SELECT c.*, ${extras.join(', ')} FROM (${candidates}) c ANTI JOIN agg_grouped g ON ${match}`;
}

/** The instants a date_histogram's field holds in the search's rows (to find the zone's transitions). */
export function spanSql(level: Level, env: QueryEnv): string {
  const dimension = level.dimension;
  if (dimension.type !== 'date_histogram') throw new Error('spans are for date_histogram');
  const value = valueSql(dimension.value, 'millis');
  const lo = value.list ? `min(list_min(${value.sql}))` : `min(${value.sql})`;
  const hi = value.list ? `max(list_max(${value.sql}))` : `max(${value.sql})`;
  return `SELECT ${lo} AS lo, ${hi} AS hi ${env.fromWhereSql}`;
}
