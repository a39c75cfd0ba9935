import type { ArrivalLags } from './arrival-lags';
import type { AnalysisActor, FunnelAnswer, RetentionAnswer } from '../../schemas/event-analyses';
import type { CohortEventCondition } from '../../schemas/resources/cohort';
import type { QueryNode, SearchRequest, SortValue } from '../../schemas/search-tree';
import type { FunnelQuery, RetentionQuery } from './analyses/analysis-queries';

/**
 * The search port: what ingestion and the management API need from a search backend. Two adapters
 * implement it: OpenSearch (AWS) and DuckDB (local, embedded). Both must answer identically.
 */

export type IndexKind = 'events' | 'users' | 'companies' | 'subscriptions';
export const INDEX_KINDS: readonly IndexKind[] = ['events', 'users', 'companies', 'subscriptions'];

/** Every read is confined to one app of one org. */
export interface TenantScope {
  readonly org_id: string;
  readonly app_id: string;
}

export interface IndexDocument {
  readonly kind: IndexKind;
  /** Unique within (org, app, kind): event id, user_id, company_id or subscription_id. */
  readonly id: string;
  readonly org_id: string;
  readonly app_id: string;
  /** Event time, or the profile's last update; ISO 8601 UTC. Events are partitioned by it. */
  readonly time: string;
  /**
   * Profiles: the stored version; a write with a version not above the indexed one is ignored, so
   * concurrent or replayed profile writes cannot regress the index. Events: absent; an event id
   * that is already indexed is left as it is (create-if-absent), so replays cannot double-index.
   */
  readonly version?: number;
  /** The document as searched and returned as `_source` (includes org_id, app_id). */
  readonly source: Readonly<Record<string, unknown>>;
}

export interface IndexFailure {
  readonly kind: IndexKind;
  readonly id: string;
  readonly reason: string;
  /** false for a document the backend will never accept (mapping conflict): retrying cannot help. */
  readonly retryable: boolean;
}

export interface IndexOutcome {
  /** Documents newly written (not counting ignored duplicates or stale versions). */
  readonly written: number;
  readonly failures: readonly IndexFailure[];
}

export interface TimeRange {
  /** Inclusive. */
  readonly from?: Date;
  /** Exclusive. */
  readonly to?: Date;
}

export interface StoredDocument {
  readonly _id: string;
  readonly _source: Record<string, unknown>;
}

export interface SearchIndex {
  /** Creates tables / index templates if missing. Idempotent. */
  ensureReady(): Promise<void>;
  index(documents: readonly IndexDocument[]): Promise<IndexOutcome>;
  count(scope: TenantScope, kind: IndexKind, range?: TimeRange): Promise<number>;
  /** `time` narrows where to look for an event (the index of its month); optional. */
  get(scope: TenantScope, kind: IndexKind, id: string, hint?: { time?: Date }): Promise<StoredDocument | undefined>;
  /** Makes everything written so far visible to reads (OpenSearch refresh; no-op where writes are visible at once). */
  refresh(): Promise<void>;
  /**
   * An anonymous visitor was identified (moesif-browser-js sends anonymous_id until then): sets
   * user_id on the tenant's events with this anonymous_id that carry no user_id; returns how many.
   * Only user_id: company_id and subscription_id, which billing reads, never change afterwards.
   */
  attributeVisitor(scope: TenantScope, anonymousId: string, userId: string): Promise<number>;
  /**
   * Storage that normal writes no longer reach brought into its most compact form (OpenSearch: a
   * settled month's events index merged into one segment, as a cluster task); returns what it
   * started on. DuckDB compacts at its own checkpoints, so it has nothing to do.
   */
  compactSettled(now: Date): Promise<readonly string[]>;
  close(): Promise<void>;
}

/**
 * The one customer a read is for (a customer token's company, and its subscription when the token
 * binds one): every event the read sees must carry these values, whatever its query says.
 */
export interface CustomerBound {
  readonly company_id: string;
  readonly subscription_id?: string;
}

/** Where a search runs: the tenant, the index, the `from`/`to` window and the time zone of the request. */
export interface SearchContext {
  readonly scope: TenantScope;
  /** Confines the read to one customer's events, in the engine's own tenant filter (customer tokens). */
  readonly customer?: CustomerBound;
  readonly kind: IndexKind;
  /** Events only: confines hits and aggregations to this window of event time. */
  readonly range?: TimeRange;
  /**
   * Events only: voided events (event-voids) are left out of every read unless asked for: `include`
   * reads them beside the others, `only` reads them alone.
   */
  readonly voided?: VoidedEvents;
  /** TZ database name for date math and calendar buckets that name none themselves. */
  readonly timeZone: string;
  /** The request's "now", so relative dates in one request agree. */
  readonly now: Date;
  /**
   * Stops the query when it aborts (time budget spent, caller gone): the backend cancels its work
   * (DuckDB interrupt, OpenSearch connection closed) and rejects with the signal's reason.
   */
  readonly signal?: AbortSignal;
}

/** Which events a read sees of those voided: by default none. */
export type VoidedEvents = 'include' | 'only';

/** The fields a void writes into each event it marks (schemas/event-voids.ts). */
export interface EventVoidMark {
  readonly void_id: string;
  /** ISO 8601. */
  readonly voided_at: string;
}

/** The source fields holding a void's mark: set by the service only (the collector refuses them). */
export const VOIDED_AT_FIELD = 'voided_at';
export const VOID_ID_FIELD = 'void_id';

export interface SearchHit {
  readonly _id: string;
  readonly _source?: Record<string, unknown>;
  /** The hit's sort values: pass the last hit's as `search_after` for the next page. */
  readonly sort?: SortValue[];
}

/** The response shape of both backends (OpenSearch's, with `hits.total` as an integer). */
export interface SearchResponse {
  readonly took: number;
  readonly timed_out: boolean;
  readonly hits: { readonly total: number; readonly max_score: null; readonly hits: readonly SearchHit[] };
  readonly aggregations?: Record<string, unknown>;
}

/** Search over one index, on top of the ingest-side operations. */
export interface SearchableIndex extends SearchIndex {
  search(context: SearchContext, request: SearchRequest): Promise<SearchResponse>;
  countMatching(context: SearchContext, query: QueryNode): Promise<number>;
  /** Events matching `query` in the context's range, counted by how long after their time they arrived (arrival-lags.ts). */
  arrivalLags(context: SearchContext, query: QueryNode): Promise<ArrivalLags>;
  /** Deletes one document; false when there was none. */
  delete(scope: TenantScope, kind: IndexKind, id: string): Promise<boolean>;
  /**
   * Deletes every document of the kind matching the query (e.g. a deleted user's events). A backend
   * that can take longer than a request may answer while it runs (OpenSearch: a task), with a
   * `task` to follow through deletionProgress; otherwise the answer is complete.
   */
  deleteMatching(context: SearchContext, query: QueryNode): Promise<DeletionProgress>;
  /**
   * Marks every event matching `query` in the context's range that is not voided yet as voided
   * (`voided_at`, `void_id` in its source), so reads leave it out unless they ask for it; answers
   * how many were marked. The whole update is visible to reads before it answers.
   */
  voidEvents(context: SearchContext, query: QueryNode, mark: EventVoidMark): Promise<number>;
  /** Where a running deletion stands; undefined when the backend knows no such task. */
  deletionProgress(task: string): Promise<DeletionProgress | undefined>;
  /** A funnel over the context's events (kind events; rules in analyses/actor-journeys.ts). */
  funnel(context: SearchContext, query: FunnelQuery): Promise<FunnelAnswer>;
  /** A retention table over the context's events; the context's range must have a `from` (400 otherwise). */
  retention(context: SearchContext, query: RetentionQuery): Promise<RetentionAnswer>;
  /**
   * The actors with an event matching the condition in the context's window whose measure compares
   * as it says (a cohort's behavioural condition, applied in the engine), ascending by id in UTF-8
   * byte order (values/utf8-order.ts), a page at a time.
   */
  actorsMeeting(context: SearchContext, condition: ActorCondition): AsyncIterable<readonly string[]>;
  /**
   * The first `limit` profiles of the context's kind (users or companies) matching `profiles` whose
   * behaviour passes the request's conditions (a cohort's fixed-window conditions), ascending by id
   * in UTF-8 byte order, a page at a time, each hit with only the `includes` fields of its source
   * (none: no source).
   */
  membersMeeting(context: SearchContext, request: MembersRequest): AsyncIterable<readonly SearchHit[]>;
}

/** A cohort's members as membersMeeting lists them. */
export interface MembersRequest {
  readonly profiles: QueryNode;
  /** Each condition over its own window of events: a member must have performed it, or not. */
  readonly conditions: readonly { readonly condition: ActorCondition; readonly range: TimeRange; readonly performed: boolean }[];
  /** Whether every condition must pass, or one. */
  readonly match: 'all' | 'any';
  readonly includes: readonly string[];
  /** At most this many members (a caller's cap, and one more to know it was reached). */
  readonly limit: number;
}

/** What actorsMeeting applies; the parsed form of a cohort's event condition (schemas/resources/cohort.ts). */
export interface ActorCondition {
  readonly by: AnalysisActor;
  /** The events that count (match_all: every event). */
  readonly query: QueryNode;
  readonly measure: NonNullable<CohortEventCondition['measure']>;
  /** The field whose distinct values a `distinct` measure counts (checked aggregatable by the caller). */
  readonly field?: string;
  readonly operator: NonNullable<CohortEventCondition['operator']>;
  readonly value: number;
}

/** A deletion of matching documents, done or under way. */
export interface DeletionProgress {
  /** The backend's handle while the deletion runs in the background. */
  readonly task?: string;
  readonly completed: boolean;
  /** Documents deleted so far. */
  readonly deleted: number;
  /** Documents found to delete, once the backend has counted them. */
  readonly total?: number;
  /** Why a completed deletion did not delete everything. */
  readonly error?: string;
}
