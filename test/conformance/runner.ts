import { randomUUID } from 'node:crypto';
import { parseSearchRequest } from '../../functions/search/dsl';
import { eventDocument, profileDocument } from '../../functions/search/index-documents';
import type { IndexDocument, IndexKind, SearchableIndex, SearchContext, SearchHit, TenantScope } from '../../functions/search/port';
import {
  FIXED_NOW,
  isPaging,
  isRejection,
  type CaseDocument,
  type ConformanceCase,
  type ExpectedHit,
  type HitsExpectation,
  type PagingExpectation,
  type RejectionExpectation,
} from './types';

/**
 * Runs one conformance case: its documents go to a fresh tenant and, identically, to two others
 * (another app of the same org, and another org), so any leak across tenants shows up as extra
 * hits, doubled counts or foreign buckets. The body goes through the parser as a caller's would.
 */

export interface CaseTenants {
  readonly primary: TenantScope;
  /** Same documents, same ids: another app of the same org, then another org. */
  readonly foreign: readonly TenantScope[];
}

export function freshTenants(): CaseTenants {
  const tag = randomUUID().slice(0, 12);
  return {
    primary: { org_id: `org-${tag}`, app_id: `app-${tag}` },
    foreign: [
      { org_id: `org-${tag}`, app_id: `app-${tag}-sibling` },
      { org_id: `org-${tag}-other`, app_id: `app-${tag}-other` },
    ],
  };
}

export function toIndexDocument(scope: TenantScope, kind: IndexKind, document: CaseDocument): IndexDocument {
  if (kind === 'events') {
    return eventDocument(scope, document.action === true ? 'action' : 'event', {
      id: document.id,
      time: document.time,
      received_at: document.time,
      ...(document.late === undefined ? {} : { late: document.late }),
      data: { ...document.data },
    });
  }
  return profileDocument(scope, kind, document.id, { ...document.data }, 1, document.time);
}

/** Indexes the documents for every tenant and makes them visible. */
export async function indexForTenants(index: SearchableIndex, kind: IndexKind, documents: readonly CaseDocument[], tenants: CaseTenants): Promise<void> {
  const all = [tenants.primary, ...tenants.foreign].flatMap((scope) => documents.map((document) => toIndexDocument(scope, kind, document)));
  const outcome = await index.index(all);
  expect(outcome.failures).toEqual([]);
  await index.refresh();
}

export function contextFor(conformanceCase: ConformanceCase, scope: TenantScope): SearchContext {
  const kind = conformanceCase.kind ?? 'events';
  const window = conformanceCase.window;
  return {
    scope,
    kind,
    ...(window === undefined
      ? {}
      : { range: { ...(window.from === undefined ? {} : { from: new Date(window.from) }), ...(window.to === undefined ? {} : { to: new Date(window.to) }) } }),
    timeZone: conformanceCase.timeZone ?? 'UTC',
    now: new Date(conformanceCase.now ?? FIXED_NOW),
  };
}

export async function runCase(index: SearchableIndex, conformanceCase: ConformanceCase): Promise<void> {
  const tenants = freshTenants();
  const kind = conformanceCase.kind ?? 'events';
  await indexForTenants(index, kind, conformanceCase.documents, tenants);
  const context = contextFor(conformanceCase, tenants.primary);
  const expectation = conformanceCase.expect;
  if (isRejection(expectation)) return expectRejection(index, context, conformanceCase.body, expectation);
  if (isPaging(expectation)) return expectPages(index, context, conformanceCase.body, expectation);
  return expectHits(index, context, conformanceCase.body, expectation);
}

async function expectHits(index: SearchableIndex, context: SearchContext, body: unknown, expectation: HitsExpectation): Promise<void> {
  const request = parseSearchRequest(body, context.kind, { timeZone: context.timeZone });
  const response = await index.search(context, request);
  expect(response.hits.max_score).toBeNull();
  if (expectation.total !== undefined) expect(response.hits.total).toBe(expectation.total);
  if (expectation.ids !== undefined) expect(response.hits.hits.map((hit) => hit._id)).toEqual(expectation.ids);
  if (expectation.hits !== undefined) {
    expect(response.hits.hits.map((hit, position) => projectHit(hit, expectation.hits![position]))).toEqual(expectation.hits);
  }
  if (expectation.aggregations !== undefined) {
    expect(normaliseTopHits(response.aggregations, requestAggregations(body))).toEqual(expectation.aggregations);
  }
  // The count endpoint answers the same number for the same query (post_filter narrows hits only; a
  // track_total_hits other than true reports fewer).
  if (expectation.total !== undefined && request.post_filter === undefined && request.track_total_hits === true) {
    expect(await index.countMatching(context, request.query)).toBe(expectation.total);
  }
}

/** The parts of a hit the expectation names. */
function projectHit(hit: SearchHit, expected: ExpectedHit | undefined): Record<string, unknown> {
  const projected: Record<string, unknown> = { _id: hit._id };
  if (expected !== undefined && '_source' in expected) projected._source = hit._source;
  if (expected !== undefined && 'sort' in expected) projected.sort = hit.sort;
  return projected;
}

async function expectPages(index: SearchableIndex, context: SearchContext, body: unknown, expectation: PagingExpectation): Promise<void> {
  const base = body as Record<string, unknown>;
  const size = base.size as number;
  const seen: string[] = [];
  let searchAfter: unknown[] | undefined;
  // One more page than needed ends the walk with an empty page; the bound stops a walk that never ends.
  for (let page = 0; page <= expectation.pages.ids.length + 1; page += 1) {
    const pageBody = searchAfter === undefined ? base : { ...base, search_after: searchAfter };
    const response = await index.search(context, parseSearchRequest(pageBody, context.kind, { timeZone: context.timeZone }));
    expect(response.hits.total).toBe(expectation.pages.ids.length);
    expect(response.hits.hits.length).toBeLessThanOrEqual(size);
    if (response.hits.hits.length === 0) break;
    seen.push(...response.hits.hits.map((hit) => hit._id));
    const last = response.hits.hits[response.hits.hits.length - 1]!;
    expect(Array.isArray(last.sort)).toBe(true);
    // Through JSON, as a caller sends back what it received.
    searchAfter = JSON.parse(JSON.stringify(last.sort)) as unknown[];
  }
  expect(seen).toEqual(expectation.pages.ids);
}

async function expectRejection(index: SearchableIndex, context: SearchContext, body: unknown, expectation: RejectionExpectation): Promise<void> {
  let failure: unknown;
  try {
    await index.search(context, parseSearchRequest(body, context.kind, { timeZone: context.timeZone }));
  } catch (error) {
    failure = error;
  }
  const wanted = typeof expectation.member === 'string' ? [expectation.member] : [...expectation.member];
  const named = wanted.join(' or ');
  if (failure === undefined) throw new Error(`expected a 400 naming ${named}; the search succeeded`);
  const rejection = failure as { status?: unknown; details?: { field?: unknown }[] };
  if (rejection.status !== expectation.status) throw new Error(`expected a 400 naming ${named}; got ${String(failure)}`);
  const members = (rejection.details ?? []).map((detail) => memberPath(String(detail.field)));
  if (!members.some((member) => wanted.some((w) => member === w || member.startsWith(`${w}.`)))) {
    throw new Error(`expected the 400 to name ${named}; it named [${members.join(', ')}]: ${String(failure)}`);
  }
}

/** `query.bool.must[0].script` and `query.bool.must.0.script` name the same member. */
export const memberPath = (field: string): string => field.replace(/\[(\d+)\]/g, '.$1').replace(/^\$?\./, '');

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

function requestAggregations(body: unknown): JsonObject {
  if (!isObject(body)) return {};
  const aggs = body.aggs ?? body.aggregations;
  return isObject(aggs) ? aggs : {};
}

const AGGREGATION_MEMBERS = new Set(['aggs', 'aggregations', 'meta']);

/**
 * top_hits hits keep only `_id` and `_source`: OpenSearch adds `_index`, `_score` and sort values
 * there that the cases do not pin down. Walks the response along the request's aggregation tree.
 */
function normaliseTopHits(aggregations: Record<string, unknown> | undefined, requested: JsonObject): unknown {
  if (aggregations === undefined) return undefined;
  const copy = JSON.parse(JSON.stringify(aggregations)) as JsonObject;
  walk(copy, requested);
  return copy;
}

function walk(level: JsonObject, requested: JsonObject): void {
  for (const [name, definition] of Object.entries(requested)) {
    const result = level[name];
    if (!isObject(definition) || !isObject(result)) continue;
    const type = Object.keys(definition).find((key) => !AGGREGATION_MEMBERS.has(key));
    const subAggregations = requestAggregations(definition);
    if (type === 'top_hits') {
      const hits = isObject(result.hits) && Array.isArray(result.hits.hits) ? (result.hits.hits as JsonObject[]) : [];
      (result.hits as JsonObject).hits = hits.map((hit) => ({ _id: hit._id, ...(hit._source === undefined ? {} : { _source: hit._source }) }));
      continue;
    }
    if (Object.keys(subAggregations).length === 0) continue;
    const buckets = result.buckets;
    const bucketList = Array.isArray(buckets) ? buckets : isObject(buckets) ? Object.values(buckets) : [result];
    for (const bucket of bucketList) if (isObject(bucket)) walk(bucket, subAggregations);
  }
}
