import type { ArrivalLags } from '../arrival-lags';
import type { Client } from '@opensearch-project/opensearch';
import { documentProblem } from '../index-documents';
import { customerTerms } from '../customer-bound';
import { toOpenSearchQuery } from './query-body';
import type { FunnelAnswer, RetentionAnswer } from '../../../schemas/event-analyses';
import type { QueryNode, SearchRequest } from '../../../schemas/search-tree';
import type { FunnelQuery, RetentionQuery } from '../analyses/analysis-queries';
import { windowPeriods } from '../analyses/retention-periods';
import { walkMembers } from '../members-walk';
import {
  VOIDED_AT_FIELD,
  type ActorCondition,
  type EventVoidMark,
  type MembersRequest,
  type VoidedEvents,
  type SearchHit,
  type DeletionProgress,
  type IndexDocument,
  type IndexFailure,
  type IndexKind,
  type IndexOutcome,
  type SearchableIndex,
  type SearchContext,
  type SearchResponse,
  type StoredDocument,
  type TenantScope,
  type TimeRange,
} from '../port';
import { mapWithConcurrency } from '../../shared/concurrency';
import { bulkChunks, bulkOutcome, DEFAULT_BULK_LIMITS, failedChunkOutcome, type BulkLimits, type BulkResponseItem } from './bulk';
import { allIndices, assertValidIndexPrefix, documentId, eventsIndexName, PROFILE_KINDS, profileIndexName, readTarget } from './naming';
import { funnelOnOpenSearch, retentionOnOpenSearch, type PassSizes } from './event-analyses';
import { actorsMeetingOnOpenSearch } from './actor-conditions';
import { documentIdsInOrder } from './values-in-order';
import { voidEventsOpenSearch } from './event-voids';
import { compactSettledMonths } from './compaction';
import {
  countOpenSearch,
  arrivalLagsOnOpenSearch,
  deleteMatchingOpenSearch,
  deleteOpenSearchDocument,
  deletionProgressOpenSearch,
  searchOpenSearch,
  type OpenSearchTarget,
} from './opensearch-search';
import { attributeVisitorOpenSearch } from './visitor-attribution';
import { fromStoredSource, TIME_FIELD } from './stored-source';
import type { DateRangeQuery, QueryClause } from './request-types';
import { LENIENT_TARGET } from './search-request';
import { commonComponentTemplate, indexTemplates } from './templates';

export interface OpenSearchIndexOptions {
  /** Built by the caller (see client.ts), who also closes it. */
  readonly client: Client;
  /** Prepended to every index and template name, so several deployments can share a domain. */
  readonly indexPrefix?: string;
  readonly bulkLimits?: BulkLimits;
  /** Replicas of every index (default 1); 0 on a one-node domain, where a replica cannot be placed. */
  readonly replicas?: number;
  /**
   * OpenSearch's search backpressure mode, applied to the cluster when the index is made ready
   * (`enforced` on AWS: under duress the node cancels the most resource-hungry search tasks, so one
   * tenant's heavy searches cannot starve the others'); unset: the cluster's own setting is kept.
   */
  readonly searchBackpressure?: 'monitor_only' | 'enforced';
  /**
   * Actors a page of a cohort condition, or of a funnel's or retention table's listing of its actors,
   * covers (default: as many as the node allows); tests shrink it to walk several pages.
   */
  readonly actorsPerPage?: number;
  /**
   * Profiles a page of a cohort's member walk holds (default 10,000 hits, or 65,000 ids listed
   * alone), and the most actors looked up by id (10,000); tests shrink it to take every way.
   */
  readonly membersPerPage?: number;
  /** The events one pass of a funnel or retention table holds (default 500,000, two passes at once); tests shrink it to read a window in several passes. */
  readonly eventsPerAnalysisPass?: number;
}

export function createOpenSearchIndex(options: OpenSearchIndexOptions): SearchableIndex {
  const prefix = options.indexPrefix ?? '';
  assertValidIndexPrefix(prefix);
  return new OpenSearchIndex(
    options.client,
    prefix,
    options.bulkLimits ?? DEFAULT_BULK_LIMITS,
    options.replicas ?? 1,
    options.searchBackpressure,
    options.actorsPerPage,
    options.membersPerPage,
    options.eventsPerAnalysisPass,
  );
}

/** Filter clauses matching only the caller's own documents and, when given, those whose time is in [from, to). */
export function tenantClauses(scope: TenantScope, range: TimeRange = {}): QueryClause[] {
  const clauses: QueryClause[] = [{ term: { org_id: scope.org_id } }, { term: { app_id: scope.app_id } }];
  if (range.from !== undefined || range.to !== undefined) {
    const bounds: DateRangeQuery = {};
    if (range.from !== undefined) bounds.gte = range.from.toISOString();
    if (range.to !== undefined) bounds.lt = range.to.toISOString();
    clauses.push({ range: { [TIME_FIELD]: bounds } });
  }
  return clauses;
}

/**
 * Which events a read sees of those voided (port.ts VoidedEvents): by default only those without a
 * `voided_at`. The field is mapped by its name (a date, templates.ts) once a void writes it; before,
 * `exists` matches nothing and the clause costs nothing.
 */
export function voidedClauses(voided: VoidedEvents | undefined): QueryClause[] {
  if (voided === 'include') return [];
  const marked: QueryClause = { exists: { field: VOIDED_AT_FIELD } };
  return voided === 'only' ? [marked] : [{ bool: { must_not: [marked] } }];
}

class OpenSearchIndex implements SearchableIndex {
  private readonly target: OpenSearchTarget;
  /** How funnels and retention read their windows: the events a pass holds, the actors a page of their listing. */
  private readonly analysisPasses: PassSizes;

  constructor(
    private readonly client: Client,
    private readonly prefix: string,
    private readonly limits: BulkLimits,
    private readonly replicas: number,
    private readonly searchBackpressure?: 'monitor_only' | 'enforced',
    private readonly actorsPerPage?: number,
    private readonly membersPerPage?: number,
    eventsPerAnalysisPass?: number,
  ) {
    this.analysisPasses = { eventsPerPass: eventsPerAnalysisPass, actorsPerPage };
    this.target = {
      client,
      prefix,
      wrap: (scope, context) => [
        ...tenantClauses(scope, context?.range),
        ...(context?.kind === 'events' ? voidedClauses(context.voided) : []),
        // A customer-bound read (customer tokens) sees that customer's documents only, inside the same wrap.
        ...(context?.customer ? customerTerms(context.customer).map((term) => toOpenSearchQuery(term, context)) : []),
      ],
    };
  }

  async ensureReady(): Promise<void> {
    if (this.searchBackpressure) await this.applySearchBackpressure(this.searchBackpressure);
    const common = commonComponentTemplate(this.prefix, this.replicas);
    await this.client.cluster.putComponentTemplate({ name: common.name, body: common.body });
    for (const template of indexTemplates(this.prefix)) {
      await this.client.indices.putIndexTemplate({ name: template.name, body: template.body });
    }
    // Profile indices exist up front so reads of a kind with no document yet answer empty.
    for (const kind of PROFILE_KINDS) {
      const index = profileIndexName(this.prefix, kind);
      const exists = await this.client.indices.exists({ index });
      if (exists.body === true) continue;
      try {
        await this.client.indices.create({ index });
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
      }
    }
  }

  /**
   * Read first, written only when it differs: every Lambda makes its index ready, and a settings write
   * is a cluster-state update. A domain that does not let this role change the setting keeps its own:
   * the search still works, so that is a warning.
   */
  private async applySearchBackpressure(mode: 'monitor_only' | 'enforced'): Promise<void> {
    try {
      const current = (await this.client.cluster.getSettings({ flat_settings: true })).body as { persistent?: Record<string, unknown> };
      if (current.persistent?.['search_backpressure.mode'] === mode) return;
      await this.client.cluster.putSettings({ body: { persistent: { 'search_backpressure.mode': mode } } });
    } catch (error) {
      console.warn(JSON.stringify({ level: 'warn', message: 'could not set search_backpressure.mode', mode, error: String(error).slice(0, 300) }));
    }
  }

  async index(documents: readonly IndexDocument[]): Promise<IndexOutcome> {
    const failures: IndexFailure[] = [];
    const accepted: IndexDocument[] = [];
    for (const document of documents) {
      const problem = documentProblem(document);
      if (problem === undefined) accepted.push(document);
      else failures.push({ kind: document.kind, id: document.id, reason: problem, retryable: false });
    }
    // Events are created once by id and profiles carry external versions, so chunks may land in any order.
    const outcomes = await mapWithConcurrency(bulkChunks(this.prefix, accepted, this.limits), this.limits.inFlight ?? 1, async (chunk) => {
      try {
        const response = await this.client.transport.request({ method: 'POST', path: '/_bulk', bulkBody: chunk.body });
        return bulkOutcome(chunk, (response.body as { items?: BulkResponseItem[] }).items ?? []);
      } catch (error) {
        return failedChunkOutcome(chunk, error);
      }
    });
    let written = 0;
    for (const outcome of outcomes) {
      written += outcome.written;
      failures.push(...outcome.failures);
    }
    return { written, failures };
  }

  async count(scope: TenantScope, kind: IndexKind, range?: TimeRange): Promise<number> {
    const response = await this.client.count({
      index: readTarget(this.prefix, kind),
      ...LENIENT_TARGET,
      body: { query: { bool: { filter: tenantClauses(scope, range) } } },
    });
    return response.body.count;
  }

  async get(scope: TenantScope, kind: IndexKind, id: string, hint?: { time?: Date }): Promise<StoredDocument | undefined> {
    const _id = documentId(scope.app_id, id);
    // A direct get is real-time and touches one shard; it needs the exact index.
    const directIndex =
      kind === 'events' ? (hint?.time === undefined ? undefined : eventsIndexName(this.prefix, hint.time)) : profileIndexName(this.prefix, kind);
    if (directIndex !== undefined) {
      const response = await this.client.get({ index: directIndex, id: _id }, { ignore: [404] });
      const found = response.body as { found?: boolean; _source?: Record<string, unknown> };
      if (found.found === true && found._source !== undefined && belongsTo(found._source, scope)) {
        return { _id: id, _source: fromStoredSource(found._source) };
      }
      // Profiles live only there. An event may be in another month than the hint said: search.
      if (kind !== 'events') return undefined;
    }
    const response = await this.client.search({
      index: readTarget(this.prefix, kind),
      ...LENIENT_TARGET,
      body: { size: 1, query: { bool: { filter: [{ ids: { values: [_id] } }, ...tenantClauses(scope)] } } },
    });
    const hit = response.body.hits.hits[0] as { _source?: Record<string, unknown> } | undefined;
    return hit?._source === undefined ? undefined : { _id: id, _source: fromStoredSource(hit._source) };
  }

  search(context: SearchContext, request: SearchRequest): Promise<SearchResponse> {
    return searchOpenSearch(this.target, context, request);
  }

  countMatching(context: SearchContext, query: QueryNode): Promise<number> {
    return countOpenSearch(this.target, context, query);
  }

  arrivalLags(context: SearchContext, query: QueryNode): Promise<ArrivalLags> {
    if (context.kind !== 'events') return Promise.resolve({ events: 0, counts: [] });
    return arrivalLagsOnOpenSearch(this.target, context, query);
  }

  delete(scope: TenantScope, kind: IndexKind, id: string): Promise<boolean> {
    return deleteOpenSearchDocument(this.target, scope, kind, id);
  }

  deleteMatching(context: SearchContext, query: QueryNode): Promise<DeletionProgress> {
    // A deletion takes voided events too: they are the same person's or company's data.
    return deleteMatchingOpenSearch(this.target, { ...context, voided: 'include' }, query);
  }

  voidEvents(context: SearchContext, query: QueryNode, mark: EventVoidMark): Promise<number> {
    return voidEventsOpenSearch(this.target, { ...context, kind: 'events', voided: undefined }, query, mark);
  }

  deletionProgress(task: string): Promise<DeletionProgress | undefined> {
    return deletionProgressOpenSearch(this.target, task);
  }

  funnel(context: SearchContext, query: FunnelQuery): Promise<FunnelAnswer> {
    return funnelOnOpenSearch(this.target, context, query, this.analysisPasses);
  }

  async retention(context: SearchContext, query: RetentionQuery): Promise<RetentionAnswer> {
    return retentionOnOpenSearch(this.target, context, query, windowPeriods(context.range, context.now, query.interval, context.timeZone), this.analysisPasses);
  }

  actorsMeeting(context: SearchContext, condition: ActorCondition): AsyncIterable<readonly string[]> {
    return actorsMeetingOnOpenSearch(this.target, context, condition, this.actorsPerPage);
  }

  async refresh(): Promise<void> {
    await this.client.indices.refresh({ index: allIndices(this.prefix), ...LENIENT_TARGET });
  }

  attributeVisitor(scope: TenantScope, anonymousId: string, userId: string): Promise<number> {
    return attributeVisitorOpenSearch(this.target, scope, anonymousId, userId);
  }

  membersMeeting(context: SearchContext, request: MembersRequest): AsyncIterable<readonly SearchHit[]> {
    return walkMembers(this, context, request, {
      pageSize: this.membersPerPage,
      idsInOrder: (query) => documentIdsInOrder(this.target, context, query, this.membersPerPage),
    });
  }

  compactSettled(now: Date): Promise<readonly string[]> {
    return compactSettledMonths(this.client, this.prefix, now);
  }

  /** The client is the caller's: it may serve other indices. */
  async close(): Promise<void> {}
}

function belongsTo(source: Record<string, unknown>, scope: TenantScope): boolean {
  return source.org_id === scope.org_id && source.app_id === scope.app_id;
}

function isAlreadyExists(error: unknown): boolean {
  const body = (error as { body?: { error?: { type?: string } } } | null)?.body;
  return body?.error?.type === 'resource_already_exists_exception';
}
