import type { AggregationNode } from '../../../../schemas/search-tree';
import { isFixedZone } from '../../dates/time-zone';
import type { TableContext } from '../search-tables';
import { assertGuaranteedBuckets, BucketBudget } from '../../bucket-cap';
import { Assembler, tupleKey, type LevelRows, type QueryResults, type Row, type TopHitsBucket } from './aggs/assemble';
import type { InstantSpan } from './aggs/date-buckets';
import { chainOf, planAggregations, type AggregationPlan, type Level, type TopHitsPlan } from './aggs/plan';
import { canCountRows, levelSql, rootSql, spanSql } from './aggs/queries';
import { keyColumn, type Key, type QueryEnv, type Restriction } from './aggs/rows';
import { topHitOf, topHitsSort, topHitsSql } from './aggs/top-hits';
import { kindFromProbe, kindProbeSql } from './aggs/values';
import { SqlParams, type QueryRunner } from './sql';

/**
 * A search's aggregations on DuckDB, answered in OpenSearch's shape (see aggs/*.ts for the parts).
 *
 * Queries: one for the top-level metrics and filters, one GROUP BY per multi-bucket aggregation (its
 * metrics and filters in the same query, terms ranked and cut to size in SQL), one per top_hits — never one
 * per bucket. A level under terms reads only rows of the parent buckets terms kept (passed as key lists).
 *
 * Decisions where OpenSearch's behaviour cannot be copied exactly (documented in aggs/*.ts):
 * - terms `min_doc_count: 0` lists every term of the field in the tenant's documents of the index (all time,
 *   ignoring the query), never other tenants' terms, which OpenSearch's shared index would reveal;
 * - terms are exact (one pass, no shards): doc_count_error_upper_bound is 0 and sum_other_doc_count counts the
 *   documents of the buckets that passed min_doc_count but not the cut to `size` (OpenSearch's answer whenever
 *   the terms fit its shard_size);
 * - percentiles and cardinality are exact (see aggs/metrics.ts);
 * - at most MAX_BUCKETS (10,000) buckets per response, else 400 naming the aggregation: counted before any
 *   query where the request fixes them, then per level as rows come back, then as buckets are assembled
 *   (bucket-cap.ts, which the OpenSearch adapter follows too).
 */

export interface AggregationBase {
  /** `FROM <table> d WHERE <tenant, window, query>`. */
  readonly fromWhereSql: string;
  readonly params: SqlParams;
}

/** A statement's parameters: the base relation's first (its SQL refers to $1..$n), then the statement's own. */
function paramsFrom(base: AggregationBase): SqlParams {
  const params = new SqlParams();
  for (const value of base.params.values) params.add(value);
  return params;
}

const plain = (value: unknown): unknown => (typeof value === 'bigint' ? Number(value) : value);

function plainRow(row: Record<string, unknown>): Row {
  const result: Row = {};
  for (const [name, value] of Object.entries(row)) result[name] = Array.isArray(value) ? value.map(plain) : plain(value);
  return result;
}

interface KeptBuckets {
  /** Key tuples (outermost level first) of the buckets the level returned. */
  readonly tuples: Key[][];
  /** Some bucket the query saw was cut (terms size, min_doc_count): children must read the kept ones only. */
  readonly pruned: boolean;
}

class Execution {
  private readonly kept = new Map<number, KeptBuckets>();
  private readonly spans = new Map<number, InstantSpan | undefined>();
  private readonly levelRows = new Map<number, LevelRows>();
  private readonly topHitsRows = new Map<number, Map<string, TopHitsBucket>>();
  /** Rows of the levels so far, parents before children (bucket-cap.ts, step 2). */
  private readonly budget = new BucketBudget();
  /** The rows of the search, when a query counted them on the way (see AggregationOutcome). */
  docCount: number | undefined;

  constructor(
    private readonly run: QueryRunner,
    private readonly base: AggregationBase,
    private readonly ctx: TableContext,
  ) {}

  private env(params: SqlParams): QueryEnv {
    return { fromWhereSql: this.base.fromWhereSql, ctx: this.ctx, params, spans: this.spans };
  }

  private async query(sql: string, params: SqlParams): Promise<Row[]> {
    return (await this.run(sql, params.values)).map(plainRow);
  }

  async execute(plan: AggregationPlan): Promise<QueryResults> {
    const params = paramsFrom(this.base);
    const root = rootSql(plan.root, this.env(params));
    const rootRow = root === undefined ? undefined : (await this.query(root, params))[0];
    if (rootRow !== undefined) this.docCount = Number(rootRow['agg_docs']);
    for (const level of plan.levels) await this.level(level);
    for (const topHits of plan.topHits) await this.topHits(topHits);
    return { root: rootRow, levels: this.levelRows, topHits: this.topHitsRows };
  }

  /** The restriction of a level's rows to the buckets its parent kept, when something above was cut. */
  private restriction(parent: Level | undefined): Restriction | undefined {
    const chain = chainOf(parent);
    if (parent === undefined || !chain.some((level) => this.kept.get(level.id)?.pruned === true)) return undefined;
    return { levels: chain, tuples: this.kept.get(parent.id)?.tuples ?? [] };
  }

  /**
   * The instants a date_histogram can see, so its SQL knows the zone's transitions in between: the time
   * window for event time, else the minimum and maximum of the field in the rows.
   */
  private async span(level: Level): Promise<void> {
    const dimension = level.dimension;
    if (dimension.type !== 'date_histogram' || this.spans.has(level.id) || isFixedZone(dimension.rounding.timeZone)) return;
    const range = this.ctx.range;
    if (dimension.value.ref.hot?.name === 'time' && range?.from !== undefined && range.to !== undefined) {
      this.spans.set(level.id, { lo: range.from.getTime(), hi: range.to.getTime() - 1 });
      return;
    }
    const params = paramsFrom(this.base);
    const row = (await this.query(spanSql(level, this.env(params)), params))[0];
    const lo = row?.['lo'];
    const hi = row?.['hi'];
    this.spans.set(level.id, typeof lo === 'number' && typeof hi === 'number' ? { lo, hi } : undefined);
  }

  private async level(level: Level): Promise<void> {
    const chain = chainOf(level);
    const parentTuples = level.parent === undefined ? undefined : (this.kept.get(level.parent.id)?.tuples ?? []);
    if (parentTuples !== undefined && parentTuples.length === 0) {
      this.kept.set(level.id, { tuples: [], pruned: false });
      return;
    }
    for (const member of chain) await this.span(member);
    const params = paramsFrom(this.base);
    const restriction = this.restriction(level.parent);
    const countRows = this.docCount === undefined && canCountRows(level);
    const sql = levelSql(level, this.env(params), {
      ...(restriction === undefined ? {} : { restriction }),
      ...(parentTuples === undefined ? {} : { parentTuples }),
      limit: this.budget.remaining + 1,
      countRows,
    });
    const result = await this.query(sql, params);
    if (countRows) {
      this.docCount = level.node.type === 'terms' ? Number(result[0]?.['agg_docs'] ?? 0) : result.reduce((sum, row) => sum + Number(row['doc_count']), 0);
    }
    // Buckets without a key (rows without a value, kept to count them) or not a term (over-long .raw strings).
    const rows = result.filter((row) => row['agg_unkeyed'] !== true && row[keyColumn(level)] !== null && row[keyColumn(level)] !== undefined);
    this.budget.add(level.path, rows.length);

    const byParent = new Map<string, Row[]>();
    const tuples: Key[][] = [];
    for (const row of rows) {
      const tuple = chain.map((member) => row[keyColumn(member)] as Key);
      tuples.push(tuple);
      const parentKey = tupleKey(tuple.slice(0, -1));
      const siblings = byParent.get(parentKey) ?? [];
      siblings.push(row);
      byParent.set(parentKey, siblings);
    }
    // Buckets were cut: by min_doc_count, or by terms' size (the kept ones then hold fewer documents than all:
    // a bucket cut with documents leaves sum_other_doc_count above 0; one cut without has no rows below it).
    let pruned = 'min_doc_count' in level.node && level.node.min_doc_count > 1;
    if (level.node.type === 'terms') {
      for (const siblings of byParent.values()) {
        const kept = siblings.reduce((sum, row) => sum + Number(row['doc_count']), 0);
        if (Number(siblings[0]?.['agg_total'] ?? 0) > kept) pruned = true;
      }
    }
    this.levelRows.set(level.id, { byParent });
    this.kept.set(level.id, { tuples, pruned });
  }

  private async topHits(plan: TopHitsPlan): Promise<void> {
    const buckets = new Map<string, TopHitsBucket>();
    this.topHitsRows.set(plan.id, buckets);
    const level = plan.level;
    if (level !== undefined && (this.kept.get(level.id)?.tuples.length ?? 0) === 0) return;
    const chain = chainOf(level);
    const params = paramsFrom(this.base);
    const pruned = chain.some((member) => this.kept.get(member.id)?.pruned === true);
    const restriction = pruned && level !== undefined ? { levels: chain, tuples: this.kept.get(level.id)?.tuples ?? [] } : undefined;
    const sort = topHitsSort(plan.node, this.ctx, params, plan.path);
    const rows = await this.query(topHitsSql(plan, this.env(params), sort, restriction), params);
    const from = plan.node.from;
    rows.sort((a, b) => Number(a['agg_rank']) - Number(b['agg_rank']));
    for (const row of rows) {
      const key = tupleKey(chain.map((member) => row[keyColumn(member)] as Key));
      const bucket = buckets.get(key) ?? { total: Number(row['agg_total']), hits: [] };
      const rank = Number(row['agg_rank']);
      // The first document of each bucket is read even outside the window, for the bucket's total.
      const hits = rank > from && rank <= from + plan.node.size ? [...bucket.hits, topHitOf(row, plan.node, this.ctx)] : bucket.hits;
      buckets.set(key, { total: bucket.total, hits });
    }
  }
}

export interface AggregationOutcome {
  /** OpenSearch's `aggregations` object. */
  readonly aggregations: Record<string, unknown>;
  /**
   * The number of rows of `base`, when one of the aggregation queries counted them in the same scan (top-level
   * metrics, or a top-level terms or histogram): a search without post_filter can answer hits.total with it.
   */
  readonly docCount: number | undefined;
}

/**
 * Computes `aggs` over the rows of `base` in OpenSearch's response shape. Throws ValidationError (400) naming
 * the aggregation for fields it cannot read and for more than 10,000 buckets.
 */
export async function aggregateAndCount(
  run: QueryRunner,
  base: AggregationBase,
  aggs: Record<string, AggregationNode>,
  ctx: TableContext,
): Promise<AggregationOutcome> {
  if (Object.keys(aggs).length === 0) return { aggregations: {}, docCount: undefined };
  assertGuaranteedBuckets(aggs, ctx);
  const plan = await planAggregations(aggs, ctx, async (ref) => {
    const params = paramsFrom(base);
    const rows = await run(kindProbeSql(ref, base.fromWhereSql), params.values);
    return kindFromProbe(rows[0]);
  });
  const execution = new Execution(run, base, ctx);
  const results = await execution.execute(plan);
  return { aggregations: new Assembler(results).aggregations(plan.root), docCount: execution.docCount };
}

/** The `aggregations` of a search (see aggregateAndCount). */
export async function runAggregations(
  run: QueryRunner,
  base: AggregationBase,
  aggs: Record<string, AggregationNode>,
  ctx: TableContext,
): Promise<Record<string, unknown>> {
  return (await aggregateAndCount(run, base, aggs, ctx)).aggregations;
}
