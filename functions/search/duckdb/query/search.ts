import { ARRIVAL_LAG_EDGES_MS, type ArrivalLags } from '../../arrival-lags';
import type { AggregationNode, QueryNode, Scalar, SearchRequest, SortEntry, SortValue } from '../../../../schemas/search-tree';
import { ValidationError } from '../../../shared/errors';
import { resolveDateMath } from '../../dates/date-math';
import { effectiveSort } from '../../effective-sort';
import { resolveField, sortTypeOf, type FieldRef, type SortType } from '../../fields';
import { VOIDED_AT_FIELD, type SearchContext, type SearchHit, type SearchResponse } from '../../port';
import { SEARCH_TABLES } from '../tables';
import { TENANT_NUMBER_COLUMN, type TableContext } from '../search-tables';
import { filterSource } from '../../source-filter';
import { trackedTotal, untrackedTotal } from '../../total-hits';
import { column, quoteIdentifier, SqlParams, type QueryRunner } from './sql';
import { fieldValueSql, fieldValuesSql } from './field-sql';
import { compileQuery } from './query-compiler';
import { customerTerms } from '../../customer-bound';

/**
 * A search on DuckDB, answered in OpenSearch's response shape. Everything reads one base relation,
 * `FROM <table> d WHERE <tenant> AND <time window> AND (<query>)`, so no clause of the request can
 * reach another tenant's rows: hits add the post_filter, the sort and the page; aggregations run
 * on the base relation itself.
 */

export interface BaseRelation {
  /** `FROM <table> d WHERE ...`: the tenant, the window and the query. */
  readonly fromWhereSql: string;
  readonly params: SqlParams;
}

/**
 * The aggregations of a request over the base relation (aggregations.ts#aggregateAndCount), and the
 * number of its rows when an aggregation query counted them on the way.
 */
export type AggregateFn = (
  run: QueryRunner,
  base: BaseRelation,
  aggs: Record<string, AggregationNode>,
  ctx: TableContext,
) => Promise<{ readonly aggregations: Record<string, unknown>; readonly docCount: number | undefined }>;

/**
 * The condition confining a read to the context's tenant: its number (tenant-numbers.ts), one INTEGER
 * to compare; for events, the voided ones left out unless asked for; for a customer-bound read, also
 * the customer's terms (customer-bound.ts).
 */
export function tenantConditionSql(ctx: TableContext, params: SqlParams, alias = 'd'): string {
  const tenant = `${column(alias, TENANT_NUMBER_COLUMN)} = ${params.add(ctx.tenantNumber)}`;
  const customer = customerTerms(ctx.customer).map((term) => `(${compileQuery(term, ctx.kind, ctx, params, alias)})`);
  return [tenant, ...voidedConditions(ctx, alias), ...customer].join(' AND ');
}

/** Which voided events the read sees (port.ts VoidedEvents): by default none, so every read leaves them out. */
function voidedConditions(ctx: TableContext, alias: string): string[] {
  if (ctx.kind !== 'events' || ctx.voided === 'include') return [];
  return [`${column(alias, VOIDED_AT_FIELD)} IS ${ctx.voided === 'only' ? 'NOT NULL' : 'NULL'}`];
}

/** The tenant and time-window conditions every read is confined to, first so nothing can loosen them. */
function tenantConditions(ctx: TableContext, params: SqlParams, alias = 'd'): string[] {
  const conditions = [tenantConditionSql(ctx, params, alias)];
  if (ctx.range?.from !== undefined) conditions.push(`${column(alias, 'time')} >= ${params.add(ctx.range.from)}`);
  if (ctx.range?.to !== undefined) conditions.push(`${column(alias, 'time')} < ${params.add(ctx.range.to)}`);
  return conditions;
}

export function baseRelation(ctx: TableContext, query: QueryNode, params: SqlParams = new SqlParams(), alias = 'd'): BaseRelation {
  const conditions = tenantConditions(ctx, params, alias);
  if (query.type !== 'match_all') conditions.push(`(${compileQuery(query, ctx.kind, ctx, params, alias)})`);
  return { fromWhereSql: `FROM ${quoteIdentifier(SEARCH_TABLES[ctx.kind].name)} ${alias} WHERE ${conditions.join(' AND ')}`, params };
}

export async function countMatching(run: QueryRunner, ctx: TableContext, query: QueryNode): Promise<number> {
  const base = baseRelation(ctx, query);
  const rows = await run(`SELECT count(*) AS total ${base.fromWhereSql}`, base.params.values);
  return Number(rows[0]?.total ?? 0);
}

/** Events by how long after their time they arrived: one pass, a count per bucket (arrival-lags.ts). */
export async function arrivalLagsOf(run: QueryRunner, ctx: TableContext, query: QueryNode): Promise<ArrivalLags> {
  const base = baseRelation(ctx, query);
  const lag = 'epoch_ms(d.received_at) - epoch_ms(d."time")';
  const buckets = [
    ...ARRIVAL_LAG_EDGES_MS.map(
      (edge, k) => `count(*) FILTER (WHERE ${lag} < ${edge}${k > 0 ? ` AND ${lag} >= ${ARRIVAL_LAG_EDGES_MS[k - 1]}` : ''}) AS b${k}`,
    ),
  ];
  buckets.push(`count(*) FILTER (WHERE ${lag} >= ${ARRIVAL_LAG_EDGES_MS.at(-1)}) AS b${ARRIVAL_LAG_EDGES_MS.length}`);
  const rows = await run(`SELECT count(*) AS events, ${buckets.join(', ')} ${base.fromWhereSql} AND d.received_at IS NOT NULL`, base.params.values);
  const row = rows[0] ?? {};
  return { events: Number(row['events'] ?? 0), counts: Array.from({ length: ARRIVAL_LAG_EDGES_MS.length + 1 }, (_, k) => Number(row[`b${k}`] ?? 0)) };
}

export async function runSearch(run: QueryRunner, ctx: TableContext, request: SearchRequest, aggregate: AggregateFn): Promise<SearchResponse> {
  const started = Date.now();
  const base = baseRelation(ctx, request.query);
  const aggregated = Object.keys(request.aggs).length > 0 ? await aggregate(run, base, request.aggs, ctx) : undefined;

  // Hits: the base relation narrowed by the post_filter (which aggregations do not see).
  const hitsBase = baseRelation(ctx, request.query);
  const params = hitsBase.params;
  const conditions = [hitsBase.fromWhereSql];
  if (request.post_filter !== undefined) conditions.push(`(${compileQuery(request.post_filter, ctx.kind, ctx, params)})`);
  const fromWhere = conditions.join(' AND ');
  // The hits query adds parameters of its own (sort stand-ins, search_after); the count uses these.
  const countParams = [...params.values];

  let hits: SearchHit[] = [];
  if (request.size > 0) {
    const sort = effectiveSort(ctx.kind, request.sort).map((entry) => sortKey(ctx, entry, params));
    const keyset = request.search_after === undefined ? [] : searchAfter(sort, request.search_after, ctx, params);
    const select = [
      'd.id AS hit_id',
      request._source === false ? undefined : 'd.doc AS hit_source',
      ...sort.map((key, position) => `${key.value} AS sort_${position}`),
    ].filter(Boolean);
    const orderBy = sort.filter((key) => key.order !== undefined).map((key) => `${key.order} ${key.direction} NULLS ${key.nullsFirst ? 'FIRST' : 'LAST'}`);
    const sql =
      `SELECT ${select.join(', ')} ${[fromWhere, ...keyset].join(' AND ')} ` +
      `ORDER BY ${orderBy.join(', ')} LIMIT ${request.size}${request.from > 0 ? ` OFFSET ${request.from}` : ''}`;
    const rows = await run(sql, params.values);
    hits = rows.map((row) => hitOf(row, request, sort.length));
  }
  // A first page that is not full holds every match: no count is needed.
  const complete = request.size > 0 && request.from === 0 && request.search_after === undefined && hits.length < request.size;
  // Without a post_filter the hits are the aggregations' rows, which they may have counted already.
  const aggregatedCount = request.post_filter === undefined ? aggregated?.docCount : undefined;
  const track = request.track_total_hits;
  const total =
    track === false
      ? untrackedTotal(request.from, hits.length)
      : complete
        ? trackedTotal(hits.length, track)
        : aggregatedCount !== undefined
          ? trackedTotal(aggregatedCount, track)
          : await countHits(run, fromWhere, countParams, track);
  return {
    took: Date.now() - started,
    timed_out: false,
    hits: { total, max_score: null, hits },
    ...(aggregated === undefined ? {} : { aggregations: aggregated.aggregations }),
  };
}

/** hits.total as track_total_hits asks (total-hits.ts): true counts exactly, a number N counts up to N. */
async function countHits(run: QueryRunner, fromWhere: string, params: readonly unknown[], track: true | number): Promise<number> {
  const sql = track === true ? `SELECT count(*) AS total ${fromWhere}` : `SELECT count(*) AS total FROM (SELECT 1 ${fromWhere} LIMIT ${Math.trunc(track)})`;
  const rows = await run(sql, params);
  return Number(rows[0]?.total ?? 0);
}

function hitOf(row: Record<string, unknown>, request: SearchRequest, sortLength: number): SearchHit {
  const sort: SortValue[] = [];
  for (let position = 0; position < sortLength; position += 1) sort.push(sortValueOf(row[`sort_${position}`]));
  const hit: { _id: string; _source?: Record<string, unknown>; sort: SortValue[] } = { _id: String(row.hit_id), sort };
  if (request._source !== false) {
    const source = JSON.parse(String(row.hit_source)) as Record<string, unknown>;
    hit._source = filterSource(source, request._source.includes, request._source.excludes);
  }
  return hit;
}

/** A sort column as `hits[].sort` reports it: BIGINT (epoch ms, counts) as a number, a missing value as null. */
function sortValueOf(value: unknown): SortValue {
  if (typeof value === 'bigint') return Number(value);
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  // Sort expressions are built as numbers, strings or booleans (sortKey): anything else is a compiler bug.
  throw new Error(`unexpected sort value ${String(value)}`);
}

// ---------------------------------------------------------------------------------------------
// Sorting and keyset paging

type SortKind = SortType | 'score';

interface SortKey {
  readonly entry: SortEntry;
  readonly kind: SortKind;
  /** What rows are ordered and compared by; undefined for `_score`, which is the same for every hit. */
  readonly order?: string;
  /** What `hits[].sort` reports: dates as epoch ms, booleans as 1/0, a missing value as null. */
  readonly value: string;
  readonly direction: 'ASC' | 'DESC';
  readonly nullsFirst: boolean;
  /** The order expression is never NULL (key columns). */
  readonly notNull: boolean;
}

const NOT_NULL_COLUMNS = new Set(['id', 'time', 'org_id', 'app_id']);

function sortKey(ctx: SearchContext, entry: SortEntry, params: SqlParams): SortKey {
  const direction = entry.order === 'desc' ? 'DESC' : 'ASC';
  const nullsFirst = entry.missing === '_first';
  if (entry.field === '_score') return { entry, kind: 'score', value: 'NULL', direction, nullsFirst, notNull: true };
  const field = resolveField(ctx.kind, entry.field);
  if (field.type === 'text') {
    throw new ValidationError(`Cannot sort on ${entry.field}: use ${entry.field}.raw`, [
      { field: 'sort', reason: `${entry.field} is a text field; sort on ${entry.field}.raw` },
    ]);
  }
  const kind = sortTypeOf(field);
  let order = sortExpression(field, kind, entry.order);
  let notNull = field.hot !== undefined && NOT_NULL_COLUMNS.has(field.hot.name) && !field.raw;
  if (entry.missing !== '_last' && entry.missing !== '_first') {
    // A stand-in for documents without a value: they sort (and report) as if they had it.
    order = `coalesce(${order}, ${typedParam(kind, entry.missing, ctx, params, 'sort')})`;
    notNull = true;
  }
  const value = kind === 'date' ? `epoch_ms(${order})` : kind === 'boolean' ? `CAST(${order} AS INTEGER)` : order;
  return { entry, kind, order, value, direction, nullsFirst, notNull };
}

/** Multi-valued fields sort by their smallest value ascending, their largest descending (OpenSearch's default mode). */
function sortExpression(field: FieldRef, kind: Exclude<SortKind, 'score'>, order: 'asc' | 'desc'): string {
  if (field.hot !== undefined) return fieldValueSql(field, kind, 'd');
  return `${order === 'desc' ? 'list_max' : 'list_min'}(${fieldValuesSql(field, kind, 'd')})`;
}

function typedParam(kind: SortKind, value: Scalar, ctx: SearchContext, params: SqlParams, member: string): string {
  switch (kind) {
    case 'number': {
      const number =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && value.trim() !== ''
            ? Number(value)
            : typeof value === 'boolean'
              ? Number(value)
              : Number.NaN;
      if (!Number.isFinite(number))
        throw new ValidationError(`${member}: ${JSON.stringify(value)} is not a number`, [
          { field: member, reason: `${JSON.stringify(value)} is not a number` },
        ]);
      return `CAST(${params.add(number)} AS DOUBLE)`;
    }
    case 'date':
      if (typeof value === 'boolean') throw new ValidationError(`${member}: ${JSON.stringify(value)} is not a date`, [{ field: member, reason: 'not a date' }]);
      return params.add(new Date(resolveDateMath(value, ctx.now, ctx.timeZone, false, { field: member })));
    case 'boolean': {
      const boolean = value === true || value === 'true' || value === 1 ? true : value === false || value === 'false' || value === 0 ? false : undefined;
      if (boolean === undefined)
        throw new ValidationError(`${member}: ${JSON.stringify(value)} is not a boolean`, [{ field: member, reason: 'not a boolean (true, false, 1 or 0)' }]);
      return params.add(boolean);
    }
    default:
      return params.add(String(value));
  }
}

/**
 * Rows strictly after the given sort values in the sort's order: the first key greater (in its
 * direction), or equal on the first keys and greater on the next, and so on. A null value is a
 * missing one, placed where `missing` puts it. The last key is `_id`, so equality ends there.
 */
function searchAfter(keys: readonly SortKey[], values: readonly SortValue[], ctx: SearchContext, params: SqlParams): string[] {
  const alternatives: string[] = [];
  const equalSoFar: string[] = [];
  let leading: string | undefined;
  keys.forEach((key, position) => {
    const value = values[position] ?? null;
    if (key.order === undefined) return;
    const param = value === null ? undefined : typedParam(key.kind, value, ctx, params, `search_after[${position}]`);
    const greater = key.direction === 'ASC' ? '>' : '<';
    let beyond: string;
    if (param === undefined) beyond = key.nullsFirst ? `${key.order} IS NOT NULL` : 'FALSE';
    else beyond = key.nullsFirst || key.notNull ? `${key.order} ${greater} ${param}` : `(${key.order} ${greater} ${param} OR ${key.order} IS NULL)`;
    alternatives.push([...equalSoFar, beyond].join(' AND '));
    equalSoFar.push(param === undefined ? `${key.order} IS NULL` : `${key.order} = ${param}`);
    // Lets DuckDB skip row groups when paging through the first key (time, _id).
    if (position === 0 && key.notNull && param !== undefined) leading = `${key.order} ${greater}= ${param}`;
  });
  const keyset = alternatives.length === 0 ? 'TRUE' : `(${alternatives.map((alternative) => `(${alternative})`).join(' OR ')})`;
  return leading === undefined ? [keyset] : [leading, keyset];
}
