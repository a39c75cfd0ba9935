import * as z from 'zod';
import { EventReplacementRequest, EventVoid, EventVoidRequest, MAX_REPLACEMENT_EVENTS, MAX_VOID_EVENTS, VOID_REACH_DAYS } from '../../../schemas/event-voids';
import { named, NEXT_PAGE, ListQuery, type RouteSchema } from './route-schema';

const EventVoidSchema = named('EventVoid', EventVoid);

export const eventVoidSchemas: Record<string, RouteSchema> = {
  createEventVoid: {
    description: `Voids events: those with the given event_ids, or those the query matches with an event time in [from, to). Voided events are kept, marked (voided_at, void_id) and left out of every search, count, analysis, cohort and meter; search and count list them with voided=include or voided=only. The hours of event time the void touched are marked for billing, whose next run evaluates their windows again and delivers the difference as corrections. At most ${MAX_VOID_EVENTS} events a void and ${VOID_REACH_DAYS} days back; 400 naming the field when the request matches no live event or more than that. The void is kept in the audit log (who, when, why, what, how many).`,
    body: named('EventVoidRequest', EventVoidRequest),
    responseStatus: 201,
    response: EventVoidSchema,
    errors: [503],
  },
  replaceEvents: {
    description: `Replaces a time range's wrong events with a corrected set: the events the query matches with an event time in [from, to) are voided as a void does (none is fine), then events (API calls) and actions, each in the collector's shape and within [from, to), are collected as the collector takes them: all or nothing (400 naming events[i] or actions[i] and the field), deduplicated by transaction id (an id the app accepted before, voided or not, is refused: give the corrected event a new id, or none), and acknowledged once the ingest stream holds them. The billing run bills them as late events and corrects the closed windows. At most ${MAX_REPLACEMENT_EVENTS} of each. With an id, a retry is safe: a replacement logged under that id is answered (200) and nothing is done again; one that failed answers 409.`,
    body: named('EventReplacementRequest', EventReplacementRequest),
    responseStatus: 201,
    alsoStatus: { status: 200, description: 'A retry: the replacement logged under this id, done before.' },
    response: EventVoidSchema,
    errors: [409, 503],
  },
  listEventVoids: {
    description: "The app's audit log of voids, newest first.",
    query: ListQuery,
    responseStatus: 200,
    response: named('EventVoidList', z.array(EventVoidSchema)),
    responseHeaders: NEXT_PAGE,
  },
  getEventVoid: {
    description: 'One void of the audit log.',
    params: { voidId: 'The void.' },
    responseStatus: 200,
    response: EventVoidSchema,
    errors: [404],
  },
};
