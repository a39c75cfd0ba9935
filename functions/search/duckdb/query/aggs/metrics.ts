import { formatKeyAsString } from '../../../dates/intervals';
import type { TableContext } from '../../search-tables';
import type { SqlParams } from '../sql';
import { javaDoubleString } from './java-double';
import type { MetricOutput } from './plan';
import { keyTypeOf, missingSql, valueSql, withMissing, type ValueSql } from './values';

/**
 * Metrics as aggregate columns of the query of their scope, and their OpenSearch response shape.
 *
 * Exact where OpenSearch estimates: `cardinality` is an exact count of distinct values (OpenSearch's
 * HyperLogLog++ is exact below its precision threshold, 3000 by default); `percentiles` are exact, by linear
 * interpolation between the two nearest values (DuckDB's quantile_cont, the "R7" definition) where
 * OpenSearch's t-digest approximates — both agree on small data and on the median of an odd count, and
 * differ at the tails of small samples (the 99th percentile of 1..10 is 9.91 here, 10 in OpenSearch).
 */

/** Columns of the rows relation: `m<id>` a metric's input (a value or a list of values), `c<id>` its filter condition. */
export const inputColumn = (output: { id: number }): string => `m${output.id}`;
export const conditionColumn = (output: { id: number }): string => `c${output.id}`;
const resultColumn = (output: MetricOutput, part?: string): string => `o${output.id}${part === undefined ? '' : `_${part}`}`;

const COUNTING = new Set(['value_count', 'cardinality']);

/**
 * Percentiles of a typed integer column read it in its own type: quantile_cont interpolates in DOUBLE either
 * way, and DuckDB orders integers faster than doubles (the p50/p99 of 10 M durations by route: 0.6x the time).
 */
const readsOwnIntegers = (output: MetricOutput): boolean =>
  output.node.type === 'percentiles' && output.node.missing === undefined && output.value.kind === 'number' && INTEGER_TYPES.has(keyTypeOf(output.value));

const INTEGER_TYPES = new Set(['INTEGER', 'BIGINT']);

/** The input of a metric for one row, honouring `missing`. */
export function metricInputSql(output: MetricOutput, ctx: TableContext, params: SqlParams): ValueSql {
  if (readsOwnIntegers(output)) {
    const value = valueSql(output.value, 'key');
    const hot = output.value.ref.hot;
    // A BIGINT column holding only INTEGER values is read as one: percentiles in 0.8x the time again.
    return hot?.type === 'BIGINT' && ctx.int32Columns?.has(hot.name) === true ? { ...value, sql: `CAST(${value.sql} AS INTEGER)` } : value;
  }
  const view = COUNTING.has(output.node.type) ? 'key' : 'numeric';
  const value = valueSql(output.value, view);
  if (output.node.missing === undefined) return value;
  return withMissing(value, missingSql(output.node.missing, output.value.kind, view, ctx, params, `${output.path}.${output.node.type}.missing`));
}

/** What a metric aggregates in its scope's query. */
export interface MetricInput {
  /** The row's value: a column of the rows relation, or an expression over the table row (alias d). */
  readonly value: string;
  /** `value` is a list of values (a multi-valued JSON field). */
  readonly list: boolean;
  /** The row meets the `filter` aggregations between the scope and the metric, when there are any. */
  readonly filter?: string;
}

/** Aggregate expressions over the inputs of one metric (list-valued inputs aggregate every element). */
class MetricSql {
  private readonly m: string;
  private readonly list: boolean;
  private readonly filter: string;

  constructor(input: MetricInput) {
    this.m = input.value;
    this.list = input.list;
    this.filter = input.filter === undefined ? '' : ` FILTER (WHERE ${input.filter})`;
  }

  private call(aggregate: string): string {
    return `${aggregate}${this.filter}`;
  }

  count(): string {
    return this.list ? this.call(`sum(len(${this.m}))`) : this.call(`count(${this.m})`);
  }

  sum(): string {
    return this.list ? this.call(`sum(list_sum(${this.m}))`) : this.call(`sum(${this.m})`);
  }

  avg(): string {
    return this.list ? `(${this.sum()} / nullif(${this.count()}, 0))` : this.call(`avg(${this.m})`);
  }

  min(): string {
    return this.list ? this.call(`min(list_min(${this.m}))`) : this.call(`min(${this.m})`);
  }

  max(): string {
    return this.list ? this.call(`max(list_max(${this.m}))`) : this.call(`max(${this.m})`);
  }

  distinct(): string {
    return this.list ? `len(list_distinct(flatten(${this.call(`list(${this.m})`)})))` : this.call(`count(DISTINCT ${this.m})`);
  }

  /** quantile_cont at fractions (a list of them, or one). */
  quantiles(fractions: string): string {
    return this.list
      ? `list_aggregate(flatten(${this.call(`list(${this.m})`)}), 'quantile_cont', ${fractions})`
      : this.call(`quantile_cont(${this.m}, ${fractions})`);
  }
}

const fraction = (percent: number): string => String(percent / 100);

/** `expr AS column` items computing a metric in its scope's query. */
export function metricAggregatesSql(output: MetricOutput, input: MetricInput): string[] {
  const sql = new MetricSql(input);
  const node = output.node;
  switch (node.type) {
    case 'sum':
      return [`${sql.sum()} AS ${resultColumn(output)}`];
    case 'avg':
      return [`${sql.avg()} AS ${resultColumn(output)}`];
    case 'min':
      return [`${sql.min()} AS ${resultColumn(output)}`];
    case 'max':
      return [`${sql.max()} AS ${resultColumn(output)}`];
    case 'value_count':
      return [`${sql.count()} AS ${resultColumn(output)}`];
    case 'cardinality':
      return [`${sql.distinct()} AS ${resultColumn(output)}`];
    case 'stats':
      return [
        `${sql.count()} AS ${resultColumn(output, 'count')}`,
        `${sql.min()} AS ${resultColumn(output, 'min')}`,
        `${sql.max()} AS ${resultColumn(output, 'max')}`,
        `${sql.avg()} AS ${resultColumn(output, 'avg')}`,
        `${sql.sum()} AS ${resultColumn(output, 'sum')}`,
      ];
    case 'percentiles':
      return [`${sql.quantiles(`[${node.percents.map(fraction).join(', ')}]`)} AS ${resultColumn(output)}`];
  }
}

/**
 * The value a bucket is ordered by, as OpenSearch sorts it: with no values, sum and counts are 0, min
 * +Infinity, max -Infinity, avg and percentiles NaN (which sorts above every number, as in Java).
 */
export function metricSortSql(output: MetricOutput, input: MetricInput, property: string | undefined): string {
  const sql = new MetricSql(input);
  const node = output.node;
  const orEmpty = (value: string, empty: string) => `coalesce(CAST(${value} AS DOUBLE), ${empty})`;
  const what = node.type === 'stats' ? (property ?? 'count') : node.type === 'percentiles' ? 'percentile' : node.type;
  switch (what) {
    case 'sum':
      return orEmpty(sql.sum(), '0');
    case 'avg':
      return orEmpty(sql.avg(), "'NaN'::DOUBLE");
    case 'min':
      return orEmpty(sql.min(), "'Infinity'::DOUBLE");
    case 'max':
      return orEmpty(sql.max(), "'-Infinity'::DOUBLE");
    case 'value_count':
    case 'count':
      return orEmpty(sql.count(), '0');
    case 'cardinality':
      return orEmpty(sql.distinct(), '0');
    default:
      return orEmpty(sql.quantiles(fraction(Number(property))), "'NaN'::DOUBLE");
  }
}

/** The order value of a metric in a bucket without documents (see metricSortSql). */
export function emptyMetricSortValue(output: MetricOutput, property: string | undefined): number {
  const node = output.node;
  const what = node.type === 'stats' ? (property ?? 'count') : node.type === 'percentiles' ? 'percentile' : node.type;
  if (what === 'min') return Infinity;
  if (what === 'max') return -Infinity;
  if (what === 'avg' || what === 'percentile') return Number.NaN;
  return 0;
}

export const emptyMetricSortSql = (output: MetricOutput, property: string | undefined): string => {
  const value = emptyMetricSortValue(output, property);
  return Number.isNaN(value) ? "'NaN'::DOUBLE" : value === Infinity ? "'Infinity'::DOUBLE" : value === -Infinity ? "'-Infinity'::DOUBLE" : '0::DOUBLE';
};

type Row = Record<string, unknown> | undefined;

const numberOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : value === null || value === undefined ? null : Number(value));

/** Dates print as OpenSearch prints a date field's value (UTC, strict_date_optional_time); fractions truncate. */
const dateString = (millis: number): string => formatKeyAsString(Math.trunc(millis), 'UTC');

/** The response of a metric in one bucket; `row` undefined is a bucket without documents. */
export function metricResult(output: MetricOutput, row: Row): Record<string, unknown> {
  const node = output.node;
  const dates = output.value.kind === 'date' && node.type !== 'value_count' && node.type !== 'cardinality';
  const column = (part?: string) => numberOrNull(row?.[resultColumn(output, part)]);
  switch (node.type) {
    case 'sum': {
      const value = column() ?? 0;
      return dates ? { value, value_as_string: dateString(value) } : { value };
    }
    case 'avg':
    case 'min':
    case 'max': {
      const value = column();
      return dates && value !== null ? { value, value_as_string: dateString(value) } : { value };
    }
    case 'value_count':
    case 'cardinality':
      return { value: column() ?? 0 };
    case 'stats': {
      const count = column('count') ?? 0;
      const stats: Record<string, unknown> = {
        count,
        min: count === 0 ? null : column('min'),
        max: count === 0 ? null : column('max'),
        avg: count === 0 ? null : column('avg'),
        sum: column('sum') ?? 0,
      };
      if (dates && count > 0) {
        for (const part of ['min', 'max', 'avg', 'sum']) stats[`${part}_as_string`] = dateString(stats[part] as number);
      }
      return stats;
    }
    case 'percentiles': {
      const values = row?.[resultColumn(output)];
      const list = Array.isArray(values) ? values.map(numberOrNull) : [];
      const entries = node.percents.map((percent, position) => ({ key: percent, value: list[position] ?? null }));
      if (!node.keyed) {
        return { values: entries.map(({ key, value }) => (dates && value !== null ? { key, value, value_as_string: dateString(value) } : { key, value })) };
      }
      const keyed: Record<string, unknown> = {};
      for (const { key, value } of entries) {
        keyed[javaDoubleString(key)] = value;
        if (dates && value !== null) keyed[`${javaDoubleString(key)}_as_string`] = dateString(value);
      }
      return { values: keyed };
    }
  }
}
