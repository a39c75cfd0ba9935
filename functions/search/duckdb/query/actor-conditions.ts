import type { ActorCondition } from '../../port';
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

function measureSql(condition: ActorCondition): string {
  switch (condition.measure) {
    case 'count':
      return 'count(*)';
    case 'sum_weight':
      return `sum(coalesce(${fieldValueSql(resolveField('events', 'weight'), 'number')}, 1))`;
    case 'distinct':
      return `len(list_distinct(flatten(list(${fieldValuesSql(resolveField('events', condition.field!), 'keyword')}))))`;
  }
}

export async function runActorsMeeting(run: QueryRunner, ctx: TableContext, condition: ActorCondition): Promise<string[]> {
  const params = new SqlParams();
  const base = baseRelation(ctx, condition.query, params);
  const actor = fieldValueSql(resolveField('events', condition.by), 'keyword');
  const threshold = params.add(condition.value);
  const rows = await run(
    `SELECT ${actor} AS actor ${base.fromWhereSql} AND ${actor} IS NOT NULL GROUP BY 1 ` +
      `HAVING ${measureSql(condition)} ${OPERATORS[condition.operator]} ${threshold} ORDER BY 1`,
    params.values,
  );
  return rows.map((row) => String(row['actor']));
}
