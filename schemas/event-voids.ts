import * as z from 'zod';
import { DateTime } from './collector';
import { RESOURCE_ID_SHAPE } from './resources/resource-id';

/** At most this many events one void marks (a void that would mark more is refused, naming how many). */
export const MAX_VOID_EVENTS = 100_000;
/** At most this many ids one void names. */
export const MAX_VOID_IDS = 1_000;
/** How far back a void reaches: as far as an event may arrive late, and as far as billing corrects. */
export const VOID_REACH_DAYS = 30;

/** A DSL query, as a search takes it (`{"term": {"company_id": "acme"}}`). */
const EventsQuery = z.record(z.string(), z.unknown()).meta({ description: 'A search DSL query over events, as POST /search/~/search/events takes it.' });

/**
 * What to void: the events with these ids, or those a query matches in a time range; with why.
 * Exactly one of `event_ids` and `query`; `from` and `to` go with `query` (the ids' events may be
 * anywhere within the reach).
 */
export const EventVoidRequest = z.strictObject({
  reason: z.string().trim().min(1, 'must say why (it is kept in the audit log)').max(500),
  event_ids: z.array(z.string().min(1).max(255)).min(1).max(MAX_VOID_IDS).optional(),
  query: EventsQuery.optional(),
  from: DateTime.optional(),
  to: DateTime.optional(),
});
export type EventVoidRequest = z.infer<typeof EventVoidRequest>;

/** At most this many API calls and actions one replacement sends (the collector's batch size). */
export const MAX_REPLACEMENT_EVENTS = 1_000;

/**
 * A time range's events replaced by a corrected set: the events `query` matches in [from, to) are
 * voided, and `events` (API calls) and `actions` are collected as the collector takes them, each
 * within the range. `id` makes a retry safe: a replacement with an id already logged is answered as
 * logged, and nothing is done again.
 */
export const EventReplacementRequest = z.strictObject({
  id: z.string().regex(RESOURCE_ID_SHAPE, 'must be 1-128 letters, digits, _ or -').optional(),
  reason: z.string().trim().min(1, 'must say why (it is kept in the audit log)').max(500),
  query: EventsQuery,
  from: DateTime,
  to: DateTime,
  events: z
    .array(z.unknown())
    .max(MAX_REPLACEMENT_EVENTS)
    .optional()
    .meta({ description: 'API calls, each as POST /v1/events/batch takes it, with its request.time within [from, to).' }),
  actions: z
    .array(z.unknown())
    .max(MAX_REPLACEMENT_EVENTS)
    .optional()
    .meta({ description: 'Actions, each as POST /v1/actions/batch takes it, with its request.time within [from, to).' }),
});
export type EventReplacementRequest = z.infer<typeof EventReplacementRequest>;

/** A void as the audit log keeps it: who, when, why, what it named, and what it did. */
export const EventVoid = z.object({
  id: z.string(),
  /** `running` while the events are marked; `failed` says why (events it marked stay voided; the same void again marks the rest). */
  status: z.enum(['running', 'completed', 'failed']),
  reason: z.string(),
  /** The token's subject: an org user id, or `bootstrap`. */
  created_by: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  event_ids: z.array(z.string()).nullable(),
  query: z.record(z.string(), z.unknown()).nullable(),
  /** The event-time range the void looked in (the reach, for ids). */
  from: z.string(),
  to: z.string(),
  /** Events matched when the void started, and marked voided. */
  matched: z.number().int(),
  voided: z.number().int(),
  /** Hours of event time the billing run re-evaluates for this void (closed windows become corrections). */
  billing_hours: z.number().int(),
  /** A replacement: the API calls and actions sent in place of the voided events (collected, so never lost); null for a plain void. */
  replacement: z.object({ events: z.number().int(), actions: z.number().int() }).nullable(),
  error: z.string().nullable(),
});
export type EventVoid = z.infer<typeof EventVoid>;
