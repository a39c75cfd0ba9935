import * as z from 'zod';
import { DateParameter, TimeZoneName } from '../../../schemas/time-zone';
import { MAX_AGGREGATION_DEPTH, MAX_RESULT_WINDOW, MAX_SIZE } from '../../search/dsl';
import { CompanyDeleted, Count, Document, EventsDeletion, FieldList, OpenApiDocument, SearchHits, UserDeleted } from '../response-schemas';
import { FunnelAnswer, FunnelBody, RetentionAnswer, RetentionBody } from '../../../schemas/event-analyses';
import { named, type RouteSchema } from './route-schema';
import { CompanyProfileSchema, ingest, SubscriptionSchema, UserProfileSchema } from './collector-route-schemas';

/** The management API's search operations (and profile writes, which take the collector's bodies). */
// ── Management: search ──

export const timeZone = TimeZoneName.optional().meta({ description: 'TZ database name for dates without an offset and calendar buckets; default UTC.' });
export const EventRangeQuery = z.object({
  from: DateParameter.optional().meta({ description: 'Start of the event-time window (inclusive): ISO 8601, `now`, or relative such as -24h, -2w, -1M.' }),
  to: DateParameter.optional().meta({ description: 'End of the window (exclusive), in the same forms as from.' }),
  time_zone: timeZone,
});
/** Event searches and counts also read voided events when asked (docs/event-voids.md). */
const EventSearchQuery = EventRangeQuery.extend({
  voided: z
    .enum(['include', 'only'])
    .optional()
    .meta({ description: 'Voided events are left out unless asked for: `include` reads them beside the others, `only` reads them alone.' }),
});
export const ProfileQuery = z.object({ time_zone: timeZone });

/**
 * The top-level members of a search body. The DSL itself (queries, sorts, aggregations) is parsed
 * by functions/search/dsl, whose refinements have no JSON Schema form; a unit test checks that
 * every member named here is one that parser accepts.
 */
export const SearchBody = named(
  'SearchBody',
  z
    .object({
      query: z
        .record(z.string(), z.unknown())
        .optional()
        .meta({ description: 'An OpenSearch query (bool, term, terms, range, match, exists, query_string, …). Default match_all.' }),
      post_filter: z.record(z.string(), z.unknown()).optional().meta({ description: 'A query that filters hits but not aggregations.' }),
      size: z.int().min(0).max(MAX_SIZE).optional().meta({ description: 'Hits per page; default 10.' }),
      from: z
        .int()
        .min(0)
        .max(MAX_RESULT_WINDOW)
        .optional()
        .meta({ description: `Offset; from + size ≤ ${MAX_RESULT_WINDOW}. Page deeper with search_after.` }),
      sort: z.unknown().optional().meta({ description: 'Sort entries (field names or {field: {order, unmapped_type}}); compound with _id for stable paging.' }),
      search_after: z.array(z.unknown()).optional().meta({ description: 'The sort values of the last hit already seen.' }),
      _source: z.unknown().optional().meta({ description: 'false, a field pattern, a list of them, or {includes, excludes}.' }),
      track_total_hits: z.union([z.boolean(), z.int().min(0)]).optional(),
      aggs: z
        .record(z.string(), z.unknown())
        .optional()
        .meta({ description: `Aggregations, nested at most ${MAX_AGGREGATION_DEPTH} deep. Set size 0 for metric queries.` }),
      aggregations: z.record(z.string(), z.unknown()).optional().meta({ description: 'Alias of aggs (give one of them).' }),
    })
    .meta({
      description:
        'A search DSL object (OpenSearch request-body search). Scripts, index names and administrative members are refused with a 400 naming the member.',
    }),
);

export const SearchHitsSchema = named('SearchResponse', SearchHits);
export const FunnelSchema = named('Funnel', FunnelAnswer);
export const RetentionSchema = named('Retention', RetentionAnswer);
export const CountSchema = named('Count', Count);
export const DocumentSchema = named('Document', Document);
export const FieldListSchema = named('FieldList', FieldList);

export const search = (what: string, query: z.ZodObject): RouteSchema => ({
  description: `Searches ${what} of the token's app with the search DSL. An empty body matches everything.`,
  query,
  body: SearchBody,
  bodyOptional: true,
  responseStatus: 200,
  response: SearchHitsSchema,
  // 503: the search backend answered only part of the search.
  errors: [503],
});
export const count = (what: string, query: z.ZodObject): RouteSchema => ({
  description: `Counts ${what} matching the body's query (narrowed by its post_filter).`,
  query,
  body: SearchBody,
  bodyOptional: true,
  responseStatus: 200,
  response: CountSchema,
});
export const byId = (what: string, query?: z.ZodObject): RouteSchema => ({
  description: `One ${what} by id.`,
  ...(query ? { query } : {}),
  params: { id: `The ${what}'s id.` },
  responseStatus: 200,
  response: DocumentSchema,
  errors: [404],
});
export const remove = (what: string, response: z.ZodType): RouteSchema => ({
  description: `Deletes a ${what}'s profile; with delete_events=true also the events that name it.`,
  query: z.object({ delete_events: z.enum(['true', 'false']).optional().meta({ description: 'Also delete its events; default false.' }) }),
  params: { id: `The ${what}'s id.` },
  responseStatus: 200,
  response,
  errors: [404, 503],
});
export const properties = (what: string, query: z.ZodObject): RouteSchema => ({
  description: `The fields a ${what} query can use, read from the app's own newest documents.`,
  query,
  responseStatus: 200,
  response: FieldListSchema,
});

export const searchSchemas: Record<string, RouteSchema> = {
  searchEvents: search('events (API calls and actions) in the from/to window; voided ones with `voided`', EventSearchQuery),
  countEvents: count('events in the from/to window; voided ones with `voided`', EventSearchQuery),
  funnelEvents: {
    description:
      "A funnel over the events of the from/to window: each actor (user or company) enters at its first step-1 event; each later step is its first event of that step after the previous step's, within conversion_window of entering. Per step: entered, converted, rates and the median time to convert. Exact on DuckDB; on OpenSearch up to the caps in docs/management-api.md (then exact: false).",
    query: EventRangeQuery,
    body: named('FunnelBody', FunnelBody),
    responseStatus: 200,
    response: FunnelSchema,
  },
  retentionEvents: {
    description:
      'A retention table over the events of the from/to window (from is required): actors grouped by the calendar period (in time_zone) of their first first_event, and for each later period how many had a return_event in it.',
    query: EventRangeQuery,
    body: named('RetentionBody', RetentionBody),
    responseStatus: 200,
    response: RetentionSchema,
  },
  getEvent: byId(
    'event',
    z.object({
      event_time: z
        .string()
        .max(64)
        .optional()
        .meta({ format: 'date-time' })
        .meta({ description: "The event's time (ISO 8601): where to look, for a faster answer." }),
    }),
  ),
  eventProperties: properties('event', EventRangeQuery),
  searchUsers: search('user profiles', ProfileQuery),
  countUsers: count('user profiles', ProfileQuery),
  getUser: byId('user profile'),
  deleteUser: remove('user', UserDeleted),
  userProperties: properties('user', ProfileQuery),
  searchCompanies: search('company profiles', ProfileQuery),
  countCompanies: count('company profiles', ProfileQuery),
  getCompany: byId('company profile'),
  deleteCompany: remove('company', CompanyDeleted),
  writeUser: ingest('user profile (created, or merged into the stored one), through the same stream and merge as POST /v1/users', UserProfileSchema, false),
  writeUsers: ingest('user profiles, as POST /v1/users/batch takes them', UserProfileSchema, true),
  writeCompany: ingest('company profile (created, or merged into the stored one), as POST /v1/companies takes it', CompanyProfileSchema, false),
  writeCompanies: ingest('company profiles, as POST /v1/companies/batch takes them', CompanyProfileSchema, true),
  writeSubscription: ingest('subscription (created, or merged into the stored one), as POST /v1/subscriptions takes it', SubscriptionSchema, false),
  writeSubscriptions: ingest('subscriptions, as POST /v1/subscriptions/batch takes them', SubscriptionSchema, true),
  deletionStatus: {
    description:
      "Where a deletion of a user's or company's events stands (the deletion_id comes from DELETE …?delete_events=true). Only the app that started it can read it.",
    params: { id: 'The deletion_id.' },
    responseStatus: 200,
    response: EventsDeletion,
    errors: [404],
  },
  companyProperties: properties('company', ProfileQuery),
  companySubscriptions: {
    description: 'The subscriptions of a company (up to 1000), as search hits.',
    params: { id: "The company's id." },
    responseStatus: 200,
    response: SearchHitsSchema,
  },
};
// These run within the query budget (functions/search/query-budget.ts): 504 past its time.
for (const name of [
  'searchEvents',
  'countEvents',
  'funnelEvents',
  'retentionEvents',
  'eventProperties',
  'searchUsers',
  'countUsers',
  'userProperties',
  'searchCompanies',
  'countCompanies',
  'companyProperties',
  'companySubscriptions',
]) {
  searchSchemas[name] = { ...searchSchemas[name]!, runsQuery: true };
}

// ── OpenAPI documents ──

export const documentSchemas: Record<string, RouteSchema> = {
  openApi: {
    description: 'This API described as an OpenAPI 3.1 document (generated from the route table and the zod schemas).',
    responseStatus: 200,
    response: OpenApiDocument,
  },
};
