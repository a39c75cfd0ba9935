import type { ActorCondition, MembersRequest, SearchHit, TimeRange } from '../../port';
import { filterSource } from '../../source-filter';
import { resolveField } from '../../fields';
import type { TableContext } from '../search-tables';
import { fieldValueSql, fieldValuesSql } from './field-sql';
import { baseRelation } from './search';
import { SqlParams, type QueryRunner } from './sql';

/**
 * A cohort's behavioural condition in one statement: the window's matching events grouped by actor,
 * the threshold in HAVING, the actors in id order (DuckDB orders VARCHARs by their bytes). The
 * measures are the aggregations' (a sum of `weight` counting a missing one as 1, distinct values
 * of every element of a multi-valued field).
 */

const OPERATORS: Record<ActorCondition['operator'], string> = { gte: '>=', gt: '>', lte: '<=', lt: '<', eq: '=' };

function measureSql(condition: ActorCondition, alias: string): string {
  switch (condition.measure) {
    case 'count':
      return 'count(*)';
    case 'sum_weight':
      return `sum(coalesce(${fieldValueSql(resolveField('events', 'weight'), 'number', alias)}, 1))`;
    case 'distinct': {
      const field = resolveField('events', condition.field!);
      // A hot column holds one value an event: DuckDB's own distinct count, about twice as fast as the list's.
      if (field.hot !== undefined) return `count(DISTINCT ${fieldValueSql(field, 'keyword', alias)})`;
      return `len(list_distinct(flatten(list(${fieldValuesSql(field, 'keyword', alias)}))))`;
    }
  }
}

/** The statement listing the actors meeting a condition (one column, `actor`), its values added to `params`. */
function actorsMeetingSql(ctx: TableContext, condition: ActorCondition, params: SqlParams, alias = 'd'): string {
  const base = baseRelation(ctx, condition.query, params, alias);
  const actor = fieldValueSql(resolveField('events', condition.by), 'keyword', alias);
  const threshold = params.add(condition.value);
  return (
    `SELECT ${actor} AS actor ${base.fromWhereSql} AND ${actor} IS NOT NULL GROUP BY 1 ` +
    `HAVING ${measureSql(condition, alias)} ${OPERATORS[condition.operator]} ${threshold}`
  );
}

export async function runActorsMeeting(run: QueryRunner, ctx: TableContext, condition: ActorCondition): Promise<string[]> {
  const params = new SqlParams();
  const rows = await run(`${actorsMeetingSql(ctx, condition, params)} ORDER BY 1`, params.values);
  return rows.map((row) => String(row['actor']));
}

/**
 * A cohort's members in one statement: the profiles matching the query whose ids are (or are not)
 * among each condition's actors, in id order up to the request's limit, so only members leave the
 * engine. `eventsContext` gives the events table's layout for a condition's window.
 */
export async function runMembersMeeting(
  run: QueryRunner,
  ctx: TableContext,
  eventsContext: (range: TimeRange) => TableContext,
  request: MembersRequest,
): Promise<SearchHit[]> {
  const { includes } = request;
  const params = new SqlParams();
  const base = baseRelation(ctx, request.profiles, params);
  const tests = request.conditions.map(
    ({ condition, range, performed }) => `d.id ${performed ? 'IN' : 'NOT IN'} (${actorsMeetingSql(eventsContext(range), condition, params, 'e')})`,
  );
  const behaves = tests.length > 0 ? ` AND (${tests.join(request.match === 'any' ? ' OR ' : ' AND ')})` : '';
  const limit = params.add(request.limit);
  const rows = await run(
    `SELECT d.id AS hit_id${includes.length > 0 ? ', d.doc AS hit_source' : ''} ${base.fromWhereSql}${behaves} ORDER BY d.id LIMIT ${limit}`,
    params.values,
  );
  return rows.map((row) =>
    includes.length > 0
      ? { _id: String(row['hit_id']), _source: filterSource(JSON.parse(String(row['hit_source'])) as Record<string, unknown>, includes, []) }
      : { _id: String(row['hit_id']) },
  );
}
