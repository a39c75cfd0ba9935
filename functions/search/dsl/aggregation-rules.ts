import * as z from 'zod';
import { resolveField } from '../fields';
import type { IndexKind } from '../port';
import type { AggregationNode, BucketOrder } from '../../../schemas/search-tree';
import { type Ctx, INVALID, Order, type Parsed, type Path, issue } from './parse-support';

/** Which aggregations exist, which fields they may read, and how their buckets may be ordered. */

// ---------------------------------------------------------------------------------------------
// Aggregations.

export const BUCKET_TYPES = new Set(['terms', 'date_histogram', 'histogram', 'range', 'filter', 'filters']);
export const SINGLE_VALUE_METRICS = new Set(['sum', 'avg', 'min', 'max', 'value_count', 'cardinality']);
export const STATS_PROPERTIES = new Set(['count', 'min', 'max', 'avg', 'sum']);
export const UNSUPPORTED_AGGREGATIONS = new Set([
  'date_range',
  'ip_range',
  'composite',
  'significant_terms',
  'significant_text',
  'rare_terms',
  'multi_terms',
  'auto_date_histogram',
  'variable_width_histogram',
  'nested',
  'reverse_nested',
  'children',
  'parent',
  'sampler',
  'diversified_sampler',
  'adjacency_matrix',
  'missing',
  'extended_stats',
  'weighted_avg',
  'median_absolute_deviation',
  'percentile_ranks',
  'matrix_stats',
  'geo_bounds',
  'geo_centroid',
  'geohash_grid',
  'geotile_grid',
  'geo_distance',
  'avg_bucket',
  'sum_bucket',
  'min_bucket',
  'max_bucket',
  'stats_bucket',
  'extended_stats_bucket',
  'percentiles_bucket',
  'derivative',
  'cumulative_sum',
  'moving_avg',
  'moving_fn',
  'serial_diff',
  'bucket_sort',
]);

export function refusedAggregation(key: string): string {
  if (/(^|[_.])script/i.test(key)) return 'scripts are not supported';
  if (key === 'global') return 'global aggregations are not supported (they would ignore the query)';
  if (UNSUPPORTED_AGGREGATIONS.has(key)) return `the ${key} aggregation is not supported`;
  return `unknown aggregation type "${key}"`;
}

/** A field an aggregation reads: text fields have no per-document values to group or compute on. */
export function aggregatableField(kind: IndexKind, ctx: Ctx, field: string, numeric: boolean): boolean {
  const type = resolveField(kind, field).type;
  if (type === 'text') {
    issue(ctx, [], `${field} is a text field and cannot be aggregated; use ${field}.raw`);
    return false;
  }
  if (numeric && (type === 'keyword' || type === 'id')) {
    issue(ctx, [], `${field} is a keyword field; this aggregation needs numbers or dates`);
    return false;
  }
  return true;
}

export const OrderSpec = z.preprocess(
  (value) => (Array.isArray(value) ? value : [value]),
  z.array(z.record(z.string(), Order).refine((entry) => Object.keys(entry).length === 1, { error: 'each order entry names one key' })),
);

export type OrderRequest = z.infer<typeof OrderSpec>;

/** Bucket orders when the request names none. */
export const DEFAULT_ORDERS: Readonly<Record<string, BucketOrder[]>> = {
  terms: [
    { key: '_count', order: 'desc' },
    { key: '_key', order: 'asc' },
  ],
  date_histogram: [{ key: '_key', order: 'asc' }],
  histogram: [{ key: '_key', order: 'asc' }],
};

/**
 * The order of a bucket aggregation, checked once its sub-aggregations are known: each key names
 * `_count`, `_key` (`_term`) or a single-value metric among them.
 */
export function bucketOrder(
  ctx: Ctx,
  path: Path,
  raw: OrderRequest | undefined,
  fallback: BucketOrder[],
  subAggs: Record<string, AggregationNode>,
): Parsed<BucketOrder[]> {
  if (raw === undefined) return fallback;
  const orders: BucketOrder[] = [];
  for (const [position, entry] of raw.entries()) {
    const [key, order] = Object.entries(entry)[0] as [string, 'asc' | 'desc'];
    const name = key === '_term' ? '_key' : key;
    if (name !== '_count' && name !== '_key') {
      const problem = metricPathProblem(name, subAggs);
      if (problem !== undefined) {
        issue(ctx, [...path, 'order', position, key], problem);
        return INVALID;
      }
    }
    orders.push({ key: name, order });
  }
  // OpenSearch breaks ties by key ascending unless the order already involves the key.
  if (!orders.some((order) => order.key === '_key')) orders.push({ key: '_key', order: 'asc' });
  return orders;
}

/** An order key naming a metric: the sub-aggregation and, if any, its property (`stats.max`, `pct[99]` → `99`). */
export function parseMetricPath(path: string): { name: string; property: string | undefined } | undefined {
  const match = /^([^.[\]>]+)(?:\.([^.[\]]+)|\[([^\]]+)\])?$/.exec(path);
  return match ? { name: match[1]!, property: match[2] ?? match[3] } : undefined;
}

export function metricPathProblem(path: string, subAggs: Record<string, AggregationNode>): string | undefined {
  const parsed = parseMetricPath(path);
  const name = parsed?.name;
  const property = parsed?.property;
  const target = name === undefined ? undefined : subAggs[name];
  if (target === undefined) return `order names "${path}", which is not a sub-aggregation`;
  if (SINGLE_VALUE_METRICS.has(target.type) && (property === undefined || property === 'value')) return undefined;
  if (target.type === 'stats' && property !== undefined && STATS_PROPERTIES.has(property)) return undefined;
  if (target.type === 'percentiles' && property !== undefined && Number.isFinite(Number(property))) {
    return target.percents.includes(Number(property)) ? undefined : `percentile ${property} is not among the sub-aggregation's percents`;
  }
  return `order by "${path}" needs a single-value metric (sum, avg, min, max, value_count, cardinality, a stats property, a percentile)`;
}
