import type { AggregationNode, BucketOrder, QueryNode, Scalar } from '../../../../../schemas/search-tree';
import { ValidationError } from '../../../../shared/errors';
import { resolveDateMath } from '../../../dates/date-math';
import { parseCalendarInterval, parseFixedInterval, parseOffset, type BucketInterval } from '../../../dates/intervals';
import { resolveField, type FieldRef } from '../../../fields';
import type { SearchContext } from '../../../port';
import type { DateRounding } from './date-buckets';

/**
 * The execution plan of a request's aggregations. Every multi-bucket aggregation (terms, date_histogram,
 * histogram, range, filters) is a *level*: one GROUP BY query over the keys of its enclosing levels and its
 * own. Everything else is computed inside the query of its nearest level (or of the root, for top-level
 * ones): metrics as aggregate columns, `filter` as FILTER (WHERE ...) clauses; bucket aggregations under a
 * `filter` add its condition to their rows. top_hits runs its own query per node.
 */

export type ValueKind = 'keyword' | 'number' | 'date' | 'boolean';

export type MetricNode = Extract<AggregationNode, { type: 'sum' | 'avg' | 'min' | 'max' | 'value_count' | 'cardinality' | 'stats' | 'percentiles' }>;
export type TopHitsNode = Extract<AggregationNode, { type: 'top_hits' }>;
export type LevelNode = Extract<AggregationNode, { type: 'terms' | 'date_histogram' | 'histogram' | 'range' | 'filters' }>;

/** A value of a field as the aggregations read it: its source, and the type its values are read as. */
export interface FieldValue {
  readonly ref: FieldRef;
  readonly kind: ValueKind;
}

/** A metric computed per bucket of its scope, over the rows matching `conditions` (filter aggregations in between). */
export interface MetricOutput {
  readonly id: number;
  readonly path: string;
  readonly node: MetricNode;
  readonly value: FieldValue;
  readonly conditions: readonly QueryNode[];
}

/** The doc_count of a `filter` aggregation. */
export interface CountOutput {
  readonly id: number;
  readonly conditions: readonly QueryNode[];
}

export type Shape =
  | { readonly type: 'metric'; readonly output: MetricOutput }
  | { readonly type: 'filter'; readonly output: CountOutput; readonly aggs: ShapeMap }
  | { readonly type: 'level'; readonly level: Level }
  | { readonly type: 'top_hits'; readonly plan: TopHitsPlan };

export type ShapeMap = ReadonlyArray<readonly [string, Shape]>;

/** What is computed for each bucket of a level (or once, at the root), in the same query. */
export interface Scope {
  readonly metrics: MetricOutput[];
  readonly counts: CountOutput[];
  /** The response of a bucket: every member aggregation, in request order. */
  shape: ShapeMap;
}

export interface ResolvedRange {
  readonly key?: string;
  readonly from?: number;
  readonly to?: number;
}

export type Dimension =
  | { readonly type: 'terms'; readonly value: FieldValue; readonly missing?: Scalar }
  | { readonly type: 'date_histogram'; readonly value: FieldValue; readonly rounding: DateRounding; readonly bounds?: { min: number; max: number } }
  | { readonly type: 'histogram'; readonly value: FieldValue; readonly interval: number; readonly offset: number }
  | { readonly type: 'range'; readonly value: FieldValue; readonly ranges: readonly ResolvedRange[] }
  | { readonly type: 'filters'; readonly filters: readonly { key: string; filter: QueryNode }[]; readonly otherKey?: string };

/** One entry of a level's bucket order. */
export type OrderTerm =
  | { readonly by: 'count'; readonly order: 'asc' | 'desc' }
  | { readonly by: 'key'; readonly order: 'asc' | 'desc' }
  | { readonly by: 'metric'; readonly order: 'asc' | 'desc'; readonly output: MetricOutput; readonly property?: string };

export interface Level {
  readonly id: number;
  /** Request path for error messages ("aggs.by_route.aggs.per_day"). */
  readonly path: string;
  readonly node: LevelNode;
  readonly parent: Level | undefined;
  /** Conditions of `filter` aggregations between the parent level (or root) and this one. */
  readonly conditions: readonly QueryNode[];
  readonly dimension: Dimension;
  readonly order: readonly OrderTerm[];
  readonly scope: Scope;
}

export interface TopHitsPlan {
  readonly id: number;
  readonly path: string;
  readonly node: TopHitsNode;
  /** The enclosing level; undefined at the root. */
  readonly level: Level | undefined;
  readonly conditions: readonly QueryNode[];
}

export interface AggregationPlan {
  readonly root: Scope;
  /** Every level, parents before children. */
  readonly levels: readonly Level[];
  readonly topHits: readonly TopHitsPlan[];
}

/** Decides how an untyped field (JSON values of any type) is read; undefined when no document holds a value. */
export type KindProbe = (ref: FieldRef) => Promise<ValueKind | 'text' | undefined>;

const invalid = (path: string, reason: string): ValidationError => new ValidationError(`${path}: ${reason}`, [{ field: path, reason }]);

/** The levels (and their ancestors, root first) of a level: the keys its rows are grouped by. */
export function chainOf(level: Level | undefined): Level[] {
  const chain: Level[] = [];
  for (let current = level; current !== undefined; current = current.parent) chain.unshift(current);
  return chain;
}

class Planner {
  private nextId = 0;
  readonly levels: Level[] = [];
  readonly topHits: TopHitsPlan[] = [];
  private readonly probed = new Map<string, ValueKind | 'text' | undefined>();

  constructor(
    private readonly ctx: SearchContext,
    private readonly probe: KindProbe,
  ) {}

  async scope(aggs: Record<string, AggregationNode>, path: string, level: Level | undefined): Promise<Scope> {
    const scope: Scope = { metrics: [], counts: [], shape: [] };
    scope.shape = await this.members(aggs, path, level, scope, []);
    return scope;
  }

  /** The shapes of one object of aggregations, registering their outputs in `scope`. */
  private async members(
    aggs: Record<string, AggregationNode>,
    path: string,
    level: Level | undefined,
    scope: Scope,
    conditions: readonly QueryNode[],
  ): Promise<ShapeMap> {
    const shapes: [string, Shape][] = [];
    for (const [name, node] of Object.entries(aggs)) shapes.push([name, await this.member(node, `${path}.${name}`, level, scope, conditions)]);
    return shapes;
  }

  private async member(node: AggregationNode, path: string, level: Level | undefined, scope: Scope, conditions: readonly QueryNode[]): Promise<Shape> {
    switch (node.type) {
      case 'filter': {
        const inner = [...conditions, node.filter];
        const output: CountOutput = { id: this.nextId++, conditions: inner };
        scope.counts.push(output);
        return { type: 'filter', output, aggs: await this.members(node.aggs, `${path}.aggs`, level, scope, inner) };
      }
      case 'top_hits': {
        const plan: TopHitsPlan = { id: this.nextId++, path, node, level, conditions };
        this.topHits.push(plan);
        return { type: 'top_hits', plan };
      }
      case 'terms':
      case 'date_histogram':
      case 'histogram':
      case 'range':
      case 'filters': {
        return { type: 'level', level: await this.level(node, path, level, conditions) };
      }
      default: {
        const output: MetricOutput = { id: this.nextId++, path, node, value: await this.metricValue(node, path), conditions };
        scope.metrics.push(output);
        return { type: 'metric', output };
      }
    }
  }

  private async level(node: LevelNode, path: string, parent: Level | undefined, conditions: readonly QueryNode[]): Promise<Level> {
    const dimension = await this.dimension(node, path);
    const scope: Scope = { metrics: [], counts: [], shape: [] };
    const order: OrderTerm[] = [];
    const level: Level = { id: this.nextId++, path, node, parent, conditions, dimension, order, scope };
    this.levels.push(level);
    scope.shape = await this.members(node.aggs, `${path}.aggs`, level, scope, []);
    // The order names sub-aggregations, so it resolves once they are planned.
    order.push(...this.order(node, path, scope));
    return level;
  }

  private order(node: LevelNode, path: string, scope: Scope): OrderTerm[] {
    if (node.type !== 'terms' && node.type !== 'date_histogram' && node.type !== 'histogram') return [];
    const terms = node.order.map((entry) => this.orderTerm(entry, path, scope));
    // OpenSearch breaks ties by key ascending unless the order already involves the key.
    if (!terms.some((term) => term.by === 'key')) terms.push({ by: 'key', order: 'asc' });
    return terms;
  }

  private orderTerm(entry: BucketOrder, path: string, scope: Scope): OrderTerm {
    if (entry.key === '_count') return { by: 'count', order: entry.order };
    if (entry.key === '_key') return { by: 'key', order: entry.order };
    const match = /^([^.[\]>]+)(?:\.(.+)|\[([^\]]+)\])?$/.exec(entry.key);
    const name = match?.[1];
    const property = match?.[2] ?? match?.[3];
    const target = scope.shape.find(([member]) => member === name)?.[1];
    if (target?.type === 'metric') {
      const metric = target.output.node;
      const single = metric.type !== 'stats' && metric.type !== 'percentiles';
      if (single && (property === undefined || property === 'value')) return { by: 'metric', order: entry.order, output: target.output };
      if (metric.type === 'stats' && property !== undefined && ['count', 'min', 'max', 'avg', 'sum'].includes(property)) {
        return { by: 'metric', order: entry.order, output: target.output, property };
      }
      if (metric.type === 'percentiles' && property !== undefined && Number.isFinite(Number(property))) {
        return { by: 'metric', order: entry.order, output: target.output, property };
      }
    }
    throw invalid(`${path}.order`, `cannot order by "${entry.key}": name a single-value metric sub-aggregation, a stats property or a percentile`);
  }

  private async dimension(node: LevelNode, path: string): Promise<Dimension> {
    switch (node.type) {
      case 'terms': {
        const value = await this.fieldValue(node.field, `${path}.terms.field`, ['keyword', 'number', 'date', 'boolean'], 'terms');
        return { type: 'terms', value, ...(node.missing === undefined ? {} : { missing: node.missing }) };
      }
      case 'date_histogram': {
        const value = await this.fieldValue(node.field, `${path}.date_histogram.field`, ['date', 'number'], 'date_histogram');
        const interval: BucketInterval =
          node.calendar_interval !== undefined
            ? { calendar: parseCalendarInterval(node.calendar_interval, `${path}.date_histogram.calendar_interval`) }
            : { fixedMs: parseFixedInterval(node.fixed_interval ?? '', `${path}.date_histogram.fixed_interval`) };
        const offsetMs = node.offset === undefined ? 0 : parseOffset(node.offset, `${path}.date_histogram.offset`);
        const rounding: DateRounding = { interval, timeZone: node.time_zone, offsetMs };
        const bounds = node.extended_bounds && {
          min: this.boundMs(node.extended_bounds.min, node, `${path}.date_histogram.extended_bounds.min`),
          max: this.boundMs(node.extended_bounds.max, node, `${path}.date_histogram.extended_bounds.max`),
        };
        if (bounds && bounds.min > bounds.max) throw invalid(`${path}.date_histogram.extended_bounds`, 'min cannot be after max');
        return { type: 'date_histogram', value, rounding, ...(bounds ? { bounds } : {}) };
      }
      case 'histogram': {
        const value = await this.fieldValue(node.field, `${path}.histogram.field`, ['number', 'date', 'boolean'], 'histogram');
        if (!(node.interval > 0)) throw invalid(`${path}.histogram.interval`, 'must be above 0');
        if (node.extended_bounds && node.extended_bounds.min > node.extended_bounds.max) {
          throw invalid(`${path}.histogram.extended_bounds`, 'min cannot be above max');
        }
        return { type: 'histogram', value, interval: node.interval, offset: node.offset };
      }
      case 'range': {
        const value = await this.fieldValue(node.field, `${path}.range.field`, ['number', 'date', 'boolean'], 'range');
        const ranges = node.ranges.map((range, index): ResolvedRange => {
          const from = range.from === undefined ? undefined : this.rangeBound(range.from, value.kind, `${path}.range.ranges.${index}.from`);
          const to = range.to === undefined ? undefined : this.rangeBound(range.to, value.kind, `${path}.range.ranges.${index}.to`);
          return { ...(range.key === undefined ? {} : { key: range.key }), ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
        });
        // OpenSearch answers ranges sorted by from, then to (a missing from is -infinity, a missing to +infinity).
        ranges.sort((a, b) => (a.from ?? -Infinity) - (b.from ?? -Infinity) || (a.to ?? Infinity) - (b.to ?? Infinity));
        return { type: 'range', value, ranges };
      }
      case 'filters': {
        // OpenSearch keeps named filters in key order; anonymous ones in request order.
        const filters = node.keyed ? [...node.filters].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) : node.filters;
        return { type: 'filters', filters, ...(node.other_bucket_key === undefined ? {} : { otherKey: node.other_bucket_key }) };
      }
    }
  }

  private boundMs(bound: Scalar, node: Extract<LevelNode, { type: 'date_histogram' }>, path: string): number {
    if (typeof bound === 'boolean') throw invalid(path, 'must be a date or epoch milliseconds');
    return resolveDateMath(bound, this.ctx.now, node.time_zone, false, { field: path, ...(node.format === undefined ? {} : { format: node.format }) });
  }

  private rangeBound(bound: number | string, kind: ValueKind, path: string): number {
    if (typeof bound === 'number') return bound;
    if (kind === 'date') return resolveDateMath(bound, this.ctx.now, 'UTC', false, { field: path });
    const parsed = bound.trim() === '' ? Number.NaN : Number(bound);
    if (!Number.isFinite(parsed)) throw invalid(path, `${JSON.stringify(bound)} is not a number`);
    return parsed;
  }

  /** The field of a metric, read as numbers except where the metric counts values of any type. */
  private async metricValue(node: MetricNode, path: string): Promise<FieldValue> {
    const counting = node.type === 'value_count' || node.type === 'cardinality';
    const kinds: ValueKind[] = counting ? ['keyword', 'number', 'date', 'boolean'] : ['number', 'date', 'boolean'];
    return this.fieldValue(node.field, `${path}.${node.type}.field`, kinds, node.type);
  }

  /**
   * Resolves a field and checks the aggregation can read it. Untyped fields take the type of their values
   * (probed once per request); a field without any value reads as the first allowed type (no buckets).
   */
  private async fieldValue(name: string, path: string, allowed: readonly ValueKind[], aggregation: string): Promise<FieldValue> {
    const ref = resolveField(this.ctx.kind, name);
    let kind: ValueKind | 'text' | undefined;
    switch (ref.type) {
      case 'keyword':
      case 'id':
        kind = 'keyword';
        break;
      case 'unknown':
        if (!this.probed.has(name)) this.probed.set(name, await this.probe(ref));
        kind = this.probed.get(name);
        break;
      default:
        kind = ref.type;
    }
    if (kind === 'text') throw invalid(path, `${name} is a text field and cannot be aggregated; use ${name}.raw`);
    if (kind === undefined) return { ref, kind: allowed[0] as ValueKind };
    if (!allowed.includes(kind)) throw invalid(path, `${name} holds ${kind} values, which the ${aggregation} aggregation cannot read`);
    return { ref, kind };
  }
}

export async function planAggregations(aggs: Record<string, AggregationNode>, ctx: SearchContext, probe: KindProbe): Promise<AggregationPlan> {
  const planner = new Planner(ctx, probe);
  const root = await planner.scope(aggs, 'aggs', undefined);
  return { root, levels: planner.levels, topHits: planner.topHits };
}
