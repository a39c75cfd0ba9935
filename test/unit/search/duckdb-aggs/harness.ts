import { createDuckDbSearchIndex } from '../../../../functions/search/duckdb/duckdb-index';
import { eventDocument } from '../../../../functions/search/index-documents';
import type { IndexDocument, SearchableIndex, SearchContext, TenantScope, TimeRange } from '../../../../functions/search/port';
import { parseSearchRequest } from '../../../../functions/search/dsl';

/**
 * A real in-memory DuckDB search index with API calls indexed the way the consumer indexes them, and
 * aggregation requests sent through the adapter's search as a caller sends them.
 */

export const TENANT: TenantScope = { org_id: 'org-1', app_id: 'app-1' };
/** Another app of the same org: its documents must never show in TENANT's answers. */
export const OTHER: TenantScope = { org_id: 'org-1', app_id: 'app-2' };

export interface CallSpec {
  readonly id: string;
  /** ISO 8601 UTC. */
  readonly time: string;
  readonly route?: string;
  readonly verb?: string;
  readonly status?: number;
  readonly durationMs?: number;
  readonly user?: string;
  readonly company?: string;
  readonly weight?: number;
  readonly metadata?: Record<string, unknown>;
}

/** An API call as the consumer indexes it (route, duration_ms, event_type and is_late are derived). */
export function call(spec: CallSpec, scope: TenantScope = TENANT): IndexDocument {
  const data: Record<string, unknown> = {
    request: { time: spec.time, uri: `https://api.example.test${spec.route ?? '/'}`, verb: spec.verb ?? 'GET' },
    response: { time: new Date(Date.parse(spec.time) + (spec.durationMs ?? 0)).toISOString(), status: spec.status ?? 200 },
  };
  if (spec.user !== undefined) data['user_id'] = spec.user;
  if (spec.company !== undefined) data['company_id'] = spec.company;
  if (spec.weight !== undefined) data['weight'] = spec.weight;
  if (spec.metadata !== undefined) data['metadata'] = spec.metadata;
  return eventDocument(scope, 'event', { id: spec.id, time: spec.time, received_at: spec.time, data });
}

/** Calls at the given instants (ids t0, t1, ...), for date bucketing. */
export const callsAt = (times: readonly string[]): IndexDocument[] => times.map((time, n) => call({ id: `t${n}`, time }));

export async function indexOf(documents: readonly IndexDocument[]): Promise<SearchableIndex> {
  const index = await createDuckDbSearchIndex({ path: ':memory:' });
  const outcome = await index.index(documents);
  if (outcome.failures.length > 0) throw new Error(`indexing failed: ${JSON.stringify(outcome.failures)}`);
  return index;
}

export interface SearchOptions {
  readonly scope?: TenantScope;
  readonly timeZone?: string;
  readonly range?: TimeRange;
  readonly now?: Date;
}

export const NOW = new Date('2026-12-01T00:00:00.000Z');

// Responses are JSON of a shape the tests spell out; `any` lets them index into it.
export type Json = any;

/** Runs a search body (size 0 unless given) as TENANT and returns its `aggregations`. */
export async function aggregate(index: SearchableIndex, body: Record<string, unknown>, options: SearchOptions = {}): Promise<Json> {
  const timeZone = options.timeZone ?? 'UTC';
  const ctx: SearchContext = {
    scope: options.scope ?? TENANT,
    kind: 'events',
    timeZone,
    now: options.now ?? NOW,
    ...(options.range === undefined ? {} : { range: options.range }),
  };
  const response = await index.search(ctx, parseSearchRequest({ size: 0, ...body }, 'events', { timeZone }));
  return response.aggregations;
}

/** The error a search fails with (for 400s). */
export async function failureOf(promise: Promise<unknown>): Promise<Json> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the search to fail');
}
