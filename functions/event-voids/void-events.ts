import { MAX_VOID_EVENTS, VOID_REACH_DAYS, type EventVoid, type EventVoidRequest } from '../../schemas/event-voids';
import type { QueryNode } from '../../schemas/search-tree';
import { newResourceId, type ResourceStore } from '../resources/resource-store';
import { parseQuery, parseSearchRequest } from '../search/dsl';
import type { SearchableIndex, SearchContext } from '../search/port';
import type { FieldIssue } from '../shared/errors';
import { invalidInput } from '../shared/invalid-input';
import { recordVoidFinished, recordVoidStarted, type VoidTenant } from './void-records';

/**
 * Voiding events: the events a request names (by id, or by a query in a time range) are marked
 * voided in the index (port.ts voidEvents), so every read leaves them out from then on; they are
 * kept, and listed with `voided=only`. Billing sees a void as what it is, a change to windows it may
 * have reported: the hours of event time the void touched are marked as changed (billing's late
 * marks), and the next run evaluates those windows again and delivers the difference as a
 * correction, as it does for late events. The audit log (void-records.ts) keeps who, when, why, what
 * and how many.
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface VoidDeps {
  readonly index: SearchableIndex;
  readonly resources: ResourceStore;
  /** Tells billing the events of these hours changed at `at` (billing's late marks: the run re-evaluates their windows). */
  readonly changedHours: (tenant: VoidTenant, hours: readonly { hourStart: Date; count: number }[], at: Date) => Promise<void>;
  readonly now: () => Date;
}

export interface VoidCaller extends VoidTenant {
  /** Who asks: the token's subject. */
  readonly subject: string;
}

export interface VoidTarget {
  readonly query: QueryNode;
  /** The query as the void was asked for, for the hour count's search (the DSL's own form). */
  readonly dsl: Record<string, unknown>;
  readonly from: Date;
  readonly to: Date;
}

/** What the request names, checked: exactly one of ids and query, a range within the reach. */
export function targetOf(request: EventVoidRequest, now: Date): VoidTarget {
  const issues: FieldIssue[] = [];
  const reachStart = new Date(now.getTime() - VOID_REACH_DAYS * DAY_MS);
  if ((request.event_ids === undefined) === (request.query === undefined))
    issues.push({ field: request.event_ids ? 'query' : 'event_ids', reason: 'name the events by event_ids or by query, one of the two' });
  if (request.event_ids && (request.from !== undefined || request.to !== undefined))
    issues.push({ field: request.from !== undefined ? 'from' : 'to', reason: 'goes with query: events named by id are looked for within the reach' });
  if (request.query && (request.from === undefined || request.to === undefined))
    issues.push({ field: request.from === undefined ? 'from' : 'to', reason: 'is required with query: a void by query names its time range' });
  const from = request.from === undefined ? reachStart : new Date(request.from);
  const to = request.to === undefined ? new Date(now.getTime() + DAY_MS) : new Date(request.to);
  if (from.getTime() >= to.getTime()) issues.push({ field: 'to', reason: 'must be after from' });
  if (from.getTime() < reachStart.getTime())
    issues.push({
      field: 'from',
      reason: `reaches back more than ${VOID_REACH_DAYS} days (before ${reachStart.toISOString()}): a void reaches as far back as events arrive late and billing corrects`,
    });
  if (issues.length > 0) throw invalidInput('void', issues);
  if (request.event_ids) {
    const values = [...new Set(request.event_ids)];
    return { query: { type: 'ids', values }, dsl: { ids: { values } }, from, to };
  }
  const dsl = request.query!;
  return { query: parseQuery(dsl, ['query']), dsl, from, to };
}

/** The live events the target matches, counted per hour of event time (what billing re-evaluates). */
async function matchedHours(
  index: SearchableIndex,
  context: SearchContext,
  target: VoidTarget,
): Promise<{ matched: number; hours: { hourStart: Date; count: number }[] }> {
  const request = parseSearchRequest(
    { size: 0, track_total_hits: true, query: target.dsl, aggs: { hours: { date_histogram: { field: 'time', fixed_interval: '1h', min_doc_count: 1 } } } },
    'events',
  );
  const answer = await index.search(context, request);
  const buckets = (answer.aggregations?.['hours'] as { buckets?: { key: number; doc_count: number }[] } | undefined)?.buckets ?? [];
  return {
    matched: answer.hits.total,
    hours: buckets.map((bucket) => ({ hourStart: new Date(Math.floor(bucket.key / HOUR_MS) * HOUR_MS), count: bucket.doc_count })),
  };
}

export async function voidEvents(deps: VoidDeps, caller: VoidCaller, request: EventVoidRequest): Promise<EventVoid> {
  const now = deps.now();
  const target = targetOf(request, now);
  const ids = request.event_ids ? [...new Set(request.event_ids)] : null;
  return performVoid(deps, caller, target, {
    id: newResourceId(now.getTime()),
    reason: request.reason,
    event_ids: ids,
    query: request.query ?? null,
    named: ids ? 'event_ids' : 'query',
    now,
  });
}

/** What a void (or a replacement's void) is asked to do, past its checks. */
export interface VoidOrder {
  readonly id: string;
  readonly reason: string;
  readonly event_ids: string[] | null;
  readonly query: Record<string, unknown> | null;
  /** The request member that names the events, for a 400 about them. */
  readonly named: string;
  readonly now: Date;
  /** A replacement may void nothing (the range held none of the wrong events); a void may not. */
  readonly mayMatchNone?: boolean;
  /** A replacement's sending, once the void is done; what it sent goes into the log. */
  readonly afterVoid?: () => Promise<NonNullable<EventVoid['replacement']>>;
}

/**
 * Counts what the target matches (refusing none, unless allowed, and more than the cap), logs the
 * void, marks the events, tells billing, runs what follows (a replacement's sending) and logs the end.
 */
export async function performVoid(deps: VoidDeps, caller: VoidCaller, target: VoidTarget, order: VoidOrder): Promise<EventVoid> {
  const context: SearchContext = {
    scope: { org_id: caller.orgId, app_id: caller.appId },
    kind: 'events',
    range: { from: target.from, to: target.to },
    timeZone: 'UTC',
    now: order.now,
  };
  const { matched, hours } = await matchedHours(deps.index, context, target);
  if (matched === 0 && !order.mayMatchNone)
    throw invalidInput('void', [{ field: order.named, reason: 'matches no event that is not voided already in the range' }]);
  if (matched > MAX_VOID_EVENTS)
    throw invalidInput('void', [
      { field: order.named, reason: `matches ${matched} events, more than the ${MAX_VOID_EVENTS} one void may mark: narrow the range or the query` },
    ]);

  const started: EventVoid = {
    id: order.id,
    status: 'running',
    reason: order.reason,
    created_by: caller.subject,
    created_at: order.now.toISOString(),
    finished_at: null,
    event_ids: order.event_ids,
    query: order.query,
    from: target.from.toISOString(),
    to: target.to.toISOString(),
    matched,
    voided: 0,
    billing_hours: hours.length,
    replacement: null,
    error: null,
  };
  await recordVoidStarted(deps.resources, caller, started);
  let voided = 0;
  let replacement: EventVoid['replacement'] = null;
  let billingTold = false;
  try {
    if (matched > 0) voided = await deps.index.voidEvents(context, target.query, { void_id: started.id, voided_at: started.created_at });
    // Marked after the void is visible to reads, so a run that evaluated a window before sees the mark as newer.
    await deps.changedHours(caller, hours, deps.now());
    billingTold = true;
    if (order.afterVoid) replacement = await order.afterVoid();
  } catch (error) {
    // Some events may be marked: billing hears of every hour (once), and the log says what happened.
    if (!billingTold) await deps.changedHours(caller, hours, deps.now());
    const message = error instanceof Error ? error.message : String(error);
    await recordVoidFinished(deps.resources, caller, started.id, { status: 'failed', finished_at: deps.now().toISOString(), voided, error: message });
    throw error;
  }
  return recordVoidFinished(deps.resources, caller, started.id, { status: 'completed', finished_at: deps.now().toISOString(), voided, replacement });
}
