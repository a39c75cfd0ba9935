import { parseSearchRequest } from '../search/dsl';
import { MAX_PRECISION_THRESHOLD, MAX_TERMS_SIZE } from '../search/dsl/limits';
import type { ActorCondition } from '../search/port';
import { MEMBER_FIELD } from './cohort-criteria';
import type { CohortEventCondition } from '../../schemas/resources/cohort';
import type { EventWindow } from './event-windows';
import type { SearchInput } from './profile-pages';

/**
 * What each of a set of users or companies did in a window: its matching events and their measure
 * (a count, a sum of weight, or a count of distinct values), from one grouped search per 10,000
 * ids. Exact on both backends: every id of a search has its own bucket (the terms size is the ids'
 * number), and distinct values are counted below OpenSearch's precision threshold of 40,000 per
 * member, where its count is exact (DuckDB's always is).
 */

export type MemberMeasureKind = 'count' | 'sum_weight' | 'distinct';

export interface MemberMeasureRequest {
  readonly entity: 'user' | 'company';
  readonly ids: readonly string[];
  /** An events query (DSL); none: every event. */
  readonly query?: Record<string, unknown>;
  readonly measure: MemberMeasureKind;
  /** The field of a distinct measure. */
  readonly field?: string;
  readonly window: EventWindow;
}

export interface MemberMeasure {
  /** Matching events in the window. */
  readonly events: number;
  readonly value: number;
}

/**
 * The actors meeting a condition in a window, from the engine (actorsMeeting), ascending by id. The
 * condition is checked as the grouped search below would take it (the same 400s: a text field, a
 * query the DSL refuses) before the engine sees it.
 */
export async function* actorsMeeting(
  input: SearchInput,
  entity: MemberMeasureRequest['entity'],
  condition: CohortEventCondition,
  window: EventWindow,
): AsyncIterable<readonly string[]> {
  if (!(window.end.getTime() > window.start.getTime())) return;
  yield* input.index.actorsMeeting(
    { scope: input.scope, kind: 'events', range: { from: window.start, to: window.end }, timeZone: input.timeZone, now: input.now },
    actorCondition(input, entity, condition),
  );
}

/** A cohort's event condition as the engine applies it, checked first as the grouped search would take it. */
export function actorCondition(input: SearchInput, entity: MemberMeasureRequest['entity'], condition: CohortEventCondition): ActorCondition {
  const by = MEMBER_FIELD[entity];
  const measure = condition.measure ?? 'count';
  const checked = parseSearchRequest(
    {
      size: 0,
      ...(condition.query ? { query: condition.query } : {}),
      aggs: { members: { terms: { field: by }, aggs: metricOf(measure, condition.field) ?? {} } },
    },
    'events',
    { timeZone: input.timeZone },
  );
  return {
    by,
    query: checked.query,
    measure,
    ...(condition.field ? { field: condition.field } : {}),
    operator: condition.operator ?? 'gte',
    value: condition.value ?? 1,
  };
}

/** The sub-aggregation a measure reads per member; none for a count (the bucket's own). */
function metricOf(measure: MemberMeasureKind, field: string | undefined): Record<string, unknown> | undefined {
  if (measure === 'sum_weight') return { value: { sum: { field: 'weight', missing: 1 } } };
  if (measure === 'distinct') return { value: { cardinality: { field, precision_threshold: MAX_PRECISION_THRESHOLD } } };
  return undefined;
}

/** Id → its events and measure; ids without a matching event in the window are absent. */
export async function measureMembers(input: SearchInput, request: MemberMeasureRequest): Promise<Map<string, MemberMeasure>> {
  const measured = new Map<string, MemberMeasure>();
  // A window that has not begun (or is empty) holds no events.
  if (!(request.window.end.getTime() > request.window.start.getTime()) || request.ids.length === 0) return measured;
  const field = MEMBER_FIELD[request.entity];
  const metric = metricOf(request.measure, request.field);
  for (let i = 0; i < request.ids.length; i += MAX_TERMS_SIZE) {
    const chunk = request.ids.slice(i, i + MAX_TERMS_SIZE);
    const filter: unknown[] = [{ terms: { [field]: chunk } }];
    if (request.query) filter.push(request.query);
    const body = {
      size: 0,
      track_total_hits: false,
      query: { bool: { filter } },
      aggs: { members: { terms: { field, size: chunk.length }, ...(metric ? { aggs: metric } : {}) } },
    };
    const response = await input.index.search(
      { scope: input.scope, kind: 'events', range: { from: request.window.start, to: request.window.end }, timeZone: input.timeZone, now: input.now },
      parseSearchRequest(body, 'events', { timeZone: input.timeZone }),
    );
    const buckets = (response.aggregations?.['members'] as { buckets?: { key: unknown; doc_count: number; value?: { value: number | null } }[] } | undefined)
      ?.buckets;
    for (const bucket of buckets ?? []) {
      if (bucket.doc_count === 0) continue;
      measured.set(String(bucket.key), { events: bucket.doc_count, value: metric ? (bucket.value?.value ?? 0) : bucket.doc_count });
    }
  }
  return measured;
}

/**
 * Members each measured over a window of their own (a subscription's billing period): one grouped
 * search per distinct window. The answer gives a member's measure in one of its windows, if it
 * had a matching event there.
 */
export async function measureInOwnWindows(
  input: SearchInput,
  request: Omit<MemberMeasureRequest, 'ids' | 'window'>,
  wanted: readonly { readonly id: string; readonly window: EventWindow }[],
): Promise<(id: string, window: EventWindow) => MemberMeasure | undefined> {
  const windowKey = (window: EventWindow) => `${window.start.toISOString()}/${window.end.toISOString()}`;
  const byWindow = new Map<string, { window: EventWindow; ids: Set<string> }>();
  for (const { id, window } of wanted) {
    const key = windowKey(window);
    const entry = byWindow.get(key) ?? { window, ids: new Set<string>() };
    entry.ids.add(id);
    byWindow.set(key, entry);
  }
  const measured = new Map<string, Map<string, MemberMeasure>>();
  for (const [key, { window, ids }] of byWindow) measured.set(key, await measureMembers(input, { ...request, ids: [...ids], window }));
  return (id, window) => measured.get(windowKey(window))?.get(id);
}
