import { MAX_BUCKETS } from './dsl';
import type { AggregationNode } from '../../schemas/search-tree';
import { ValidationError } from '../shared/errors';
import { resolveDateMath } from './dates/date-math';
import { bucketStart, nextBucket, parseCalendarInterval, parseFixedInterval, parseOffset, type BucketInterval } from './dates/intervals';
import type { SearchContext } from './port';

/**
 * The cap on buckets per response (MAX_BUCKETS), applied identically by both backends. A request
 * past it gets a 400 naming the aggregation (`aggs.<name>[.aggs.<name>...]`) at which the count
 * passes the cap. Counts, in this order:
 * 1. Before anything is read (assertGuaranteedBuckets): the buckets the request alone fixes —
 *    histograms and date_histograms with `min_doc_count: 0` and `extended_bounds` make every bucket
 *    between the bounds, range and filters one per range or filter — so neither backend builds them.
 * 2. Per aggregation, parents before children (request order), the buckets holding documents
 *    (and terms' zero buckets): what DuckDB's queries return before buckets are assembled.
 * 3. In response order, every bucket: a level's buckets under one parent bucket, then each
 *    bucket's sub-aggregations (DuckDB's assembler; empty histogram buckets count).
 * DuckDB counts 2 and 3 as it goes; the OpenSearch adapter counts its answer the same way
 * (assertAnswerBuckets). A cluster refusing first (too_many_buckets_exception, past its own
 * search.max_buckets) gets the same 400, naming the likeliest aggregation (bucketExplosionMember).
 */

type Json = Record<string, unknown>;
type Aggregations = Record<string, AggregationNode>;

const MULTI_BUCKET = new Set<AggregationNode['type']>(['terms', 'date_histogram', 'histogram', 'range', 'filters']);

export function bucketCapError(path: string): ValidationError {
  const reason = `the aggregations would return more than ${MAX_BUCKETS} buckets; narrow the time range, use a larger interval or a smaller size`;
  return new ValidationError(`${path}: ${reason}`, [{ field: path, reason }]);
}

/** A running count of buckets that throws the cap's 400 naming the aggregation that passes it. */
export class BucketBudget {
  private used = 0;

  add(path: string, buckets: number): void {
    this.used += buckets;
    if (this.used > MAX_BUCKETS) throw bucketCapError(path);
  }

  /** Buckets that may still be added. */
  get remaining(): number {
    return MAX_BUCKETS - this.used;
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Before querying

/** Refuses a request whose aggregations make more than MAX_BUCKETS buckets whatever the data. */
export function assertGuaranteedBuckets(aggs: Aggregations, ctx: SearchContext): void {
  // Most searches ask for hits alone: nothing to count, and no closures to build on their path.
  if (isEmpty(aggs)) return;
  const guaranteed = new Map<AggregationNode, number>();
  const fixed = (node: AggregationNode, path: string): number => {
    let buckets = guaranteed.get(node);
    if (buckets === undefined) {
      buckets = guaranteedBuckets(node, path, ctx);
      guaranteed.set(node, buckets);
    }
    return buckets;
  };
  // Whether a subtree fixes any bucket: if not, its buckets' sub-aggregations need no visit.
  const fixesAny = (nodes: Aggregations, path: string): boolean =>
    Object.entries(nodes).some(
      ([name, node]) => (node.type === 'filter' ? false : fixed(node, `${path}.${name}`) > 0) || fixesAny(node.aggs, `${path}.${name}.aggs`),
    );

  const budget = new BucketBudget();
  const visit = (nodes: Aggregations, path: string): void => {
    for (const [name, node] of Object.entries(nodes)) {
      const member = `${path}.${name}`;
      // A filter is one bucket that is not counted (as OpenSearch and the assembler do); its sub-aggregations are there once.
      if (node.type === 'filter') {
        visit(node.aggs, `${member}.aggs`);
        continue;
      }
      const buckets = fixed(node, member);
      if (buckets === 0) continue;
      budget.add(member, buckets);
      if (!fixesAny(node.aggs, `${member}.aggs`)) continue;
      for (let bucket = 0; bucket < buckets; bucket += 1) visit(node.aggs, `${member}.aggs`);
    }
  };
  visit(aggs, 'aggs');
}

/** The buckets one aggregation makes under each parent bucket whatever the data (0 when that depends on the data). */
function guaranteedBuckets(node: AggregationNode, path: string, ctx: SearchContext): number {
  // Counting past the cap is pointless: one more than it says enough.
  const enough = MAX_BUCKETS + 1;
  switch (node.type) {
    case 'range':
      return node.ranges.length;
    case 'filters':
      return node.filters.length + (node.other_bucket_key === undefined ? 0 : 1);
    case 'histogram': {
      const bounds = node.extended_bounds;
      if (node.min_doc_count !== 0 || bounds === undefined || bounds.min > bounds.max) return 0;
      const position = (value: number) => Math.floor((value - node.offset) / node.interval);
      const positions = position(bounds.max) - position(bounds.min) + 1;
      return Number.isFinite(positions) ? Math.min(positions, enough) : enough;
    }
    case 'date_histogram': {
      const bounds = node.extended_bounds;
      if (node.min_doc_count !== 0 || bounds === undefined || typeof bounds.min === 'boolean' || typeof bounds.max === 'boolean') return 0;
      const where = `${path}.date_histogram`;
      const interval: BucketInterval =
        node.calendar_interval !== undefined
          ? { calendar: parseCalendarInterval(node.calendar_interval, `${where}.calendar_interval`) }
          : { fixedMs: parseFixedInterval(node.fixed_interval ?? '', `${where}.fixed_interval`) };
      const offsetMs = node.offset === undefined ? 0 : parseOffset(node.offset, `${where}.offset`);
      const instant = (value: string | number, bound: string) =>
        resolveDateMath(value, ctx.now, node.time_zone, false, {
          field: `${where}.extended_bounds.${bound}`,
          ...(node.format === undefined ? {} : { format: node.format }),
        });
      const min = instant(bounds.min, 'min');
      const max = instant(bounds.max, 'max');
      if (min > max) return 0;
      // The keys OpenSearch's addEmptyBuckets makes between the bounds: rounded without the offset, which is then added.
      const last = bucketStart(max, interval, node.time_zone) + offsetMs;
      let keys = 0;
      for (
        let key = bucketStart(min, interval, node.time_zone) + offsetMs;
        key <= last && keys < enough;
        key = nextBucket(key, interval, node.time_zone, offsetMs)
      )
        keys += 1;
      return keys;
    }
    default:
      return 0;
  }
}

// ---------------------------------------------------------------------------------------------
// 2 and 3. An answer in OpenSearch's shape

/** Refuses an answer (OpenSearch's `aggregations`) holding more than MAX_BUCKETS buckets, counted as DuckDB counts. */
export function assertAnswerBuckets(answer: Json | undefined, aggs: Aggregations): void {
  if (answer === undefined || isEmpty(aggs)) return;
  assertRowsPerLevel(answer, aggs);
  const budget = new BucketBudget();
  walkAnswer(answer, aggs, (member, _node, buckets) => {
    budget.add(member, buckets.length);
    return buckets;
  });
}

/** Step 2: per aggregation in request order, the buckets with documents under parent buckets with documents. */
function assertRowsPerLevel(answer: Json, aggs: Aggregations): void {
  const rows = new Map<string, number>();
  const order: string[] = [];
  const declare = (nodes: Aggregations, path: string): void => {
    for (const [name, node] of Object.entries(nodes)) {
      const member = `${path}.${name}`;
      if (MULTI_BUCKET.has(node.type)) order.push(member);
      declare(node.aggs, `${member}.aggs`);
    }
  };
  declare(aggs, 'aggs');
  walkAnswer(answer, aggs, (member, node, buckets) => {
    // DuckDB reads a bucket as a row when it holds documents; terms with min_doc_count 0 also list empty ones.
    const held = buckets.filter((bucket) => Number(bucket.doc_count ?? 0) > 0 || (node.type === 'terms' && node.min_doc_count === 0));
    rows.set(member, (rows.get(member) ?? 0) + held.length);
    return held;
  });
  const budget = new BucketBudget();
  for (const member of order) budget.add(member, rows.get(member) ?? 0);
}

/**
 * Visits an answer's bucket aggregations, parents before children (filter aggregations are passed
 * through): `take` sees each one's buckets under one parent bucket and returns those to descend into.
 */
function walkAnswer(answer: Json, aggs: Aggregations, take: (member: string, node: AggregationNode, buckets: Json[]) => Json[]): void {
  const visit = (answers: Json, nodes: Aggregations, path: string): void => {
    for (const [name, node] of Object.entries(nodes)) {
      const member = `${path}.${name}`;
      const result = answers[name];
      if (!isObject(result)) continue;
      if (node.type === 'filter') {
        visit(result, node.aggs, `${member}.aggs`);
        continue;
      }
      if (!MULTI_BUCKET.has(node.type)) continue;
      for (const bucket of take(member, node, bucketsOf(result))) visit(bucket, node.aggs, `${member}.aggs`);
    }
  };
  visit(answer, aggs, 'aggs');
}

function bucketsOf(result: Json): Json[] {
  const buckets = result.buckets;
  const list = Array.isArray(buckets) ? buckets : isObject(buckets) ? Object.values(buckets) : [];
  return list.filter(isObject);
}

/**
 * The aggregation a cluster's own bucket refusal most likely comes from, since it names none: the
 * first histogram filling empty buckets (min_doc_count 0), else the first bucket aggregation.
 */
export function bucketExplosionMember(aggs: Aggregations): string {
  const levels: { path: string; node: AggregationNode }[] = [];
  const walk = (nodes: Aggregations, path: string): void => {
    for (const [name, node] of Object.entries(nodes)) {
      if (MULTI_BUCKET.has(node.type)) levels.push({ path: `${path}.${name}`, node });
      walk(node.aggs, `${path}.${name}.aggs`);
    }
  };
  walk(aggs, 'aggs');
  const filling = levels.find(({ node }) => (node.type === 'histogram' || node.type === 'date_histogram') && node.min_doc_count === 0);
  return (filling ?? levels[0])?.path ?? 'aggs';
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEmpty(aggs: Aggregations): boolean {
  for (const _ in aggs) return false;
  return true;
}
