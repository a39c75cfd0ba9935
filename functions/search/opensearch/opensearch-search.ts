import type { Client } from '@opensearch-project/opensearch';
import type { AggregationNode, QueryNode, Scalar, SearchRequest, SortEntry } from '../../../schemas/search-tree';
import { ServiceUnavailableError, ValidationError } from '../../shared/errors';
import { resolveDateMath } from '../dates/date-math';
import { filterSource } from '../source-filter';
import { effectiveSort } from '../effective-sort';
import { resolveField, type FieldRef } from '../fields';
import type { IndexKind, SearchContext, SearchHit, SearchResponse, TenantScope } from '../port';
import { statusOf } from './bulk';
import { documentId, readTarget } from './naming';
import { toOpenSearchQuery, toOpenSearchSearchBody } from './query-body';
import { DOC_ID_FIELD, fromStoredSource, TIME_FIELD } from './stored-source';

/**
 * The search side of the OpenSearch adapter. Every request is wrapped in the tenant filter (org,
 * app and, for events, the time window) as `bool.filter` clauses the caller's query sits beside
 * and cannot loosen; post_filter and aggregations run inside the same query. Answers are reshaped
 * into the port's response: plain ids, sources as indexed, `hits.total` as an integer.
 *
 * Sorting: OpenSearch cannot sort on `_id`, so `_id` sorts on `index_meta.doc_id`, a keyword copy
 * of the plain id. A document without a value sorts where `missing` puts it and reports `null` in
 * `hits[].sort` (OpenSearch reports an extreme number there); `search_after` turns a `null` back
 * into that extreme, so every page continues exactly where the previous one ended. Numbers sort as
 * doubles (`numeric_type`), so monthly indices that mapped a field as long in one month and as
 * double in another still sort together.
 */

type Json = Record<string, unknown>;

export interface OpenSearchTarget {
  readonly client: Client;
  readonly prefix: string;
  /** The tenant filter clauses (see tenantClauses in opensearch-index.ts). */
  readonly wrap: (scope: TenantScope, context?: SearchContext) => Json[];
}

/** Reads that may target indices not created yet (no event in that month) find nothing instead of failing. */
const LENIENT_TARGET = { ignore_unavailable: true, allow_no_indices: true } as const;

// Long.MAX_VALUE and MIN_VALUE do not survive a JS number; they are spliced into the JSON text exactly.
const LONG_MAX_MARKER = '\u0000long-max\u0000';
const LONG_MIN_MARKER = '\u0000long-min\u0000';
/** Above any epoch-millis date and any long a JS number keeps exactly: OpenSearch's "missing" extremes. */
const EXTREME = 2 ** 62;

export async function searchOpenSearch(target: OpenSearchTarget, context: SearchContext, request: SearchRequest): Promise<SearchResponse> {
  const started = Date.now();
  const sort = effectiveSort(context.kind, request.sort);
  const body = toOpenSearchSearchBody(request, target.wrap(context.scope, context), context);
  // Sort and search_after are the adapter's: they depend on the mapping (doc_id, numeric_type, the missing extremes).
  body.sort = sort.map((entry) => sortClause(context, entry));
  if (request.search_after !== undefined) body.search_after = searchAfterValues(context, sort, request.search_after);
  // hits.total is always exact.
  body.track_total_hits = true;
  if (isObject(body.aggs)) adjustAggregations(context, body.aggs, request.aggs);

  const response = await send(() =>
    target.client.search({ index: readTarget(target.prefix, context.kind), ...LENIENT_TARGET, body: serialise(body) as unknown as Json }),
  );
  const answer = response as OpenSearchSearchAnswer;
  failOnShardFailures(answer);
  const hits = (answer.hits?.hits ?? []).map((hit) => reshapeHit(context, hit, request._source));
  const result: { took: number; timed_out: boolean; hits: SearchResponse['hits']; aggregations?: Record<string, unknown> } = {
    took: Date.now() - started,
    timed_out: answer.timed_out === true,
    hits: { total: totalOf(answer.hits?.total), max_score: null, hits },
  };
  if (answer.aggregations !== undefined) result.aggregations = reshapeAggregations(context, answer.aggregations, request.aggs);
  return result;
}

export async function countOpenSearch(target: OpenSearchTarget, context: SearchContext, query: QueryNode): Promise<number> {
  const response = await send(() =>
    target.client.count({ index: readTarget(target.prefix, context.kind), ...LENIENT_TARGET, body: { query: wrapped(target, context, query) } }),
  );
  return Number((response as { count?: number }).count ?? 0);
}

/** Deletes one document of the tenant; false when it has none with this id. */
export async function deleteOpenSearchDocument(target: OpenSearchTarget, scope: TenantScope, kind: IndexKind, id: string): Promise<boolean> {
  const query = { bool: { filter: [{ ids: { values: [documentId(scope.app_id, id)] } }, ...target.wrap(scope)] } };
  return (await deleteByQuery(target, kind, query)) > 0;
}

/** Deletes every document of the kind matching the query, inside the tenant wrap; returns how many. */
export async function deleteMatchingOpenSearch(target: OpenSearchTarget, context: SearchContext, query: QueryNode): Promise<number> {
  return deleteByQuery(target, context.kind, wrapped(target, context, query));
}

async function deleteByQuery(target: OpenSearchTarget, kind: IndexKind, query: Json): Promise<number> {
  const response = (await send(() =>
    target.client.deleteByQuery({ index: readTarget(target.prefix, kind), ...LENIENT_TARGET, refresh: true, conflicts: 'proceed', body: { query } }),
  )) as { deleted?: number; failures?: unknown[] };
  if ((response.failures ?? []).length > 0) {
    throw new ServiceUnavailableError(`OpenSearch deleted ${response.deleted ?? 0} documents, then failed: ${JSON.stringify(response.failures).slice(0, 500)}`);
  }
  return Number(response.deleted ?? 0);
}

function wrapped(target: OpenSearchTarget, context: SearchContext, query: QueryNode): Json {
  const clauses = target.wrap(context.scope, context);
  return { bool: { filter: query.type === 'match_all' ? clauses : [...clauses, toOpenSearchQuery(query, context)] } };
}

/** Runs a request; a request OpenSearch refuses (400) is the caller's mistake, anything else is ours or the cluster's. */
async function send(request: () => Promise<{ body: unknown }>): Promise<unknown> {
  try {
    return (await request()).body;
  } catch (error) {
    if (statusOf(error) === 400) {
      const reason = rootCause(error);
      throw new ValidationError(`The search was refused: ${reason}`, [{ field: 'body', reason }]);
    }
    throw error;
  }
}

function rootCause(error: unknown): string {
  const body = (error as { meta?: { body?: unknown }; body?: unknown }).meta?.body ?? (error as { body?: unknown }).body;
  const cause = (body as { error?: { root_cause?: { reason?: string }[]; reason?: string } } | undefined)?.error;
  return cause?.root_cause?.[0]?.reason ?? cause?.reason ?? (error instanceof Error ? error.message : String(error));
}

interface OpenSearchHit {
  readonly _id: string;
  readonly _source?: Json;
  readonly sort?: unknown[];
}

interface OpenSearchSearchAnswer {
  readonly timed_out?: boolean;
  readonly _shards?: { readonly failed?: number; readonly failures?: { reason?: { type?: string; reason?: string } }[] };
  readonly hits?: { readonly total?: number | { value: number }; readonly hits?: OpenSearchHit[] };
  readonly aggregations?: Json;
}

/** A shard that failed leaves a partial answer: wrong totals and buckets. Refuse it. */
function failOnShardFailures(answer: OpenSearchSearchAnswer): void {
  const failures = answer._shards?.failures ?? [];
  if ((answer._shards?.failed ?? 0) === 0 && failures.length === 0) return;
  const reason = failures.map((failure) => [failure.reason?.type, failure.reason?.reason].filter(Boolean).join(': ')).find(Boolean) ?? 'a shard failed';
  const callerMistake = failures.some((failure) => ['query_shard_exception', 'illegal_argument_exception', 'search_parse_exception'].includes(failure.reason?.type ?? ''));
  if (callerMistake) throw new ValidationError(`The search was refused: ${reason}`, [{ field: 'body', reason }]);
  throw new ServiceUnavailableError(`OpenSearch answered part of the search only: ${reason}`);
}

const totalOf = (total: number | { value: number } | undefined): number => (typeof total === 'number' ? total : (total?.value ?? 0));

// ---------------------------------------------------------------------------------------------
// Sorting and paging

type SortType = 'id' | 'keyword' | 'date' | 'number' | 'boolean' | 'score';

function sortTypeOf(context: SearchContext, entry: SortEntry): { type: SortType; field?: FieldRef } {
  if (entry.field === '_score') return { type: 'score' };
  const field = resolveField(context.kind, entry.field);
  if (field.path === '_id' && !field.raw) return { type: 'id', field };
  if (field.raw || field.type === 'keyword' || field.type === 'id') return { type: 'keyword', field };
  if (field.type === 'text') {
    throw new ValidationError(`Cannot sort on ${entry.field}: use ${entry.field}.raw`, [{ field: 'sort', reason: `${entry.field} is a text field; sort on ${entry.field}.raw` }]);
  }
  if (field.type === 'date') return { type: 'date', field };
  if (field.type === 'boolean') return { type: 'boolean', field };
  return { type: 'number', field };
}

/** The field as the mapping names it: `time` and `_id` live under index_meta. */
function mappedName(field: FieldRef): string {
  if (field.path === '_id' && !field.raw) return DOC_ID_FIELD;
  const path = field.path === 'time' ? TIME_FIELD : field.path;
  return field.raw ? `${path}.raw` : path;
}

const UNMAPPED_TYPE: Record<Exclude<SortType, 'score'>, string> = { id: 'keyword', keyword: 'keyword', date: 'date', number: 'double', boolean: 'boolean' };

export function sortClause(context: SearchContext, entry: SortEntry): Json {
  const { type, field } = sortTypeOf(context, entry);
  if (type === 'score' || field === undefined) return { _score: { order: entry.order } };
  let missing: unknown = entry.missing;
  if (type === 'date' && missing !== '_last' && missing !== '_first' && typeof missing !== 'boolean') {
    missing = resolveDateMath(missing as string | number, context.now, context.timeZone, false, { field: 'sort' });
  }
  const spec: Json = { order: entry.order, missing, unmapped_type: entry.unmapped_type ?? UNMAPPED_TYPE[type] };
  if (type === 'number') spec.numeric_type = 'double';
  return { [mappedName(field)]: spec };
}

/** Whether OpenSearch puts a document without a value above every value (so it reports the largest extreme). */
const missingIsHighest = (entry: SortEntry): boolean => (entry.missing === '_first') === (entry.order === 'desc');

/** Our sort values as OpenSearch expects them back. */
export function searchAfterValues(context: SearchContext, sort: readonly SortEntry[], values: readonly (Scalar | null)[]): unknown[] {
  if (values.length !== sort.length) {
    throw new ValidationError(`search_after has ${values.length} values but the sort has ${sort.length}`, [
      { field: 'search_after', reason: `give one value per sort key (the sort, with the _id tie-breaker, has ${sort.length})` },
    ]);
  }
  return sort.map((entry, position) => {
    const value = values[position] ?? null;
    const { type } = sortTypeOf(context, entry);
    switch (type) {
      case 'score':
        return value ?? 0;
      case 'id':
      case 'keyword':
        return value === null ? null : String(value);
      case 'date':
        if (value === null) return missingIsHighest(entry) ? LONG_MAX_MARKER : LONG_MIN_MARKER;
        return typeof value === 'boolean' ? value : resolveDateMath(value, context.now, context.timeZone, false, { field: `search_after[${position}]` });
      case 'number':
        if (value === null) return missingIsHighest(entry) ? 'Infinity' : '-Infinity';
        return value;
      case 'boolean':
        return value === null ? (missingIsHighest(entry) ? LONG_MAX_MARKER : LONG_MIN_MARKER) : value;
    }
  });
}

/** OpenSearch's sort values as we report them: a missing value (an extreme) as null. */
export function reportedSortValues(values: readonly unknown[] | undefined): unknown[] | undefined {
  return values?.map((value) => {
    if (value === 'Infinity' || value === '-Infinity') return null;
    if (typeof value === 'number' && Math.abs(value) >= EXTREME) return null;
    return value;
  });
}

function serialise(body: Json): string {
  return JSON.stringify(body).replaceAll(JSON.stringify(LONG_MAX_MARKER), '9223372036854775807').replaceAll(JSON.stringify(LONG_MIN_MARKER), '-9223372036854775808');
}

/**
 * Two things the body serializer leaves to the adapter. top_hits sorts like the hits do (`_id` on
 * the keyword copy). And a terms aggregation never asks for empty buckets: with min_doc_count 0,
 * OpenSearch lists every term of the shard, other tenants' too, with a count of 0. A bucket of the
 * caller's own documents has at least one, so 1 answers the same for everything the caller may see.
 */
function adjustAggregations(context: SearchContext, bodies: Json, nodes: Record<string, AggregationNode>): void {
  for (const [name, node] of Object.entries(nodes)) {
    const body = bodies[name];
    if (!isObject(body)) continue;
    if (node.type === 'top_hits' && isObject(body.top_hits)) {
      body.top_hits.sort = effectiveSort(context.kind, node.sort).map((entry) => sortClause(context, entry));
    }
    if (node.type === 'terms' && isObject(body.terms)) body.terms.min_doc_count = Math.max(1, node.min_doc_count);
    if (isObject(body.aggs)) adjustAggregations(context, body.aggs, node.aggs);
  }
}

// ---------------------------------------------------------------------------------------------
// Answers

function reshapeHit(context: SearchContext, hit: OpenSearchHit, source: SearchRequest['_source']): SearchHit {
  const prefix = `${context.scope.app_id}:`;
  const reshaped: { _id: string; _source?: Record<string, unknown>; sort?: unknown[] } = {
    _id: hit._id.startsWith(prefix) ? hit._id.slice(prefix.length) : hit._id,
  };
  if (source !== false && hit._source !== undefined) reshaped._source = filterSource(fromStoredSource(hit._source), source.includes, source.excludes);
  if (hit.sort !== undefined) reshaped.sort = reportedSortValues(hit.sort);
  return reshaped;
}

/** OpenSearch's aggregations already have the port's shape, but for the hits of top_hits. */
function reshapeAggregations(context: SearchContext, answers: Json, nodes: Record<string, AggregationNode>): Record<string, unknown> {
  const reshaped: Record<string, unknown> = {};
  for (const [name, node] of Object.entries(nodes)) {
    const answer = answers[name];
    if (!isObject(answer)) {
      reshaped[name] = answer;
      continue;
    }
    if (node.type === 'top_hits') {
      const hits = isObject(answer.hits) ? (answer.hits as { total?: number | { value: number }; hits?: OpenSearchHit[] }) : {};
      reshaped[name] = {
        hits: { total: totalOf(hits.total), max_score: null, hits: (hits.hits ?? []).map((hit) => reshapeHit(context, hit, node._source)) },
      };
      continue;
    }
    reshaped[name] = Object.keys(node.aggs).length === 0 ? answer : withSubAggregations(context, answer, node.aggs);
  }
  return reshaped;
}

function withSubAggregations(context: SearchContext, answer: Json, nodes: Record<string, AggregationNode>): Json {
  const buckets = answer.buckets;
  if (Array.isArray(buckets)) return { ...answer, buckets: buckets.map((bucket) => (isObject(bucket) ? { ...bucket, ...reshapeAggregations(context, bucket, nodes) } : bucket)) };
  if (isObject(buckets)) {
    return {
      ...answer,
      buckets: Object.fromEntries(Object.entries(buckets).map(([key, bucket]) => [key, isObject(bucket) ? { ...bucket, ...reshapeAggregations(context, bucket, nodes) } : bucket])),
    };
  }
  // A single-bucket aggregation (filter): its sub-aggregations sit beside doc_count.
  return { ...answer, ...reshapeAggregations(context, answer, nodes) };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
