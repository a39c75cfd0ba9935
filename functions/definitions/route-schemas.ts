import * as z from 'zod';
import { ActionEvent, ApiCallEvent, CompanyProfile, Subscription, UserProfile } from '../../schemas/collector';
import { MAX_AGGREGATION_DEPTH, MAX_RESULT_WINDOW, MAX_SIZE } from '../../schemas/search-dsl';
import { UploadKind, UploadResult } from '../ingest/uploads/upload-store';
import {
  Accepted,
  CompanyDeleted,
  Count,
  Document,
  FieldList,
  OpenApiDocument,
  Probe,
  SdkConfigResponse,
  SearchHits,
  UploadTicket,
  UserDeleted,
} from '../openapi/response-schemas';

/**
 * What the OpenAPI documents say about each operation of the route table, keyed by operation name:
 * the zod schemas of its query, body and answer. Only the generator (bin/openapi.ts) and tests
 * import this file; the Lambdas serve the generated JSON, so their bundles never carry it.
 *
 * Statuses that follow from the route itself are added by the generator (401 for authenticated
 * routes, 402 and 429 for token routes, 400/413/415 for routes with a body, 406 everywhere);
 * `errors` lists the ones only the operation knows about (a missing id, a deleted resource, a
 * dependency that did not take a write).
 */
export interface RouteSchema {
  readonly description: string;
  /** Query parameters: one property each (strings on the wire). */
  readonly query?: z.ZodObject;
  /** Path parameters' descriptions; every `{param}` of the path is a required string either way. */
  readonly params?: Readonly<Record<string, string>>;
  readonly body?: z.ZodType;
  /** Operations that treat an empty body as `{}` (the search DSL) say so. */
  readonly bodyOptional?: boolean;
  readonly responseStatus: number;
  readonly response?: z.ZodType;
  readonly errors?: readonly ErrorStatus[];
}

export type ErrorStatus = 400 | 401 | 402 | 404 | 406 | 410 | 413 | 415 | 429 | 503;

/** A name for a schema in the documents' `components.schemas` (the generator turns it into a $ref). */
const named = <T extends z.ZodType>(name: string, schema: T): T => schema.meta({ id: name }) as T;

// ── Collector ──

const ApiCallEventSchema = named('ApiCallEvent', ApiCallEvent);
const ActionEventSchema = named('ActionEvent', ActionEvent);
const UserProfileSchema = named('UserProfile', UserProfile);
const CompanyProfileSchema = named('CompanyProfile', CompanyProfile);
const SubscriptionSchema = named('Subscription', Subscription);
const AcceptedSchema = named('Accepted', Accepted);

const ingest = (what: string, body: z.ZodType, batch: boolean): RouteSchema => ({
  description: batch
    ? `A JSON array of ${what}. All-or-nothing: one invalid item refuses the whole batch with a 400 whose details give each item's index. At most 50 MB decompressed (API Gateway caps a request at 10 MB on AWS: use POST /v1/uploads for larger batches); Content-Encoding gzip, deflate or br.`
    : `One ${what}. Content-Encoding gzip, deflate or br.`,
  body: batch ? z.array(body) : body,
  responseStatus: 201,
  response: AcceptedSchema,
  // 503: the ingest stream did not take every record; nothing was acknowledged, retry.
  errors: [503],
});

const collectorSchemas: Record<string, RouteSchema> = {
  events: ingest('API call event', ApiCallEventSchema, false),
  eventsBatch: ingest('API call events', ApiCallEventSchema, true),
  actions: ingest('action event', ActionEventSchema, false),
  actionsBatch: ingest('action events', ActionEventSchema, true),
  users: ingest('user profile (created, or merged into the stored one)', UserProfileSchema, false),
  usersBatch: ingest('user profiles', UserProfileSchema, true),
  companies: ingest('company profile (created, or merged into the stored one)', CompanyProfileSchema, false),
  companiesBatch: ingest('company profiles', CompanyProfileSchema, true),
  subscriptions: ingest('subscription (created, or merged into the stored one)', SubscriptionSchema, false),
  subscriptionsBatch: ingest('subscriptions', SubscriptionSchema, true),
  createUpload: {
    description: 'A pre-signed URL to PUT a batch larger than the API body limit (up to 50 MB); processing starts when the upload lands.',
    query: z.object({ kind: UploadKind.optional().meta({ description: 'What the batch holds; default event.' }) }),
    responseStatus: 201,
    response: named('UploadTicket', UploadTicket),
  },
  getUpload: {
    description: 'Processing status of an uploaded batch: pending, accepted (with the count) or rejected (with the error).',
    params: { uploadId: 'The upload_id from POST /v1/uploads.' },
    responseStatus: 200,
    response: named('UploadResult', UploadResult),
    errors: [404],
  },
  config: {
    description: 'Sampling rates and rule assignments for the calling app. Every collector answer carries its ETag (X-Config-ETag, X-Moesif-Config-ETag).',
    responseStatus: 200,
    response: named('SdkConfig', SdkConfigResponse),
  },
  rules: {
    description: 'The governance rules of the calling app, as SDKs apply them.',
    responseStatus: 200,
    response: z.array(z.looseObject({ _id: z.string() })),
  },
  probe: {
    description: 'Liveness probe; needs no application id.',
    responseStatus: 200,
    response: Probe,
  },
};

// ── Management: search ──

const timeZone = z.string().optional().meta({ description: 'TZ database name for dates without an offset and calendar buckets; default UTC.' });
const EventRangeQuery = z.object({
  from: z.string().optional().meta({ description: 'Start of the event-time window (inclusive): ISO 8601, `now`, or relative such as -24h, -2w, -1M.' }),
  to: z.string().optional().meta({ description: 'End of the window (exclusive), in the same forms as from.' }),
  time_zone: timeZone,
});
const ProfileQuery = z.object({ time_zone: timeZone });

/**
 * The top-level members of a search body. The DSL itself (queries, sorts, aggregations) is parsed
 * by schemas/search-dsl.ts, whose refinements have no JSON Schema form; a unit test checks that
 * every member named here is one that parser accepts.
 */
const SearchBody = named(
  'SearchBody',
  z
    .object({
      query: z.record(z.string(), z.unknown()).optional().meta({ description: 'An OpenSearch query (bool, term, terms, range, match, exists, query_string, …). Default match_all.' }),
      post_filter: z.record(z.string(), z.unknown()).optional().meta({ description: 'A query that filters hits but not aggregations.' }),
      size: z.int().min(0).max(MAX_SIZE).optional().meta({ description: 'Hits per page; default 10.' }),
      from: z.int().min(0).max(MAX_RESULT_WINDOW).optional().meta({ description: `Offset; from + size ≤ ${MAX_RESULT_WINDOW}. Page deeper with search_after.` }),
      sort: z.unknown().optional().meta({ description: 'Sort entries (field names or {field: {order, unmapped_type}}); compound with _id for stable paging.' }),
      search_after: z.array(z.unknown()).optional().meta({ description: 'The sort values of the last hit already seen.' }),
      _source: z.unknown().optional().meta({ description: 'false, a field pattern, a list of them, or {includes, excludes}.' }),
      track_total_hits: z.union([z.boolean(), z.int().min(0)]).optional(),
      aggs: z.record(z.string(), z.unknown()).optional().meta({ description: `Aggregations, nested at most ${MAX_AGGREGATION_DEPTH} deep. Set size 0 for metric queries.` }),
      aggregations: z.record(z.string(), z.unknown()).optional().meta({ description: 'Alias of aggs (give one of them).' }),
    })
    .meta({ description: 'A search DSL object (OpenSearch request-body search). Scripts, index names and administrative members are refused with a 400 naming the member.' }),
);

const SearchHitsSchema = named('SearchResponse', SearchHits);
const CountSchema = named('Count', Count);
const DocumentSchema = named('Document', Document);
const FieldListSchema = named('FieldList', FieldList);

const search = (what: string, query: z.ZodObject): RouteSchema => ({
  description: `Searches ${what} of the token's app with the search DSL. An empty body matches everything.`,
  query,
  body: SearchBody,
  bodyOptional: true,
  responseStatus: 200,
  response: SearchHitsSchema,
  // 503: the search backend answered only part of the search.
  errors: [503],
});
const count = (what: string, query: z.ZodObject): RouteSchema => ({
  description: `Counts ${what} matching the body's query (narrowed by its post_filter).`,
  query,
  body: SearchBody,
  bodyOptional: true,
  responseStatus: 200,
  response: CountSchema,
});
const byId = (what: string, query?: z.ZodObject): RouteSchema => ({
  description: `One ${what} by id.`,
  ...(query ? { query } : {}),
  params: { id: `The ${what}'s id.` },
  responseStatus: 200,
  response: DocumentSchema,
  errors: [404],
});
const remove = (what: string, response: z.ZodType): RouteSchema => ({
  description: `Deletes a ${what}'s profile; with delete_events=true also the events that name it.`,
  query: z.object({ delete_events: z.enum(['true', 'false']).optional().meta({ description: 'Also delete its events; default false.' }) }),
  params: { id: `The ${what}'s id.` },
  responseStatus: 200,
  response,
  errors: [404, 503],
});
const properties = (what: string, query: z.ZodObject): RouteSchema => ({
  description: `The fields a ${what} query can use, read from the app's own newest documents.`,
  query,
  responseStatus: 200,
  response: FieldListSchema,
});

const searchSchemas: Record<string, RouteSchema> = {
  searchEvents: search('events (API calls and actions) in the from/to window', EventRangeQuery),
  countEvents: count('events in the from/to window', EventRangeQuery),
  getEvent: byId('event', z.object({ event_time: z.string().optional().meta({ description: "The event's time (ISO 8601): where to look, for a faster answer." }) })),
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
  companyProperties: properties('company', ProfileQuery),
  companySubscriptions: {
    description: 'The subscriptions of a company (up to 1000), as search hits.',
    params: { id: "The company's id." },
    responseStatus: 200,
    response: SearchHitsSchema,
  },
};

// ── OpenAPI documents ──

const documentSchemas: Record<string, RouteSchema> = {
  openApi: {
    description: 'This API described as an OpenAPI 3.1 document (generated from the route table and the zod schemas).',
    responseStatus: 200,
    response: OpenApiDocument,
  },
};

export const routeSchemas: Readonly<Record<string, RouteSchema>> = {
  ...collectorSchemas,
  ...searchSchemas,
  ...documentSchemas,
};
