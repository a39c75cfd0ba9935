import { resolve } from 'node:path';
import { timestampTZValue, type DuckDBValue } from '@duckdb/node-api';
import { forEachCohortMember } from '../../functions/cohorts/cohort-members';
import { fixedWindow } from '../../functions/cohorts/event-windows';
import type { CohortEventWindow } from '../../schemas/resources/cohort';
import { createDuckDbSearchIndex } from '../../functions/search/duckdb/duckdb-index';
import type { SearchableIndex } from '../../functions/search/port';
import { BENCH_TENANT, DEFAULT_SEARCH_DATASET, prepareSearchDataset, tenantNumberIn } from './search-dataset';
import { DUCKDB_PAIR_TIMING, handSqlConnection } from './duckdb-baseline';
import { compareSettled, timeMs } from './timing';

/**
 * Behavioural cohorts at 1M events (the search bench's data: 20,000 users over 30 days): members
 * computed as every use of a cohort computes them (cohort-members.ts, on DuckDB), against one
 * hand-written SQL statement per cohort over the same file, on an instance with the adapter's
 * settings, each pair warmed up and timed as the search bench's queries (duckdb-baseline.ts). The two
 * member lists must agree before anything is timed.
 */

interface BenchCohort {
  readonly name: string;
  readonly window: Exclude<CohortEventWindow, { billing_period: 'current' }>;
  readonly condition: Record<string, unknown>;
  /** The same members in SQL: `$from` / `$to` are the window, `$tenant_number` the tenant's number in the file. */
  readonly sql: string;
}

const TENANT_EVENTS = 'tenant_number = $tenant_number AND "time" >= $from AND "time" < $to';
const TENANT_USERS = 'SELECT id FROM users WHERE tenant_number = $tenant_number';

export const BENCH_COHORTS: BenchCohort[] = [
  {
    name: 'at least 20 POST calls in the last 7 days',
    window: { last: 7, unit: 'days' },
    condition: { query: { term: { 'request.verb': 'POST' } }, operator: 'gte', value: 20 },
    sql: `${TENANT_USERS} AND id IN (SELECT user_id FROM events WHERE ${TENANT_EVENTS} AND verb = 'POST' GROUP BY user_id HAVING count(*) >= 20) ORDER BY id`,
  },
  {
    name: 'no search in the last 14 days',
    window: { last: 14, unit: 'days' },
    condition: { performed: false, query: { wildcard: { 'request.route.raw': '*/search' } } },
    sql: `${TENANT_USERS} AND id NOT IN (SELECT user_id FROM events WHERE ${TENANT_EVENTS} AND route LIKE '%/search' AND user_id IS NOT NULL) ORDER BY id`,
  },
  {
    name: 'at least 5 distinct routes this calendar week',
    window: { calendar: 'week' },
    condition: { measure: 'distinct', field: 'request.route.raw', operator: 'gte', value: 5 },
    sql: `${TENANT_USERS} AND id IN (SELECT user_id FROM events WHERE ${TENANT_EVENTS} GROUP BY user_id HAVING count(DISTINCT route) >= 5) ORDER BY id`,
  },
];

export interface CohortTiming {
  readonly name: string;
  readonly members: number;
  readonly oursMs: number;
  readonly sqlMs: number;
  readonly ratio: number;
}

/** The cohort's members as every use of a cohort computes them, on `index`. */
export async function benchCohortMembers(index: SearchableIndex, cohort: BenchCohort, now: Date): Promise<string[]> {
  const criteria = JSON.stringify({ events: { conditions: [{ ...cohort.condition, window: cohort.window }] } });
  const members: string[] = [];
  await forEachCohortMember({ index, scope: BENCH_TENANT, timeZone: 'UTC', weekStartsOn: 1, now }, { cohort_type: 'user', criteria }, [], (id) =>
    members.push(id),
  );
  return members;
}

export async function benchCohorts(options: { log?: (line: string) => void; dir?: string } = {}): Promise<{ users: number; timings: CohortTiming[] }> {
  const log = options.log ?? (() => {});
  const dataset = await prepareSearchDataset({ dir: options.dir ?? resolve(__dirname, '../../.bench/search'), spec: DEFAULT_SEARCH_DATASET, log });
  log(dataset.reused ? `  reusing ${dataset.path}` : `  generated ${dataset.path} in ${Math.round(dataset.generatedSeconds)} s`);
  const index = await createDuckDbSearchIndex({ path: dataset.path });
  const { connection, close } = await handSqlConnection(dataset.path);
  const tenantNumber = await tenantNumberIn(connection, BENCH_TENANT);
  const now = dataset.anchor;
  const timings: CohortTiming[] = [];
  try {
    for (const cohort of BENCH_COHORTS) {
      const window = fixedWindow(cohort.window, { now, timeZone: 'UTC', weekStartsOn: 1 });
      const values: Record<string, DuckDBValue> = {
        tenant_number: tenantNumber,
        from: timestampTZValue(BigInt(window.start.getTime()) * 1000n),
        to: timestampTZValue(BigInt(window.end.getTime()) * 1000n),
      };
      const ours = () => benchCohortMembers(index, cohort, now);
      const sql = async () => (await connection.runAndReadAll(cohort.sql, values)).getRowsJS().map((row) => String(row[0]));
      let mine: string[] = [];
      let theirs: string[] = [];
      await timeMs(async () => (mine = await ours()));
      await timeMs(async () => (theirs = await sql()));
      const sorted = [...mine].sort();
      const expected = [...theirs].sort();
      if (sorted.length !== expected.length || sorted.some((id, k) => id !== expected[k]))
        throw new Error(`cohorts bench: "${cohort.name}" has ${sorted.length} members, the SQL ${expected.length}`);
      if (expected.length === 0) throw new Error(`cohorts bench: "${cohort.name}" has no members: nothing would be measured`);
      const timed = await compareSettled(DUCKDB_PAIR_TIMING, sql, ours);
      timings.push({
        name: cohort.name,
        members: expected.length,
        oursMs: timed.subjectMs,
        sqlMs: timed.baselineMs,
        ratio: timed.subjectMs / timed.baselineMs,
      });
      log(
        `  ${cohort.name}: ${expected.length.toLocaleString('en')} members; ours ${timed.subjectMs.toFixed(1)} ms, SQL ${timed.baselineMs.toFixed(1)} ms, ratio ${(timed.subjectMs / timed.baselineMs).toFixed(2)} (${timed.rounds} rounds after ${timed.warmUpRounds} untimed)`,
      );
    }
  } finally {
    close();
    await index.close();
  }
  return { users: DEFAULT_SEARCH_DATASET.users, timings };
}
