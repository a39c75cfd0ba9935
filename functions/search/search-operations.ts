import type { ManagementTokenClaims } from '../../schemas/management-token';
import { parseQuery, parseSearchRequest } from './dsl';
import type { QueryNode } from '../../schemas/search-tree';
import type { ProfileKind, ProfileStore } from '../profiles/profile-store';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../shared/errors';
import { readJsonBody } from '../shared/http/body';
import type { Operation } from '../shared/http/handler';
import type { HttpRequest } from '../shared/http/types';
import { parseFunnelBody, parseRetentionBody } from './analyses/parse-analyses';
import { parseRequestRange } from './dates/request-range';
import { fieldCatalogue } from './field-catalogue';
import type { SigningKeyProvider } from '../management-tokens/signing-key';
import { signDeletionId, taskOfDeletionId } from './deletion-id';
import type { DeletionProgress, IndexKind, SearchableIndex, SearchContext } from './port';
import { withinQueryBudget, type QueryBudgetDeps } from './query-budget';

/** Search bodies are queries, not data: 1 MB is far beyond any real one. */
export const MAX_SEARCH_BODY_BYTES = 1_000_000;

export interface SearchOperationDeps extends QueryBudgetDeps {
  readonly index: SearchableIndex;
  readonly profiles: ProfileStore;
  readonly ready: () => Promise<void>;
  /** The management token key: it also signs the deletion ids handed to clients. */
  readonly signingKey: SigningKeyProvider;
  readonly now?: () => Date;
}

type SearchOperation = Operation<ManagementTokenClaims>;

const PROFILE_KIND: Record<'users' | 'companies', ProfileKind> = { users: 'user', companies: 'company' };
const OWNER_FIELD: Record<'users' | 'companies', string> = { users: 'user_id', companies: 'company_id' };

/**
 * The management API's search operations. Every one is confined to the token's org and app; event
 * searches also to the `from`/`to` window (query parameters, in `time_zone`). Searches answer 200.
 */
export function searchOperations(deps: SearchOperationDeps): Record<string, SearchOperation> {
  const now = deps.now ?? (() => new Date());

  const context = (request: HttpRequest, claims: ManagementTokenClaims, kind: IndexKind): SearchContext => {
    const at = now();
    const range = parseRequestRange({ from: request.query['from'], to: request.query['to'], time_zone: request.query['time_zone'] }, at);
    return {
      scope: { org_id: claims.org_id, app_id: claims.app_id },
      kind,
      // Profiles are not events: the time window applies to event searches only.
      range: kind === 'events' ? { from: range.from, to: range.to } : undefined,
      timeZone: range.timeZone,
      now: at,
    };
  };

  /** A query of the index, within the org's concurrent queries and the time budget (query-budget.ts). */
  const budgeted = <T>(request: HttpRequest, claims: ManagementTokenClaims, ctx: SearchContext, query: (ctx: SearchContext) => Promise<T>): Promise<T> =>
    withinQueryBudget(deps, claims.org_id, request.disconnected, (signal) => query({ ...ctx, signal }));

  /** Event searches and counts read voided events only when the request asks (`voided`). */
  const withVoided = (request: HttpRequest, ctx: SearchContext): SearchContext => {
    const voided = request.query['voided'];
    if (voided === undefined || ctx.kind !== 'events') return ctx;
    if (voided !== 'include' && voided !== 'only')
      throw new ValidationError('The voided parameter is not one of include, only', [{ field: 'voided', reason: 'must be include or only' }]);
    return { ...ctx, voided };
  };

  const search =
    (kind: IndexKind): SearchOperation =>
    async (request, claims) => {
      await deps.ready();
      const ctx = withVoided(request, context(request, claims, kind));
      const parsed = parseSearchRequest(optionalBody(request) ?? {}, kind, { timeZone: ctx.timeZone });
      return { status: 200, body: await budgeted(request, claims, ctx, (within) => deps.index.search(within, parsed)) };
    };

  const count =
    (kind: IndexKind): SearchOperation =>
    async (request, claims) => {
      await deps.ready();
      const ctx = withVoided(request, context(request, claims, kind));
      // The count body is a search body; what counts is its query narrowed by its post_filter.
      const parsed = parseSearchRequest(optionalBody(request) ?? {}, kind, { timeZone: ctx.timeZone });
      const query: QueryNode = parsed.post_filter
        ? { type: 'bool', must: [parsed.query], filter: [parsed.post_filter], should: [], must_not: [] }
        : parsed.query;
      return { status: 200, body: { count: await budgeted(request, claims, ctx, (within) => deps.index.countMatching(within, query)) } };
    };

  const getById =
    (kind: IndexKind, what: string): SearchOperation =>
    async (request, claims) => {
      await deps.ready();
      const id = request.pathParams['id']!;
      const time = kind === 'events' ? parseEventTime(request.query['event_time']) : undefined;
      const found = await deps.index.get({ org_id: claims.org_id, app_id: claims.app_id }, kind, id, { time });
      if (!found) throw new NotFoundError(`No ${what} with id ${id}`);
      return { status: 200, body: found };
    };

  const remove =
    (kind: 'users' | 'companies'): SearchOperation =>
    async (request, claims) => {
      await deps.ready();
      const id = request.pathParams['id']!;
      const scope = { org_id: claims.org_id, app_id: claims.app_id };
      const deleteEvents = parseBoolean(request.query['delete_events'], 'delete_events');
      // The stored profile goes too, or the next update would merge into the deleted one.
      const hadProfile = await deps.profiles.delete(claims.org_id, claims.app_id, PROFILE_KIND[kind], id);
      const hadDocument = await deps.index.delete(scope, kind, id);
      if (!hadProfile && !hadDocument) throw new NotFoundError(`No ${kind === 'users' ? 'user' : 'company'} with id ${id}`);
      const answer = { [OWNER_FIELD[kind]]: id, deleted: true };
      if (!deleteEvents) return { status: 200, body: { ...answer, events_deleted: 0 } };
      const ctx: SearchContext = { scope, kind: 'events', timeZone: 'UTC', now: now() };
      const progress = await deps.index.deleteMatching(ctx, { type: 'term', field: OWNER_FIELD[kind], value: id, case_insensitive: false });
      const deletionId = progress.task === undefined ? undefined : signDeletionId(await deps.signingKey(), scope, progress.task);
      // The profile is gone; its events may still be going in the background: events_deletion.url follows them.
      return { status: 200, body: { ...answer, events_deleted: progress.deleted, events_deletion: deletionBody(progress, deletionId) } };
    };

  const deletionStatus: SearchOperation = async (request, claims) => {
    await deps.ready();
    const deletionId = request.pathParams['id']!;
    const task = taskOfDeletionId(await deps.signingKey(), { org_id: claims.org_id, app_id: claims.app_id }, deletionId);
    const progress = task === undefined ? undefined : await deps.index.deletionProgress(task);
    if (!progress) throw new NotFoundError(`No deletion ${deletionId} of this app`);
    return { status: 200, body: deletionBody(progress, deletionId) };
  };

  const properties =
    (kind: IndexKind): SearchOperation =>
    async (request, claims) => {
      await deps.ready();
      return { status: 200, body: await budgeted(request, claims, context(request, claims, kind), (within) => fieldCatalogue(deps.index, within)) };
    };

  /** Funnels and retention read the events of the window (from/to/time_zone), like event searches. */
  const funnel: SearchOperation = async (request, claims) => {
    await deps.ready();
    const query = parseFunnelBody(requiredBody(request));
    return { status: 200, body: await budgeted(request, claims, context(request, claims, 'events'), (within) => deps.index.funnel(within, query)) };
  };

  const retention: SearchOperation = async (request, claims) => {
    await deps.ready();
    const query = parseRetentionBody(requiredBody(request));
    return { status: 200, body: await budgeted(request, claims, context(request, claims, 'events'), (within) => deps.index.retention(within, query)) };
  };

  return {
    searchEvents: search('events'),
    funnelEvents: funnel,
    retentionEvents: retention,
    countEvents: count('events'),
    getEvent: getById('events', 'event'),
    eventProperties: properties('events'),
    searchUsers: search('users'),
    countUsers: count('users'),
    getUser: getById('users', 'user'),
    deleteUser: remove('users'),
    userProperties: properties('users'),
    searchCompanies: search('companies'),
    countCompanies: count('companies'),
    getCompany: getById('companies', 'company'),
    deleteCompany: remove('companies'),
    deletionStatus,
    companyProperties: properties('companies'),
    companySubscriptions: async (request, claims) => {
      await deps.ready();
      const ctx = context(request, claims, 'subscriptions');
      const query = parseQuery({ term: { company_id: request.pathParams['id']! } });
      const result = await budgeted(request, claims, ctx, (within) =>
        deps.index.search(within, { query, size: 1000, from: 0, sort: [], _source: { includes: [], excludes: [] }, track_total_hits: true, aggs: {} }),
      );
      return { status: 200, body: result };
    },
  };
}

/** A deletion as the API answers it: status running/completed/failed, counts, and where to follow it. */
function deletionBody(progress: DeletionProgress, deletionId: string | undefined) {
  const status = !progress.completed ? 'running' : progress.error ? 'failed' : 'completed';
  return {
    status,
    deleted: progress.deleted,
    ...(progress.total === undefined ? {} : { total: progress.total }),
    ...(progress.error ? { error: progress.error } : {}),
    ...(deletionId === undefined ? {} : { deletion_id: deletionId, url: `/search/~/deletions/${deletionId}` }),
  };
}

/** The JSON body, or undefined when there is none (an empty body means `{}`; a JSON `null` is no search body). */
function optionalBody(request: HttpRequest): unknown {
  if (request.rawBody.length === 0 && !request.bodyText) return undefined;
  try {
    const body = readJsonBody(request, MAX_SEARCH_BODY_BYTES);
    if (body === null) throw new ValidationError('The body must be a JSON object (or empty)', [{ field: 'body', reason: 'is null' }]);
    return body;
  } catch (error) {
    if (error instanceof PayloadTooLargeError) throw new ValidationError('A search body may be at most 1 MB', [{ field: 'body', reason: 'over 1 MB' }]);
    throw error;
  }
}

function requiredBody(request: HttpRequest): unknown {
  const body = optionalBody(request);
  if (body === undefined) throw new ValidationError('A JSON body is required', [{ field: 'body', reason: 'missing' }]);
  return body;
}

function parseEventTime(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const time = new Date(value);
  if (Number.isNaN(time.getTime()))
    throw new ValidationError('event_time must be an ISO 8601 date-time', [{ field: 'event_time', reason: `not a date-time: ${value}` }]);
  return time;
}

function parseBoolean(value: string | undefined, field: string): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new ValidationError(`${field} must be true or false`, [{ field, reason: `not a boolean: ${value}` }]);
}
