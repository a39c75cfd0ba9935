import { BucketBudget } from '../../../bucket-cap';
import { bucketStart, formatKeyAsString, nextBucket } from '../../../dates/intervals';
import { javaDoubleString } from './java-double';
import { emptyMetricSortValue, metricResult } from './metrics';
import type { Level, OrderTerm, Scope, Shape, ShapeMap, TopHitsPlan } from './plan';
import { filterCountColumn, orderColumn } from './queries';
import { keyColumn, type Key } from './rows';
import type { TopHitsHit } from './top-hits';

/**
 * Builds OpenSearch's response from the rows of the aggregation queries: buckets in OpenSearch's order and
 * shape, empty buckets where OpenSearch creates them (histograms with min_doc_count 0, every range and
 * filter), and the cap on buckets per response (counted in response order, see bucket-cap.ts).
 */

export type Row = Record<string, unknown>;

/** The rows a level's query returned, by the key tuple of the parent bucket they belong to. */
export interface LevelRows {
  readonly byParent: ReadonlyMap<string, readonly Row[]>;
}

export interface TopHitsBucket {
  readonly total: number;
  readonly hits: readonly TopHitsHit[];
}

export interface QueryResults {
  readonly root: Row | undefined;
  readonly levels: ReadonlyMap<number, LevelRows>;
  readonly topHits: ReadonlyMap<number, ReadonlyMap<string, TopHitsBucket>>;
}

export const tupleKey = (tuple: readonly Key[]): string => JSON.stringify(tuple);

/** Java's Double.compare: NaN above everything. */
function compareNumbers(a: number, b: number): number {
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
  if (Number.isNaN(b)) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

interface HistogramBucket {
  readonly key: number;
  readonly row: Row | undefined;
}

export class Assembler {
  private readonly budget = new BucketBudget();

  constructor(private readonly results: QueryResults) {}

  aggregations(root: Scope): Record<string, unknown> {
    return this.shapes(root.shape, [], this.results.root);
  }

  private count(level: Level, buckets: number): void {
    this.budget.add(level.path, buckets);
  }

  private shapes(shapes: ShapeMap, tuple: readonly Key[], row: Row | undefined): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (const [name, shape] of shapes) result[name] = this.shape(shape, tuple, row);
    return result;
  }

  private shape(shape: Shape, tuple: readonly Key[], row: Row | undefined): unknown {
    switch (shape.type) {
      case 'metric':
        return metricResult(shape.output, row);
      case 'filter':
        return { doc_count: Number(row?.[filterCountColumn(shape.output)] ?? 0), ...this.shapes(shape.aggs, tuple, row) };
      case 'top_hits':
        return this.topHits(shape.plan, tuple);
      case 'level':
        return this.level(shape.level, tuple);
    }
  }

  private topHits(plan: TopHitsPlan, tuple: readonly Key[]): unknown {
    const bucket = this.results.topHits.get(plan.id)?.get(tupleKey(tuple));
    return { hits: { total: bucket?.total ?? 0, max_score: null, hits: bucket?.hits ?? [] } };
  }

  /** The sub-aggregations of one bucket (row undefined: a bucket without documents). */
  private bucketBody(level: Level, tuple: readonly Key[], key: Key, row: Row | undefined): Record<string, unknown> {
    return { doc_count: Number(row?.['doc_count'] ?? 0), ...this.shapes(level.scope.shape, [...tuple, key], row) };
  }

  private level(level: Level, tuple: readonly Key[]): unknown {
    const rows = this.results.levels.get(level.id)?.byParent.get(tupleKey(tuple)) ?? [];
    switch (level.dimension.type) {
      case 'terms':
        return this.terms(level, tuple, rows);
      case 'date_histogram':
      case 'histogram':
        return this.histogram(level, tuple, rows);
      case 'range':
        return this.range(level, tuple, rows);
      case 'filters':
        return this.filters(level, tuple, rows);
    }
  }

  private terms(level: Level, tuple: readonly Key[], rows: readonly Row[]): unknown {
    const dimension = level.dimension;
    if (dimension.type !== 'terms') throw new Error('not a terms level');
    this.count(level, rows.length);
    const kind = dimension.value.kind;
    let returned = 0;
    // Nested terms carry their rank; top-level ones come in rank order.
    const ranked = rows[0]?.['agg_rank'] === undefined ? rows : [...rows].sort((a, b) => Number(a['agg_rank']) - Number(b['agg_rank']));
    const buckets = ranked.map((row) => {
      const key = row[keyColumn(level)] as Key;
      returned += Number(row['doc_count']);
      const head: Record<string, unknown> =
        kind === 'boolean'
          ? { key: key === true ? 1 : 0, key_as_string: String(key) }
          : kind === 'date'
            ? { key, key_as_string: formatKeyAsString(key as number, 'UTC') }
            : { key };
      return { ...head, ...this.bucketBody(level, tuple, key, row) };
    });
    const total = rows.length > 0 ? Number(rows[0]?.['agg_total'] ?? 0) : 0;
    return { doc_count_error_upper_bound: 0, sum_other_doc_count: total - returned, buckets };
  }

  private histogram(level: Level, tuple: readonly Key[], rows: readonly Row[]): unknown {
    const dimension = level.dimension;
    const node = level.node;
    if ((dimension.type !== 'date_histogram' && dimension.type !== 'histogram') || (node.type !== 'date_histogram' && node.type !== 'histogram')) {
      throw new Error('not a histogram level');
    }
    const byKey = new Map<number, Row>();
    for (const row of rows) byKey.set(Number(row[keyColumn(level)]), row);
    const present = [...byKey.keys()].sort((a, b) => a - b);
    let keys: number[];
    let keyOf: (position: number) => number;
    if (dimension.type === 'histogram') {
      // Keys are bucket positions in SQL: key = position * interval + offset, as OpenSearch rounds.
      keyOf = (position) => position * dimension.interval + dimension.offset;
      const bounds = node.type === 'histogram' ? node.extended_bounds : undefined;
      const positions = bounds && { min: this.histogramPosition(bounds.min, dimension), max: this.histogramPosition(bounds.max, dimension) };
      keys = node.min_doc_count === 0 ? this.histogramPositions(level, present, positions) : present;
    } else {
      keyOf = (key) => key;
      keys = node.min_doc_count === 0 ? this.dateKeys(level, present) : present;
    }
    if (node.min_doc_count !== 0) this.count(level, keys.length);
    const buckets = keys.map((position): HistogramBucket => ({ key: position, row: byKey.get(position) }));
    buckets.sort((a, b) => this.compareBuckets(level, a, b));
    return {
      buckets: buckets.map(({ key: position, row }) => {
        const key = keyOf(position);
        // Keys of date fields print as dates (in the date_histogram's zone; a histogram's in UTC); numbers do not.
        const head =
          dimension.value.kind !== 'date'
            ? { key }
            : dimension.type === 'date_histogram'
              ? { key_as_string: formatKeyAsString(key, dimension.rounding.timeZone, node.type === 'date_histogram' ? node.format : undefined), key }
              : { key, key_as_string: formatKeyAsString(key, 'UTC') };
        return { ...head, ...this.bucketBody(level, tuple, position, row) };
      }),
    };
  }

  private histogramPosition(value: number, dimension: { interval: number; offset: number }): number {
    return Math.floor((value - dimension.offset) / dimension.interval);
  }

  /** Every position between the first and last (widened to the bounds), counted before they are made. */
  private histogramPositions(level: Level, present: readonly number[], bounds: { min: number; max: number } | undefined): number[] {
    let first = present[0];
    let last = present[present.length - 1];
    if (bounds !== undefined) {
      first = first === undefined ? bounds.min : Math.min(first, bounds.min);
      last = last === undefined ? bounds.max : Math.max(last, bounds.max);
    }
    if (first === undefined || last === undefined) return [];
    this.count(level, last - first + 1);
    const positions: number[] = [];
    for (let position = first; position <= last; position++) positions.push(position);
    return positions;
  }

  /** Bucket keys from the first to the last bucket with documents, widened to extended_bounds (OpenSearch's addEmptyBuckets). */
  private dateKeys(level: Level, present: readonly number[]): number[] {
    const dimension = level.dimension;
    if (dimension.type !== 'date_histogram') return [...present];
    const { interval, timeZone, offsetMs } = dimension.rounding;
    const next = (key: number) => nextBucket(key, interval, timeZone, offsetMs);
    // Bounds round without the offset, which is then added (OpenSearch's LongBounds.round and addEmptyBuckets).
    const bounds = dimension.bounds && {
      min: bucketStart(dimension.bounds.min, interval, timeZone) + offsetMs,
      max: bucketStart(dimension.bounds.max, interval, timeZone) + offsetMs,
    };
    const keys: number[] = [];
    const add = (key: number) => {
      keys.push(key);
      this.count(level, 1);
    };
    const first = present[0];
    const last = present[present.length - 1];
    if (first === undefined || last === undefined) {
      if (bounds !== undefined) for (let key = bounds.min; key <= bounds.max; key = next(key)) add(key);
      return keys;
    }
    if (bounds !== undefined) for (let key = bounds.min; key < first; key = next(key)) add(key);
    let previous: number | undefined;
    for (const key of present) {
      if (previous !== undefined) for (let gap = next(previous); gap < key; gap = next(gap)) add(gap);
      add(key);
      previous = key;
    }
    if (bounds !== undefined) for (let key = next(last); key <= bounds.max; key = next(key)) add(key);
    return keys;
  }

  private sortValue(level: Level, term: OrderTerm, position: number, bucket: HistogramBucket): number {
    switch (term.by) {
      case 'key':
        return bucket.key;
      case 'count':
        return Number(bucket.row?.['doc_count'] ?? 0);
      case 'metric': {
        const value = bucket.row?.[orderColumn(level, position)];
        return value === undefined || value === null ? emptyMetricSortValue(term.output, term.property) : Number(value);
      }
    }
  }

  private compareBuckets(level: Level, a: HistogramBucket, b: HistogramBucket): number {
    for (const [position, term] of level.order.entries()) {
      const comparison = compareNumbers(this.sortValue(level, term, position, a), this.sortValue(level, term, position, b));
      if (comparison !== 0) return term.order === 'asc' ? comparison : -comparison;
    }
    return 0;
  }

  private range(level: Level, tuple: readonly Key[], rows: readonly Row[]): unknown {
    const dimension = level.dimension;
    const node = level.node;
    if (dimension.type !== 'range' || node.type !== 'range') throw new Error('not a range level');
    this.count(level, dimension.ranges.length);
    const byPosition = new Map(rows.map((row) => [Number(row[keyColumn(level)]), row]));
    const dates = dimension.value.kind === 'date';
    const text = (bound: number) => (dates ? formatKeyAsString(bound, 'UTC') : javaDoubleString(bound));
    const buckets = dimension.ranges.map((range, position) => {
      const key = range.key ?? `${range.from === undefined ? '*' : text(range.from)}-${range.to === undefined ? '*' : text(range.to)}`;
      const bounds: Record<string, unknown> = {};
      if (range.from !== undefined) {
        bounds['from'] = range.from;
        if (dates) bounds['from_as_string'] = text(range.from);
      }
      if (range.to !== undefined) {
        bounds['to'] = range.to;
        if (dates) bounds['to_as_string'] = text(range.to);
      }
      return { key, bounds, body: this.bucketBody(level, tuple, position, byPosition.get(position)) };
    });
    if (node.keyed) return { buckets: Object.fromEntries(buckets.map(({ key, bounds, body }) => [key, { ...bounds, ...body }])) };
    return { buckets: buckets.map(({ key, bounds, body }) => ({ key, ...bounds, ...body })) };
  }

  private filters(level: Level, tuple: readonly Key[], rows: readonly Row[]): unknown {
    const dimension = level.dimension;
    const node = level.node;
    if (dimension.type !== 'filters' || node.type !== 'filters') throw new Error('not a filters level');
    const byPosition = new Map(rows.map((row) => [Number(row[keyColumn(level)]), row]));
    const names = dimension.filters.map((filter) => filter.key);
    if (dimension.otherKey !== undefined) names.push(dimension.otherKey);
    this.count(level, names.length);
    const bodies = names.map((name, position) => [name, this.bucketBody(level, tuple, position, byPosition.get(position))] as const);
    if (node.keyed) return { buckets: Object.fromEntries(bodies) };
    return { buckets: bodies.map(([, body]) => body) };
  }
}
