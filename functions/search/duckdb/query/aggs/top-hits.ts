import type { Scalar, SortEntry } from '../../../../../schemas/search-tree';
import { ValidationError } from '../../../../shared/errors';
import { resolveDateMath } from '../../../dates/date-math';
import { effectiveSort } from '../../../effective-sort';
import { resolveField, sortTypeOf, type SortType } from '../../../fields';
import type { SearchContext } from '../../../port';
import { filterSource } from '../../../source-filter';
import type { SqlParams } from '../sql';
import { chainOf, type TopHitsNode, type TopHitsPlan } from './plan';
import { valueSql } from './values';
import { chainConditions, keyColumn, rowsSql, type QueryEnv, type Restriction, type RowColumn } from './rows';

/**
 * top_hits: sorting the documents of a bucket, and the hits as the search's own hits look. Relevance is
 * not computed, so where OpenSearch ranks by score (no `sort`) the index's default order applies: newest
 * events first, profiles by id; `_id` ascending always breaks ties.
 */

type SortKind = SortType;

const sortColumn = (position: number): string => `agg_sort_${position}`;

function invalid(member: string, reason: string): ValidationError {
  return new ValidationError(`${member}: ${reason}`, [{ field: member, reason }]);
}

/** What a sort's `missing` value puts in for documents without one, typed like the sort values. */
function standIn(kind: SortKind, value: Scalar, ctx: SearchContext, params: SqlParams, member: string): string {
  switch (kind) {
    case 'keyword':
      return `CAST(${params.add(String(value))} AS VARCHAR)`;
    case 'boolean': {
      const boolean = value === true || value === 'true' || value === 1 ? 1 : value === false || value === 'false' || value === 0 ? 0 : undefined;
      if (boolean === undefined) throw invalid(member, `${JSON.stringify(value)} is not a boolean`);
      return String(boolean);
    }
    case 'date': {
      if (typeof value === 'boolean') throw invalid(member, `${JSON.stringify(value)} is not a date`);
      return `CAST(${params.add(String(resolveDateMath(value, ctx.now, ctx.timeZone, false, { field: member })))} AS BIGINT)`;
    }
    case 'number': {
      const number = typeof value === 'number' ? value : typeof value === 'boolean' ? Number(value) : value.trim() === '' ? Number.NaN : Number(value);
      if (!Number.isFinite(number)) throw invalid(member, `${JSON.stringify(value)} is not a number`);
      return `CAST(${params.add(String(number))} AS DOUBLE)`;
    }
  }
}

/** One sort entry as a column holding the value hits report (dates as epoch ms, booleans 1/0, missing as null). */
function sortValueSql(entry: SortEntry, ctx: SearchContext, params: SqlParams, member: string): { sql: string; kind: SortKind } {
  const ref = resolveField(ctx.kind, entry.field);
  if (ref.type === 'text') throw invalid(member, `${entry.field} is a text field and cannot be sorted on; use ${entry.field}.raw`);
  // Untyped JSON fields sort by their numbers: their strings are text, which has no order.
  const kind = sortTypeOf(ref);
  const value = valueSql({ ref, kind }, 'key');
  const reported =
    kind === 'boolean'
      ? value.list
        ? `list_transform(${value.sql}, lambda agg_flag: CAST(agg_flag AS INTEGER))`
        : `CAST(${value.sql} AS INTEGER)`
      : value.sql;
  // A multi-valued field sorts by its smallest value ascending, its largest descending (OpenSearch's default mode).
  let sql = value.list ? `${entry.order === 'desc' ? 'list_max' : 'list_min'}(${reported})` : reported;
  if (entry.missing !== '_last' && entry.missing !== '_first') sql = `coalesce(${sql}, ${standIn(kind, entry.missing, ctx, params, member)})`;
  return { sql, kind };
}

export function topHitsSort(node: TopHitsNode, ctx: SearchContext, params: SqlParams, path: string): TopHitsSort {
  const columns: TopHitsSort['columns'] = [];
  const orderBy: string[] = [];
  effectiveSort(ctx.kind, node.sort).forEach((entry, position) => {
    if (entry.field === '_score') return;
    const member = `${path}.top_hits.sort.${position}`;
    const sql = entry.field === '_id' ? 'd.id' : sortValueSql(entry, ctx, params, member).sql;
    columns.push({ name: sortColumn(position), sql });
    orderBy.push(`${sortColumn(position)} ${entry.order === 'desc' ? 'DESC' : 'ASC'} NULLS ${entry.missing === '_first' ? 'FIRST' : 'LAST'}`);
  });
  return { columns, orderBy: orderBy.join(', ') };
}

export interface TopHitsHit {
  readonly _id: string;
  readonly _source?: Record<string, unknown>;
  readonly sort?: unknown[];
}

const plain = (value: unknown): unknown => (typeof value === 'bigint' ? Number(value) : value === undefined ? null : value);

/** A hit as the search's hits are shaped; `sort` only when the node names a sort, as OpenSearch reports it. */
export function topHitOf(row: Record<string, unknown>, node: TopHitsNode, ctx: SearchContext): TopHitsHit {
  const hit: { _id: string; _source?: Record<string, unknown>; sort?: unknown[] } = { _id: String(row['agg_hit_id']) };
  if (node._source !== false) {
    const source = JSON.parse(String(row['agg_hit_source'])) as Record<string, unknown>;
    hit._source = filterSource(source, node._source.includes, node._source.excludes);
  }
  if (node.sort.length > 0) {
    hit.sort = effectiveSort(ctx.kind, node.sort)
      .slice(0, node.sort.length)
      .map((entry, position) => (entry.field === '_score' ? null : plain(row[sortColumn(position)])));
  }
  return hit;
}

export interface TopHitsSort {
  readonly columns: RowColumn[];
  readonly orderBy: string;
}

/**
 * top_hits: the documents of each bucket ranked by the node's sort; the window from..from+size, plus the
 * first document of every bucket so that empty windows still report the bucket's total.
 */
export function topHitsSql(plan: TopHitsPlan, env: QueryEnv, sort: TopHitsSort, restriction?: Restriction): string {
  const chain = chainOf(plan.level);
  const keys = chain.map(keyColumn);
  const columns: RowColumn[] = [{ name: 'agg_hit_id', sql: 'd.id' }, { name: 'agg_hit_source', sql: 'CAST(d.doc AS VARCHAR)' }, ...sort.columns];
  const rows = rowsSql(env, chain, [...chainConditions(chain), ...plan.conditions], columns, restriction);
  const partition = keys.length > 0 ? `PARTITION BY ${keys.join(', ')}` : '';
  const from = plan.node.from;
  return (
    `SELECT * FROM (SELECT *, row_number() OVER (${partition} ORDER BY ${sort.orderBy}) AS agg_rank, count(*) OVER (${partition}) AS agg_total FROM (${rows})) ` +
    `WHERE agg_rank = 1 OR (agg_rank > ${from} AND agg_rank <= ${from + plan.node.size})`
  );
}
