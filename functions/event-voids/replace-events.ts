import type { EventReplacementRequest, EventVoid } from '../../schemas/event-voids';
import type { StreamItem } from '../../schemas/stream-record';
import { newResourceId } from '../resources/resource-store';
import { ConflictError, ValidationError, type FieldIssue } from '../shared/errors';
import { invalidInput } from '../shared/invalid-input';
import { performVoid, targetOf, type VoidCaller, type VoidDeps } from './void-events';
import { findVoid, type VoidTenant } from './void-records';

/**
 * Replacing a time range's events with a corrected set: the wrong events (a query in the range) are
 * voided as a void does (void-events.ts), then the corrected API calls and actions are collected as
 * the collector takes them: validated all or nothing, deduplicated by transaction id, acknowledged
 * once the ingest stream holds them, and indexed (and billed, as late events) from there.
 */

export type ReplacementKind = 'event' | 'action';

/** The collector's intake, as a replacement uses it (wired from the ingest side by the composition root). */
export interface ReplacementIntake {
  /** The records validated and normalised as the collector does them, all or nothing (400 naming each bad record by its index). */
  prepare(tenant: VoidTenant, kind: ReplacementKind, records: readonly unknown[], receivedAt: Date): Promise<readonly StreamItem[]>;
  /** Which of these transaction ids the app accepted already (stored, voided or on their way): the collector would drop their events as duplicates. */
  claimed(tenant: VoidTenant, ids: readonly string[]): Promise<ReadonlySet<string>>;
  /** Puts the items on the ingest stream; resolves once it holds every one. */
  publish(tenant: VoidTenant, kind: ReplacementKind, items: readonly StreamItem[]): Promise<void>;
}

export interface ReplaceDeps extends VoidDeps {
  readonly intake: ReplacementIntake;
}

const MEMBER: Record<ReplacementKind, 'events' | 'actions'> = { event: 'events', action: 'actions' };

/** The collector's issues about a record, named from the request's root (`events[3].request.time`). */
async function prepared(deps: ReplaceDeps, caller: VoidCaller, kind: ReplacementKind, records: readonly unknown[], now: Date): Promise<readonly StreamItem[]> {
  if (records.length === 0) return [];
  try {
    return await deps.intake.prepare(caller, kind, records, now);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const member = MEMBER[kind];
    const issues = error.details.map((issue) => ({
      field: issue.index === undefined ? member : `${member}[${issue.index}]${issue.field === 'item' ? '' : `.${issue.field}`}`,
      reason: issue.reason,
    }));
    throw invalidInput('replacement', issues);
  }
}

/** Each item's time within [from, to), and no caller-chosen transaction id the app accepted before. */
async function checkItems(deps: ReplaceDeps, caller: VoidCaller, items: Record<ReplacementKind, readonly StreamItem[]>, from: Date, to: Date): Promise<void> {
  const issues: FieldIssue[] = [];
  for (const kind of ['event', 'action'] as const) {
    items[kind].forEach((item, index) => {
      const time = Date.parse(item.time);
      if (time < from.getTime() || time >= to.getTime())
        issues.push({ field: `${MEMBER[kind]}[${index}].request.time`, reason: `is outside the replaced range [${from.toISOString()}, ${to.toISOString()})` });
    });
  }
  const chosen = (['event', 'action'] as const).flatMap((kind) =>
    items[kind].flatMap((item, index) => (typeof item.data['transaction_id'] === 'string' ? [{ kind, index, id: item.id }] : [])),
  );
  const claimed = chosen.length === 0 ? new Set<string>() : await deps.intake.claimed(caller, [...new Set(chosen.map((entry) => entry.id))]);
  for (const entry of chosen)
    if (claimed.has(entry.id))
      issues.push({
        field: `${MEMBER[entry.kind]}[${entry.index}].transaction_id`,
        reason:
          'was accepted before (voided or not), so the collector would drop this event as a duplicate: give the corrected event a new transaction id, or none',
      });
  const seen = new Map<string, string>();
  for (const entry of chosen) {
    const field = `${MEMBER[entry.kind]}[${entry.index}].transaction_id`;
    const first = seen.get(entry.id);
    if (first) issues.push({ field, reason: `repeats ${first}: one replacement sends each event once` });
    else seen.set(entry.id, field);
  }
  if (issues.length > 0) throw invalidInput('replacement', issues);
}

export async function replaceEvents(
  deps: ReplaceDeps,
  caller: VoidCaller,
  request: EventReplacementRequest,
): Promise<{ created: boolean; replacement: EventVoid }> {
  if (request.id !== undefined) {
    // A retry: the replacement logged under this id is the answer; nothing is voided or sent again.
    const logged = await findVoid(deps.resources, caller, request.id);
    if (logged) {
      if (logged.status === 'failed')
        throw new ConflictError(`The replacement ${request.id} failed (${logged.error ?? 'no reason given'}); send it again with a new id`, [
          { field: 'id', reason: 'names a replacement that failed' },
        ]);
      return { created: false, replacement: logged };
    }
  }
  const now = deps.now();
  const target = targetOf({ reason: request.reason, query: request.query, from: request.from, to: request.to }, now);
  const items = {
    event: await prepared(deps, caller, 'event', request.events ?? [], now),
    action: await prepared(deps, caller, 'action', request.actions ?? [], now),
  };
  if (items.event.length + items.action.length === 0)
    throw invalidInput('replacement', [{ field: 'events', reason: 'is empty, and so are actions: to remove events without replacing them, void them' }]);
  await checkItems(deps, caller, items, target.from, target.to);

  const replacement = await performVoid(deps, caller, target, {
    id: request.id ?? newResourceId(now.getTime()),
    reason: request.reason,
    event_ids: null,
    query: request.query,
    named: 'query',
    now,
    mayMatchNone: true,
    afterVoid: async () => {
      for (const kind of ['event', 'action'] as const) if (items[kind].length > 0) await deps.intake.publish(caller, kind, items[kind]);
      return { events: items.event.length, actions: items.action.length };
    },
  });
  return { created: true, replacement };
}
