import type { Client } from '@opensearch-project/opensearch';
import type { AggregationNode, QueryNode, SearchRequest, SortValue } from '../../../schemas/search-tree';
import { abortable } from '../abortable';
import { ServiceUnavailableError, ValidationError } from '../../shared/errors';
import { assertAnswerBuckets, assertGuaranteedBuckets, bucketCapError, bucketExplosionMember } from '../bucket-cap';
import { filterSource } from '../source-filter';
import { trackedTotal, untrackedTotal } from '../total-hits';
import type { DeletionProgress, IndexKind, SearchContext, SearchHit, SearchResponse, TenantScope } from '../port';
import { statusOf } from './bulk';
import { documentId, readTarget } from './naming';
import { effectiveSort } from '../effective-sort';
import { idSortPosition, toOpenSearchQuery, toOpenSearchSearchBody } from './query-body';
import { LENIENT_TARGET, searchRequest } from './search-request';
import { reportedSortValues } from './sort';
import { applyTenantTerms, tenantTermsBody, zeroBucketTerms } from './zero-buckets';
import { DOC_ID_FIELD, fromStoredSource, TIME_FIELD } from './stored-source';
import { ARRIVAL_LAG_EDGES_MS, type ArrivalLags } from '../arrival-lags';
import type { Aggregations, QueryClause, SearchBody } from './request-types';
import { pagesByTime, timeThenIdPage } from './time-pages';

/**
 * The search side of the OpenSearch adapter. Every request is wrapped in the tenant filter (org,
 * app and, for events, the time window) as `bool.filter` clauses the caller's query sits beside
 * and cannot loosen; post_filter and aggregations run inside the same query. Answers are reshaped
 * into the port's response: plain ids, sources as indexed, `hits.total` as an integer (total-hits.ts).
 * The bucket cap is counted as DuckDB counts it (bucket-cap.ts), the cluster's own refusal included.
 * Sorting and paging: sort.ts.
 */

type Json = Record<string, unknown>;

export interface OpenSearchTarget {
  readonly client: Client;
  readonly prefix: string;
  /** The tenant filter clauses (see tenantClauses in opensearch-index.ts). */
  readonly wrap: (scope: TenantScope, context?: SearchContext) => QueryClause[];
}

export async function searchOpenSearch(target: OpenSearchTarget, context: SearchContext, request: SearchRequest): Promise<SearchResponse> {
  const started = Date.now();
  assertGuaranteedBuckets(request.aggs, context);
  const body = toOpenSearchSearchBody(request, target.wrap(context.scope, context), context);
  body.track_total_hits = trackTotalHits(request.track_total_hits);
  if (body.aggs !== undefined) await withZeroBuckets(target, context, body.aggs, request.aggs);

  const run = (page: SearchBody) => searchAnswer(target, context, page, { aggs: request.aggs });
  const answer = pagesByTime(body) ? await timeThenIdPage(body, (hit: OpenSearchHit) => hitId(context, hit), run) : await run(body);
  assertAnswerBuckets(answer.aggregations, request.aggs);
  const idPosition = request._source === false ? idSortPosition(effectiveSort(context.kind, request.sort)) : undefined;
  const hits = (answer.hits?.hits ?? []).map((hit) => reshapeHit(context, hit, request._source, idPosition));
  const track = request.track_total_hits;
  const total = track === false ? untrackedTotal(request.from, hits.length) : trackedTotal(totalOf(answer.hits?.total), track);
  const result: { took: number; timed_out: boolean; hits: SearchResponse['hits']; aggregations?: Record<string, unknown> } = {
    took: Date.now() - started,
    timed_out: answer.timed_out === true,
    hits: { total, max_score: null, hits },
  };
  if (answer.aggregations !== undefined) result.aggregations = reshapeAggregations(context, answer.aggregations, request.aggs);
  return result;
}

/**
 * One `_search` over the context's kind (its indices, or `index` alone), as every read of the
 * adapter sends it (searches, analyses, cohort conditions): stopped by the context's signal, a
 * refused body a 400 naming why (the bucket cap naming the aggregation of `aggs`), and a partial
 * answer (a shard failed) refused.
 */
export async function searchAnswer(
  target: OpenSearchTarget,
  context: SearchContext,
  body: SearchBody,
  { aggs = {}, index = readTarget(target.prefix, context.kind) }: { aggs?: Record<string, AggregationNode>; index?: string } = {},
): Promise<OpenSearchSearchAnswer> {
  const answer = (await send(() => searchRequest(target.client, index, body), aggs, context.signal)) as OpenSearchSearchAnswer;
  failOnShardFailures(answer, aggs);
  return answer;
}

/** OpenSearch reads track_total_hits as a Java int: a number beyond it can only mean "count them all". */
function trackTotalHits(track: boolean | number): boolean | number {
  return typeof track === 'number' && track >= 2 ** 31 - 1 ? true : track;
}

/**
 * terms with min_doc_count 0 list the caller's own terms only (zero-buckets.ts): one request finds them
 * first, over the tenant (and a bound customer) without the time window.
 */
async function withZeroBuckets(target: OpenSearchTarget, context: SearchContext, bodies: Aggregations, nodes: Record<string, AggregationNode>): Promise<void> {
  const wanted = zeroBucketTerms(bodies, nodes);
  if (wanted.length === 0) return;
  const answer = (await send(
    () => searchRequest(target.client, readTarget(target.prefix, context.kind), tenantTermsBody(target.wrap(context.scope, { ...context, range: {} }), wanted)),
    nodes,
    context.signal,
  )) as OpenSearchSearchAnswer;
  failOnShardFailures(answer, nodes);
  applyTenantTerms(wanted, answer.aggregations);
}

export async function countOpenSearch(target: OpenSearchTarget, context: SearchContext, query: QueryNode): Promise<number> {
  const response = await send(
    () => target.client.count({ index: readTarget(target.prefix, context.kind), ...LENIENT_TARGET, body: { query: wrapped(target, context, query) } }),
    undefined,
    context.signal,
  );
  return Number((response as { count?: number }).count ?? 0);
}

/**
 * Events by how long after their time they arrived: a range aggregation over a script's lag (doc
 * values of both dates), with the same buckets as DuckDB's (arrival-lags.ts).
 */
export async function arrivalLagsOnOpenSearch(target: OpenSearchTarget, context: SearchContext, query: QueryNode): Promise<ArrivalLags> {
  const edges = ARRIVAL_LAG_EDGES_MS;
  const ranges = [...edges.map((to, k) => (k === 0 ? { to } : { from: edges[k - 1], to })), { from: edges.at(-1) }];
  const body = {
    size: 0,
    track_total_hits: false,
    query: { bool: { filter: [wrapped(target, context, query), { exists: { field: 'received_at' } }] } },
    aggs: {
      lags: {
        range: {
          script: { lang: 'painless', source: `doc['received_at'].value.toInstant().toEpochMilli() - doc['${TIME_FIELD}'].value.toInstant().toEpochMilli()` },
          ranges,
        },
      },
    },
  };
  const response = (await send(
    () => target.client.search({ index: readTarget(target.prefix, context.kind), ...LENIENT_TARGET, body: body as never }),
    undefined,
    context.signal,
  )) as { aggregations?: { lags?: { buckets?: { doc_count: number }[] } } };
  const counts = (response.aggregations?.lags?.buckets ?? []).map((bucket) => bucket.doc_count);
  return { events: counts.reduce((sum, n) => sum + n, 0), counts };
}

/** Deletes one document of the tenant; false when it has none with this id. */
export async function deleteOpenSearchDocument(target: OpenSearchTarget, scope: TenantScope, kind: IndexKind, id: string): Promise<boolean> {
  const query: QueryClause = { bool: { filter: [{ ids: { values: [documentId(scope.app_id, id)] } }, ...target.wrap(scope)] } };
  return (await deleteByQuery(target, kind, query)) > 0;
}

/** Deletes every document of the kind matching the query, inside the tenant wrap; returns how many. */
/**
 * Starts a delete-by-query as a background task: on a large tenant it can outlast API Gateway's
 * 29 s. OpenSearch keeps the task's result in its .tasks index, so its progress can be read later.
 */
export async function deleteMatchingOpenSearch(target: OpenSearchTarget, context: SearchContext, query: QueryNode): Promise<DeletionProgress> {
  const response = (await send(() =>
    target.client.deleteByQuery({
      index: readTarget(target.prefix, context.kind),
      ...LENIENT_TARGET,
      refresh: true,
      conflicts: 'proceed',
      slices: 'auto',
      wait_for_completion: false,
      body: { query: wrapped(target, context, query) },
    }),
  )) as { task?: string };
  if (!response.task) throw new ServiceUnavailableError('OpenSearch did not start the deletion task; retry');
  return { task: response.task, completed: false, deleted: 0 };
}

/** A task of the cluster as `GET _tasks/{id}` answers it (a delete- or update-by-query). */
export interface TaskAnswer {
  completed?: boolean;
  task?: { status?: { total?: number; deleted?: number } };
  response?: { total?: number; deleted?: number; updated?: number; version_conflicts?: number; failures?: unknown[] };
  error?: { type?: string; reason?: string };
}

/** A delete-by-query task's progress; undefined when OpenSearch knows no such task. */
export async function deletionProgressOpenSearch(target: OpenSearchTarget, task: string): Promise<DeletionProgress | undefined> {
  let answer: TaskAnswer;
  try {
    answer = (await target.client.tasks.get({ task_id: task })).body as TaskAnswer;
  } catch (error) {
    if (statusOf(error) === 404) return undefined;
    throw error;
  }
  const counts = answer.response ?? answer.task?.status ?? {};
  const failures = answer.response?.failures ?? [];
  const error = answer.error
    ? `${answer.error.type ?? 'error'}: ${answer.error.reason ?? ''}`
    : failures.length > 0
      ? `${failures.length} failure(s), first: ${JSON.stringify(failures[0]).slice(0, 300)}`
      : undefined;
  return {
    task,
    completed: answer.completed === true,
    deleted: Number(counts.deleted ?? 0),
    ...(counts.total === undefined ? {} : { total: Number(counts.total) }),
    ...(error ? { error } : {}),
  };
}

async function deleteByQuery(target: OpenSearchTarget, kind: IndexKind, query: QueryClause): Promise<number> {
  const response = (await send(() =>
    target.client.deleteByQuery({ index: readTarget(target.prefix, kind), ...LENIENT_TARGET, refresh: true, conflicts: 'proceed', body: { query } }),
  )) as { deleted?: number; failures?: unknown[] };
  if ((response.failures ?? []).length > 0) {
    throw new ServiceUnavailableError(`OpenSearch deleted ${response.deleted ?? 0} documents, then failed: ${JSON.stringify(response.failures).slice(0, 500)}`);
  }
  return Number(response.deleted ?? 0);
}

/** The query inside the context's tenant wrap (tenant, window, voided events, customer). */
export function wrapped(target: OpenSearchTarget, context: SearchContext, query: QueryNode): QueryClause {
  const clauses = target.wrap(context.scope, context);
  return { bool: { filter: query.type === 'match_all' ? clauses : [...clauses, toOpenSearchQuery(query, context)] } };
}

/**
 * Runs a request; a request OpenSearch refuses (400) is the caller's mistake, anything else is ours or the cluster's.
 * A search with aggregations that the cluster refuses for its bucket limit gets the bucket cap's 400.
 */
/**
 * One request to the cluster, its errors as the service's: a refused body is a 400 naming why, the
 * bucket cap a 400 naming the aggregation. A context's signal stops it (the connection is closed, so
 * OpenSearch cancels the search task).
 */
export async function send(
  request: () => Promise<{ body: unknown }> & { abort?: () => void },
  aggs?: Record<string, AggregationNode>,
  signal?: AbortSignal,
): Promise<unknown> {
  try {
    const pending = request();
    return (await abortable(signal, pending, () => pending.abort?.())).body;
  } catch (error) {
    if (aggs !== undefined && mentionsTooManyBuckets(errorBody(error))) throw bucketCapError(bucketExplosionMember(aggs));
    if (statusOf(error) === 400) {
      const reason = rootCause(error);
      throw new ValidationError(`The search was refused: ${reason}`, [{ field: 'body', reason }]);
    }
    throw error;
  }
}

const errorBody = (error: unknown): unknown => (error as { meta?: { body?: unknown }; body?: unknown }).meta?.body ?? (error as { body?: unknown }).body;

interface ErrorCause {
  readonly root_cause?: { reason?: string }[];
  readonly reason?: string;
  readonly caused_by?: ErrorCause;
}

/** The first reason OpenSearch gives in words: the root cause's, the error's, or (a failed script's error has neither) its deepest cause's. */
function rootCause(error: unknown): string {
  const cause = (errorBody(error) as { error?: ErrorCause } | undefined)?.error;
  let deepest = cause;
  for (let depth = 0; deepest?.caused_by && depth < 8; depth += 1) deepest = deepest.caused_by;
  return [cause?.root_cause?.[0]?.reason, cause?.reason, deepest?.reason].find((reason) => reason) ?? (error instanceof Error ? error.message : String(error));
}

/** Past search.max_buckets OpenSearch fails with too_many_buckets_exception: as the error, its root or shard causes. */
function mentionsTooManyBuckets(value: unknown, depth = 0): boolean {
  if (depth > 8 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => mentionsTooManyBuckets(item, depth + 1));
  const object = value as Json;
  if (object.type === 'too_many_buckets_exception') return true;
  return ['error', 'root_cause', 'caused_by', 'failed_shards', 'reason', 'failures'].some((key) => mentionsTooManyBuckets(object[key], depth + 1));
}

export interface OpenSearchHit {
  /** Absent when the request fetched no stored fields: the id is then in `fields` (doc_id's doc values). */
  readonly _id?: string;
  readonly fields?: Record<string, unknown[]>;
  readonly _source?: Json;
  readonly sort?: unknown[];
}

export interface OpenSearchSearchAnswer {
  readonly timed_out?: boolean;
  readonly _shards?: { readonly total?: number; readonly failed?: number; readonly failures?: { reason?: { type?: string; reason?: string } }[] };
  readonly hits?: { readonly total?: number | { value: number }; readonly hits?: OpenSearchHit[] };
  readonly aggregations?: Json;
}

/** A shard that failed leaves a partial answer: wrong totals and buckets. Refuse it. */
function failOnShardFailures(answer: OpenSearchSearchAnswer, aggs: Record<string, AggregationNode>): void {
  const failures = answer._shards?.failures ?? [];
  if ((answer._shards?.failed ?? 0) === 0 && failures.length === 0) return;
  if (mentionsTooManyBuckets(failures)) throw bucketCapError(bucketExplosionMember(aggs));
  const reason = failures.map((failure) => [failure.reason?.type, failure.reason?.reason].filter(Boolean).join(': ')).find(Boolean) ?? 'a shard failed';
  const callerMistake = failures.some((failure) =>
    ['query_shard_exception', 'illegal_argument_exception', 'search_parse_exception'].includes(failure.reason?.type ?? ''),
  );
  if (callerMistake) throw new ValidationError(`The search was refused: ${reason}`, [{ field: 'body', reason }]);
  throw new ServiceUnavailableError(`OpenSearch answered part of the search only: ${reason}`);
}

export const totalOf = (total: number | { value: number } | undefined): number => (typeof total === 'number' ? total : (total?.value ?? 0));

// ---------------------------------------------------------------------------------------------
// Answers

/**
 * A document's own id: its sort value in a listing in id order, doc_id's doc values when the request
 * asked for them, else OpenSearch's `_id` without the app prefix (naming.ts documentId).
 */
function hitId(context: SearchContext, hit: OpenSearchHit, idPosition?: number): string {
  const fromSort = idPosition === undefined ? undefined : hit.sort?.[idPosition];
  if (typeof fromSort === 'string') return fromSort;
  const fromDocValues = hit.fields?.[DOC_ID_FIELD]?.[0];
  if (typeof fromDocValues === 'string') return fromDocValues;
  const id = hit._id ?? '';
  const prefix = `${context.scope.app_id}:`;
  return id.startsWith(prefix) ? id.slice(prefix.length) : id;
}

function reshapeHit(context: SearchContext, hit: OpenSearchHit, source: SearchRequest['_source'], idPosition?: number): SearchHit {
  const reshaped: { _id: string; _source?: Record<string, unknown>; sort?: SortValue[] } = { _id: hitId(context, hit, idPosition) };
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
  if (Array.isArray(buckets))
    return { ...answer, buckets: buckets.map((bucket) => (isObject(bucket) ? { ...bucket, ...reshapeAggregations(context, bucket, nodes) } : bucket)) };
  if (isObject(buckets)) {
    return {
      ...answer,
      buckets: Object.fromEntries(
        Object.entries(buckets).map(([key, bucket]) => [key, isObject(bucket) ? { ...bucket, ...reshapeAggregations(context, bucket, nodes) } : bucket]),
      ),
    };
  }
  // A single-bucket aggregation (filter): its sub-aggregations sit beside doc_count.
  return { ...answer, ...reshapeAggregations(context, answer, nodes) };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
