import * as z from 'zod';
import { EventVoid, EventVoidRequest, MAX_VOID_EVENTS, VOID_REACH_DAYS } from '../../../schemas/event-voids';
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
