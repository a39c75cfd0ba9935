import { DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { aggregateAndCount } from '../../../../functions/search/duckdb/query/aggregations';
import { baseRelation } from '../../../../functions/search/duckdb/query/search';
import type { QueryRunner } from '../../../../functions/search/duckdb/query/sql';
import { createTableSql, rowOf, SEARCH_TABLES } from '../../../../functions/search/duckdb/tables';
import type { IndexDocument } from '../../../../functions/search/port';
import type { TableContext } from '../../../../functions/search/duckdb/search-tables';
import { parseSearchRequest } from '../../../../functions/search/dsl';
import { call, NOW, TENANT, type Json } from './harness';

/** Every row here is TENANT's, under this number. */
const TENANT_NUMBER = 1;

/** The statements the aggregations send: a fixed number per request, never one per bucket. */

/** The events table filled with `documents`, behind a runner that records every statement. */
async function recordingRunner(documents: readonly IndexDocument[]): Promise<{ run: QueryRunner; statements: string[]; close: () => void }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(`SET TimeZone = 'UTC'`);
  await connection.run(createTableSql(SEARCH_TABLES.events));
  for (const document of documents) {
    const row = rowOf(SEARCH_TABLES.events, document, TENANT_NUMBER);
    await connection.run(`INSERT INTO events VALUES (${row.map((_value, position) => `$${position + 1}`).join(', ')})`, row);
  }
  const statements: string[] = [];
  const run: QueryRunner = async (sql, params) => {
    statements.push(sql);
    return (await connection.runAndReadAll(sql, params as DuckDBValue[])).getRowObjectsJS() as Record<string, unknown>[];
  };
  return { run, statements, close: () => instance.closeSync() };
}

/** 200 hourly calls: the first 160 of 40 companies (4 each), the last 40 without a company. */
const DOCUMENTS = Array.from({ length: 200 }, (_, n) =>
  call({
    id: `e${n}`,
    time: new Date(Date.parse('2026-03-01T00:00:00.000Z') + n * 3_600_000).toISOString(),
    ...(n < 160 ? { company: `company-${n % 40}` } : {}),
    weight: n % 7,
  }),
);

describe('aggregation statements on DuckDB', () => {
  let runner: Awaited<ReturnType<typeof recordingRunner>>;
  beforeAll(async () => {
    runner = await recordingRunner(DOCUMENTS);
  });
  afterAll(() => {
    runner.close();
  });

  const ctx: TableContext = { scope: TENANT, kind: 'events', timeZone: 'UTC', now: NOW, tenantNumber: TENANT_NUMBER };

  async function run(body: Record<string, unknown>): Promise<{ aggregations: Json; docCount: number | undefined; statements: number }> {
    runner.statements.length = 0;
    const request = parseSearchRequest(body, 'events');
    const outcome = await aggregateAndCount(runner.run, baseRelation(ctx, request.query), request.aggs, ctx);
    return { ...outcome, statements: runner.statements.length };
  }

  it('runs one query per bucket aggregation, whatever the number of buckets', async () => {
    const outcome = await run({
      aggs: {
        total: { sum: { field: 'weight' } },
        companies: {
          terms: { field: 'company_id', size: 40 },
          aggs: { days: { date_histogram: { field: 'time', calendar_interval: 'day' }, aggs: { weight: { sum: { field: 'weight' } } } } },
        },
      },
    });
    expect(outcome.aggregations.companies.buckets).toHaveLength(40);
    expect(outcome.aggregations.total.value).toBe(DOCUMENTS.reduce((sum, _document, n) => sum + (n % 7), 0));
    // The top-level metrics, the companies, and the days of every company.
    expect(outcome.statements).toBe(3);
  });

  it('counts the rows of the search on the way when a top-level query sees them all', async () => {
    expect((await run({ aggs: { companies: { terms: { field: 'company_id', size: 3 } } } })).docCount).toBe(200);
    expect((await run({ aggs: { days: { date_histogram: { field: 'time', calendar_interval: 'day' } } } })).docCount).toBe(200);
    expect((await run({ aggs: { total: { sum: { field: 'weight' } } } })).docCount).toBe(200);
    const filtered = await run({ query: { range: { weight: { gte: 5 } } }, aggs: { companies: { terms: { field: 'company_id' } } } });
    expect(filtered.docCount).toBe(DOCUMENTS.filter((_document, n) => n % 7 >= 5).length);
    // The companies' buckets still leave out the rows without a company.
    const companies = await run({ aggs: { companies: { terms: { field: 'company_id', size: 100 } } } });
    expect(companies.aggregations.companies.buckets.reduce((sum: number, bucket: Json) => sum + bucket.doc_count, 0)).toBe(160);
    expect(companies.aggregations.companies.sum_other_doc_count).toBe(0);
    // Ranges put a row in several buckets (or none): they cannot count rows.
    expect((await run({ aggs: { weights: { range: { field: 'weight', ranges: [{ to: 3 }] } } } })).docCount).toBeUndefined();
  });
});
