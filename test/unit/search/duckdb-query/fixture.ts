import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { eventDocument, profileDocument } from '../../../../functions/search/index-documents';
import type { IndexDocument, IndexKind, SearchContext, TenantScope } from '../../../../functions/search/port';
import { runSearch } from '../../../../functions/search/duckdb/query/search';
import type { QueryRunner } from '../../../../functions/search/duckdb/query/sql';
import type { TableContext } from '../../../../functions/search/duckdb/search-tables';
import { SEARCH_TABLES, columnsOf, createTableSql, quoteIdentifier, rowOf } from '../../../../functions/search/duckdb/tables';
import { parseSearchRequest } from '../../../../functions/search/dsl';
import type { SearchResponse } from '../../../../functions/search/port';

/**
 * A DuckDB database with the search tables and a handful of documents for two tenants, queried
 * through runSearch without the adapter (aggregations are another module's; these tests ask for none).
 */

export const TENANT: TenantScope = { org_id: 'org-1', app_id: 'app-1' };
export const OTHER_APP: TenantScope = { org_id: 'org-1', app_id: 'app-2' };
export const OTHER_ORG: TenantScope = { org_id: 'org-2', app_id: 'app-1' };
export const NOW = new Date('2026-03-15T10:30:00.000Z');

/** The fixture's tenant numbers (the adapter gives them through tenant-numbers.ts); any other scope has none. */
const TENANT_NUMBERS: readonly TenantScope[] = [TENANT, OTHER_APP, OTHER_ORG];
export const tenantNumberOf = (scope: TenantScope): number =>
  TENANT_NUMBERS.findIndex(({ org_id, app_id }) => org_id === scope.org_id && app_id === scope.app_id) + 1;

export interface TestDatabase {
  readonly run: QueryRunner;
  readonly connection: DuckDBConnection;
  close(): void;
}

export async function openDatabase(documents: readonly IndexDocument[]): Promise<TestDatabase> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(`SET TimeZone = 'UTC'`);
  for (const table of Object.values(SEARCH_TABLES)) await connection.run(createTableSql(table));
  for (const document of documents) {
    const table = SEARCH_TABLES[document.kind];
    const placeholders = columnsOf(table).map((_column, position) => `$${position + 1}`);
    await connection.run(`INSERT INTO ${quoteIdentifier(table.name)} VALUES (${placeholders.join(', ')})`, rowOf(table, document, tenantNumberOf(document)));
  }
  const run: QueryRunner = async (sql, params) => (await connection.runAndReadAll(sql, params as DuckDBValue[])).getRowObjectsJS() as Record<string, unknown>[];
  return { run, connection, close: () => instance.closeSync() };
}

/** An API call at `time` with the given payload, for every tenant given. */
export function event(
  id: string,
  time: string,
  data: Record<string, unknown>,
  scopes: readonly TenantScope[] = [TENANT, OTHER_APP, OTHER_ORG],
): IndexDocument[] {
  // The collector dates every event by its request.time; the index refuses one that is not.
  const request = data.request === undefined ? { time } : data.request;
  return scopes.map((scope) => eventDocument(scope, 'event', { id, time, received_at: time, data: { ...data, request } }));
}

export function profile(
  kind: Exclude<IndexKind, 'events'>,
  id: string,
  data: Record<string, unknown>,
  scopes: readonly TenantScope[] = [TENANT, OTHER_APP, OTHER_ORG],
): IndexDocument[] {
  return scopes.map((scope) => profileDocument(scope, kind, id, data, 1, '2026-03-01T00:00:00.000Z'));
}

export function context(kind: IndexKind = 'events', overrides: Partial<SearchContext> = {}): TableContext {
  const ctx: SearchContext = { scope: TENANT, kind, timeZone: 'UTC', now: NOW, ...overrides };
  return { ...ctx, tenantNumber: tenantNumberOf(ctx.scope) };
}

const noAggregations = async (): Promise<never> => {
  throw new Error('these tests ask for no aggregations');
};

export async function search(db: TestDatabase, body: unknown, ctx: TableContext = context()): Promise<SearchResponse> {
  return runSearch(db.run, ctx, parseSearchRequest(body, ctx.kind, { timeZone: ctx.timeZone }), noAggregations);
}

/** The ids a query matches, in id order. */
export async function ids(db: TestDatabase, query: unknown, ctx: TableContext = context()): Promise<string[]> {
  const response = await search(db, { query, size: 1000, sort: ['_id'] }, ctx);
  return response.hits.hits.map((hit) => hit._id);
}
