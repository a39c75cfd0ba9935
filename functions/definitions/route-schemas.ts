import * as z from 'zod';
import { ActionEvent, ApiCallEvent, CompanyProfile, Subscription, UserProfile } from '../../schemas/collector';
import { MAX_AGGREGATION_DEPTH, MAX_RESULT_WINDOW, MAX_SIZE } from '../../schemas/search-dsl';
import { BalanceEntry, BalanceTransactionCreate, SubscriptionBalance } from '../../schemas/billing/balance';
import { PlanInput, PlanUpdate, PriceInput, PriceUpdate } from '../../schemas/billing/catalog';
import { ChannelCreate, ChannelStatus, ChannelTestRequest, ChannelUpdate, StoredChannel } from '../../schemas/billing/channel';
import { BillingReport } from '../../schemas/billing/report';
import { SdkRule } from '../../schemas/governance';
import { MintTokenQuery, PasswordGrantFields } from '../../schemas/oauth';
import { CreateOrgUser } from '../../schemas/org';
import { AppCreate, AppUpdate } from '../../schemas/resources/app-input';
import { BillingMeterCreate, BillingMeterUpdate } from '../../schemas/resources/billing-meter';
import { CohortCreate, CohortType, CohortUpdate } from '../../schemas/resources/cohort';
import { DashboardCascadeResult, DashboardCopy, DashboardCreate, DashboardDocument, DashboardUpdate } from '../../schemas/resources/dashboard';
import { EmailTemplateCreate, EmailTemplateDocument, EmailTemplateUpdate } from '../../schemas/resources/email-template';
import { GovernanceRuleCreate, GovernanceRuleUpdate } from '../../schemas/resources/governance-rule';
import { EncryptedKeyCreateBody, EncryptedKeyDocument, EncryptedKeyListQuery, EncryptedKeySummary, EncryptedKeyUpdate } from '../../schemas/resources/keystore';
import { AclGrant, AclRevoke } from '../../schemas/resources/policy';
import { CommentCreate, CommentDocument, CommentUpdate, WorkspaceCreate, WorkspaceDocument, WorkspaceUpdate } from '../../schemas/resources/workspace';
import { ReportMetricsParams } from '../billing/reports/report-metrics';
import { ReportListParams } from '../billing/reports/report-query';
import { UploadKind, UploadResult } from '../ingest/uploads/upload-store';
import { ReportExplain, ReportMetrics } from '../openapi/report-answers';
import { DEFAULT_TAKE, MAX_TAKE } from '../resources/resource-store';
import {
  Accepted,
  AppResponse,
  ChannelTestOutcome,
  CompanyDeleted,
  Count,
  Document,
  EventsDeletion,
  FieldList,
  OAuthErrorBody,
  OAuthToken,
  OpenApiDocument,
  OrgUserResponse,
  Probe,
  SdkConfigResponse,
  SearchHits,
  SignedTokenResponse,
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
  /** Media types the body may come as; default application/json. */
  readonly bodyMediaTypes?: readonly string[];
  readonly responseStatus: number;
  readonly response?: z.ZodType;
  /** Headers of the success answer (name → what it says). */
  readonly responseHeaders?: Readonly<Record<string, string>>;
  readonly errors?: readonly ErrorStatus[];
  /**
   * Statuses answered with another body than the service's error shape (the token URL answers
   * RFC 6749 errors); they replace the derived ones.
   */
  readonly ownErrors?: { readonly statuses: readonly ErrorStatus[]; readonly schema: z.ZodType; readonly description: string };
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
    responseHeaders: {
      'X-Config-ETag': 'Content tag of this configuration; SDKs refetch when an answer carries another.',
      'X-Moesif-Config-ETag': 'The same tag under the header name existing SDKs read.',
    },
  },
  rules: {
    description: 'The governance rules of the calling app, as SDKs apply them.',
    responseStatus: 200,
    response: z.array(named('SdkRule', SdkRule)),
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
  writeUser: ingest('user profile (created, or merged into the stored one), through the same stream and merge as POST /v1/users', UserProfileSchema, false),
  writeUsers: ingest('user profiles, as POST /v1/users/batch takes them', UserProfileSchema, true),
  writeCompany: ingest('company profile (created, or merged into the stored one), as POST /v1/companies takes it', CompanyProfileSchema, false),
  writeCompanies: ingest('company profiles, as POST /v1/companies/batch takes them', CompanyProfileSchema, true),
  writeSubscription: ingest('subscription (created, or merged into the stored one), as POST /v1/subscriptions takes it', SubscriptionSchema, false),
  writeSubscriptions: ingest('subscriptions, as POST /v1/subscriptions/batch takes them', SubscriptionSchema, true),
  deletionStatus: {
    description: "Where a deletion of a user's or company's events stands (the deletion_id comes from DELETE …?delete_events=true). Only the app that started it can read it.",
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

// ── OpenAPI documents ──

const documentSchemas: Record<string, RouteSchema> = {
  openApi: {
    description: 'This API described as an OpenAPI 3.1 document (generated from the route table and the zod schemas).',
    responseStatus: 200,
    response: OpenApiDocument,
  },
};

// ── Management: OAuth, access tokens, org users ──

const OrgUserSchema = named('OrgUser', OrgUserResponse);

const oauthSchemas: Record<string, RouteSchema> = {
  issueAccessToken: {
    description: 'RFC 6749 password grant: an org user\'s username and password for a management token valid one hour. Form-encoded (RFC 6749) or JSON. Errors use the RFC 6749 shape, not the service\'s. Rate-limited per org.',
    params: { orgId: 'The organisation the user belongs to.' },
    body: named('PasswordGrant', PasswordGrantFields.meta({ description: 'grant_type=password, username and password are required; scope (space- or comma-separated) narrows the token; app_id picks the app `~` means (default: the org\'s first app).' })),
    bodyMediaTypes: ['application/x-www-form-urlencoded', 'application/json'],
    responseStatus: 200,
    response: named('OAuthToken', OAuthToken),
    ownErrors: { statuses: [400, 401, 429], schema: named('OAuthError', OAuthErrorBody), description: 'RFC 6749 §5.2 error (invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, too_many_requests).' },
  },
  mintAccessToken: {
    description: 'target=management (default): a new management token with the given scopes (a subset of the caller\'s) and expiration. target=collector: the app\'s collector application id.',
    query: MintTokenQuery,
    responseStatus: 200,
    response: named('SignedToken', SignedTokenResponse),
  },
  revokeAccessToken: {
    description: 'Revokes a management token of the caller\'s organisation by its id (the `_id` minting returned, the token\'s jti).',
    params: { tokenId: 'The token id (jti).' },
    responseStatus: 204,
    errors: [404],
  },
  createOrgUser: {
    description: 'Creates a user of the caller\'s organisation who can sign in at the token URL; scopes bound what their tokens may hold (`admin` = every scope).',
    body: CreateOrgUser,
    responseStatus: 201,
    response: OrgUserSchema,
  },
  listOrgUsers: {
    description: 'The users of the caller\'s organisation (never their password hashes).',
    responseStatus: 200,
    response: z.object({ users: z.array(OrgUserSchema) }),
  },
  deleteOrgUser: {
    description: 'Deletes a user of the caller\'s organisation and revokes every token issued to them (refused from the next request on).',
    params: { username: 'The user\'s username.' },
    responseStatus: 204,
    errors: [404],
  },
};

// ── Management: managed resources (the generic CRUD of functions/resources/crud-operations.ts) ──

const ListQuery = z.object({
  take: z.int().min(1).max(MAX_TAKE).optional().meta({ description: `Page size, 1–${MAX_TAKE}; default ${DEFAULT_TAKE}.` }),
  before_id: z.string().optional().meta({ description: 'The x-next-before-id of the previous page.' }),
});
const NEXT_PAGE = { 'x-next-before-id': 'Present when another page may follow: pass it as before_id.' };

interface CrudSpec {
  readonly noun: string;
  readonly plural: string;
  readonly idParam: string;
  readonly create: z.ZodType;
  readonly update: z.ZodType;
  readonly document: z.ZodType;
  /** The list's filter parameters beyond take and before_id. */
  readonly filters?: z.ZodObject;
  /** Updates must repeat a field unchanged, or the service sets fields an update may echo. */
  readonly updateNote?: string;
}

/** The five entries of a managed kind: `<name>.list`, `.get`, `.create`, `.update`, `.delete`. */
function crud(name: string, spec: CrudSpec): Record<string, RouteSchema> {
  const { document } = spec;
  const params = { [spec.idParam]: `The ${spec.noun}'s id.` };
  return {
    [`${name}.list`]: {
      description: `The app's ${spec.plural}, newest first, a page at a time.`,
      query: spec.filters ? ListQuery.extend(spec.filters.shape) : ListQuery,
      responseStatus: 200,
      response: z.array(document),
      responseHeaders: NEXT_PAGE,
    },
    [`${name}.get`]: { description: `One ${spec.noun}.`, params, responseStatus: 200, response: document, errors: [404, 410] },
    [`${name}.create`]: { description: `Creates a ${spec.noun}. Nothing is written unless the whole body is valid.`, body: spec.create, responseStatus: 201, response: document },
    [`${name}.update`]: {
      description: `Updates a ${spec.noun} with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 400 naming it.${spec.updateNote ? ` ${spec.updateNote}` : ''}`,
      params,
      body: spec.update,
      responseStatus: 200,
      response: document,
      // 503: a concurrent change won the race; retry.
      errors: [404, 410, 503],
    },
    [`${name}.delete`]: { description: `Deletes a ${spec.noun}; afterwards its id answers 410.`, params, responseStatus: 204, errors: [404, 410] },
  };
}

const SystemFields = { _id: z.string(), org_id: z.string(), app_id: z.string(), created_at: z.string(), modified_at: z.string() };

/** A cohort as stored and shown: its create fields, criteria as a JSON string (spec), the system fields. */
const CohortSchema = named(
  'Cohort',
  z.looseObject({
    ...CohortCreate.shape,
    criteria: z.string().meta({ description: 'The criteria query, as a JSON string.' }),
    sample_rate: z.int().optional(),
    ...SystemFields,
  }),
);

/** A governance rule as stored and shown: its create fields and the system fields. */
const GovernanceRuleSchema = named('GovernanceRule', z.looseObject({ ...GovernanceRuleCreate.shape, ...SystemFields }));

/** A billing meter as stored and shown: es_query normalised to its JSON text (spec: es_query is a string). */
const BillingMeterSchema = named(
  'BillingMeter',
  z.looseObject({ ...BillingMeterCreate.shape, es_query: z.string().meta({ description: 'The events search body, as JSON text.' }), ...SystemFields }),
);

const resourceSchemas: Record<string, RouteSchema> = {
  ...crud('apps', {
    noun: 'app',
    plural: 'apps (of the organisation)',
    idParam: 'id',
    create: named('AppCreate', AppCreate),
    update: named('AppUpdate', AppUpdate),
    document: named('App', AppResponse),
  }),
  ...crud('cohorts', {
    noun: 'cohort',
    plural: 'cohorts',
    idParam: 'cohortId',
    create: named('CohortCreate', CohortCreate),
    update: named('CohortUpdate', CohortUpdate),
    document: CohortSchema,
    filters: z.object({ cohort_type: CohortType.optional() }),
    updateNote: 'cohort_type is required and must be unchanged.',
  }),
  'cohorts.deleteSampleRate': {
    description: "Removes a cohort's sample rate.",
    params: { cohortId: "The cohort's id." },
    responseStatus: 200,
    response: CohortSchema,
    errors: [404, 410, 503],
  },
  ...crud('governanceRules', {
    noun: 'governance rule',
    plural: 'governance rules',
    idParam: 'id',
    create: named('GovernanceRuleCreate', GovernanceRuleCreate),
    update: named('GovernanceRuleUpdate', GovernanceRuleUpdate),
    document: GovernanceRuleSchema,
  }),
  ...crud('billingMeters', {
    noun: 'billing meter',
    plural: 'billing meters',
    idParam: 'meterId',
    create: named('BillingMeterCreate', BillingMeterCreate),
    update: named('BillingMeterUpdate', BillingMeterUpdate),
    document: BillingMeterSchema,
  }),
};
// ── Management: dashboards, workspaces, email templates, keystore (helper B2) ──

const DashboardSchema = named('Dashboard', DashboardDocument);
const EncryptedKeySchema = named('EncryptedKey', EncryptedKeyDocument);
const WorkspaceSchema = named('Workspace', WorkspaceDocument);
const CommentSchema = named('Comment', CommentDocument);

const aclEntries = (name: string, noun: string, idParam: string, document: z.ZodType): Record<string, RouteSchema> => ({
  [`${name}.aclAdd`]: {
    description: `Grants a permission on a ${noun} (adds or replaces the grantee's ACL entry).`,
    params: { [idParam]: `The ${noun}'s id.` },
    body: AclGrant,
    responseStatus: 200,
    response: document,
    errors: [404, 410, 503],
  },
  [`${name}.aclRemove`]: {
    description: `Removes a grantee from a ${noun}'s ACL (the grantee comes in the body or as the grantee query parameter).`,
    params: { [idParam]: `The ${noun}'s id.` },
    query: z.object({ grantee: z.string().optional().meta({ description: 'The grantee to remove, when the body does not name it.' }) }),
    body: AclRevoke,
    bodyOptional: true,
    responseStatus: 200,
    response: document,
    errors: [404, 410, 503],
  },
});

const boardSchemas: Record<string, RouteSchema> = {
  ...crud('dashboards', {
    noun: 'dashboard',
    plural: 'dashboards',
    idParam: 'dashId',
    create: named('DashboardCreate', DashboardCreate),
    update: named('DashboardUpdate', DashboardUpdate),
    document: DashboardSchema,
  }),
  'dashboards.copy': {
    description: 'Copies a dashboard with its child dashboards and workspaces; answers the new root dashboard.',
    params: { dashId: "The dashboard's id." },
    body: DashboardCopy,
    bodyOptional: true,
    responseStatus: 201,
    response: DashboardSchema,
    errors: [404, 410],
  },
  'dashboards.cascadeDelete': {
    description: 'Deletes a dashboard with its child dashboards and their workspaces.',
    params: { dashId: "The dashboard's id." },
    responseStatus: 200,
    response: DashboardCascadeResult,
    errors: [404, 410],
  },
  ...aclEntries('dashboards', 'dashboard', 'dashId', DashboardSchema),
  ...crud('workspaces', {
    noun: 'workspace',
    plural: 'workspaces',
    idParam: 'id',
    create: named('WorkspaceCreate', WorkspaceCreate),
    update: named('WorkspaceUpdate', WorkspaceUpdate),
    document: WorkspaceSchema,
    filters: z.object({ type: z.string().optional().meta({ description: 'Only workspaces of this type.' }) }),
  }),
  'workspaces.templates': {
    description: 'The template workspaces of the app.',
    query: ListQuery,
    responseStatus: 200,
    response: z.array(WorkspaceSchema),
    responseHeaders: NEXT_PAGE,
  },
  'workspaces.comments.create': {
    description: 'Comments on a workspace as the caller.',
    params: { id: "The workspace's id." },
    body: CommentCreate,
    responseStatus: 201,
    response: CommentSchema,
    errors: [404, 410],
  },
  'workspaces.comments.list': {
    description: "A workspace's comments, newest first.",
    params: { id: "The workspace's id." },
    query: ListQuery,
    responseStatus: 200,
    response: z.array(CommentSchema),
    responseHeaders: NEXT_PAGE,
    errors: [404, 410],
  },
  'workspaces.comments.update': {
    description: "Edits one of the caller's own comments.",
    params: { id: "The workspace's id.", commentId: "The comment's id." },
    body: CommentUpdate,
    responseStatus: 200,
    response: CommentSchema,
    errors: [404, 410],
  },
  'workspaces.comments.delete': {
    description: "Deletes one of the caller's own comments.",
    params: { id: "The workspace's id.", commentId: "The comment's id." },
    responseStatus: 204,
    errors: [404, 410],
  },
  ...aclEntries('workspaces', 'workspace', 'id', WorkspaceSchema),
  ...crud('emailTemplates', {
    noun: 'email template',
    plural: 'email templates',
    idParam: 'id',
    create: named('EmailTemplateCreate', EmailTemplateCreate),
    update: named('EmailTemplateUpdate', EmailTemplateUpdate),
    document: named('EmailTemplate', EmailTemplateDocument),
    filters: z.object({ cohort_id: z.string().optional().meta({ description: 'Only templates sent to this cohort.' }) }),
  }),
  ...crud('keystore', {
    noun: 'encrypted key',
    plural: 'encrypted keys (without their key material)',
    idParam: 'keyId',
    create: EncryptedKeyCreateBody,
    update: named('EncryptedKeyUpdate', EncryptedKeyUpdate),
    document: EncryptedKeySchema,
    filters: EncryptedKeyListQuery,
  }),
};
// The keystore differs from the generic kinds: several keys at once, and lists without the material.
boardSchemas['keystore.create'] = {
  ...boardSchemas['keystore.create']!,
  description: 'Stores one wrapped key (an object) or up to 100 (an array); answers the stored key, or an array of them.',
  response: z.union([EncryptedKeySchema, z.array(EncryptedKeySchema)]),
};
boardSchemas['keystore.list'] = {
  ...boardSchemas['keystore.list']!,
  description: 'Encrypted keys whose month lies in [from, to] (months YYYY-MM or date-times), of one type; without their key material.',
  response: z.array(named('EncryptedKeySummary', EncryptedKeySummary)),
};

// ── Management: billing catalog ──

const CatalogItem = named(
  'CatalogItem',
  z.looseObject({ id: z.string(), created_at: z.string(), updated_at: z.string() })
    .meta({ description: 'A catalog plan or price: the fields of its create body plus id, created_at and updated_at.' }),
);

const catalogSchemas: Record<string, RouteSchema> = {
  ...crud('catalogPlans', {
    noun: 'catalog plan',
    plural: 'catalog plans',
    idParam: 'id',
    create: named('PlanInput', PlanInput),
    update: named('PlanUpdate', PlanUpdate),
    document: CatalogItem,
    filters: z.object({
      provider: z.string().optional().meta({ description: 'Only plans of this provider (`all`: every provider).' }),
      includes: z.string().optional().meta({ description: '`prices` embeds each plan\'s prices.' }),
    }),
    updateNote: 'provider must be unchanged.',
  }),
  ...crud('catalogPrices', {
    noun: 'catalog price',
    plural: 'catalog prices',
    idParam: 'id',
    create: named('PriceInput', PriceInput),
    update: named('PriceUpdate', PriceUpdate),
    document: CatalogItem,
    filters: z.object({
      provider: z.string().optional().meta({ description: 'Only prices of this provider (`all`: every provider).' }),
      plan_id: z.string().optional().meta({ description: 'Only prices of this plan.' }),
    }),
    updateNote: 'plan_id and provider must be unchanged; the merged price is validated as a whole.',
  }),
};
// The catalog's get embeds the plan's prices.
catalogSchemas['catalogPlans.get'] = {
  ...catalogSchemas['catalogPlans.get']!,
  description: 'One catalog plan with its prices.',
  response: z.looseObject({ id: z.string(), prices: z.array(CatalogItem) }),
};
catalogSchemas['catalogPlans.delete'] = {
  ...catalogSchemas['catalogPlans.delete']!,
  description: 'Deletes a catalog plan that has no prices (a 400 names the plan otherwise); afterwards its id answers 410.',
};

// ── Management: billing webhook channels (helper P) ──

/** A channel as the API shows it: never its secret, only a hint (the create or rotate answer adds the new secret once). */
const ChannelSchema = named(
  'Channel',
  StoredChannel.omit({ secret: true, previous_secret: true }).extend({
    secret_hint: z.string().meta({ description: 'The secret\'s last four characters.' }),
    secret: z.string().optional().meta({ description: 'Only in the answer that created the channel or set / rotated its secret.' }),
  }),
);

const channelSchemas: Record<string, RouteSchema> = {
  ...crud('billingChannels', {
    noun: 'webhook channel',
    plural: 'webhook channels',
    idParam: 'channelId',
    create: named('ChannelCreate', ChannelCreate),
    update: named('ChannelUpdate', ChannelUpdate),
    document: ChannelSchema,
    filters: z.object({ status: ChannelStatus.optional() }),
    updateNote: 'A new secret (or rotate_secret: true) keeps the previous one signing for 24 h.',
  }),
  'billingChannels.test': {
    description: "Sends a signed billing.test event to each channel of the meter's webhook_params.channel_ids (or the body's channel_id), as usage deliveries are sent, and answers each channel's request record.",
    params: { meterId: "The billing meter's id." },
    body: ChannelTestRequest,
    bodyOptional: true,
    responseStatus: 200,
    response: z.object({
      billing_meter_id: z.string(),
      event_id: z.string(),
      success: z.boolean().meta({ description: 'Every channel answered 2xx.' }),
      channel_requests: z.array(ChannelTestOutcome),
    }),
    errors: [404, 410],
  },
};

// ── Management: billing reports (helper P) ──

const BillingReportSchema = named('BillingReport', BillingReport);

const reportSchemas: Record<string, RouteSchema> = {
  'billingReports.list': {
    description: 'Billing reports whose window overlaps [from, to) (relative and zoned dates as in search; default: everything up to now), newest window first, filtered by the other parameters (status: comma-separated).',
    query: ReportListParams,
    responseStatus: 200,
    response: z.array(BillingReportSchema),
    responseHeaders: NEXT_PAGE,
  },
  'billingReports.get': {
    description: 'One billing report.',
    params: { reportId: "The report's _id." },
    responseStatus: 200,
    response: BillingReportSchema,
    errors: [404],
  },
  'billingReports.metrics': {
    description: 'Buckets of the reports in [from, to) (default the last month): the aggregator over meter_usage, amounts per currency and the ending credit balance; with group_by, one series per value.',
    query: ReportMetricsParams,
    responseStatus: 200,
    response: named('BillingMetrics', ReportMetrics),
  },
  'billingReports.explain': {
    description: "Re-runs a report's usage query for its window and subscription through the search index: the recomputed usage, whether it matches, the exact query, and sample events.",
    params: { reportId: "The report's _id." },
    responseStatus: 200,
    response: named('ReportExplanation', ReportExplain),
    errors: [404],
  },
};

// ── Management: credit balances ──

const balanceSchemas: Record<string, RouteSchema> = {
  createBalanceTransaction: {
    description: "Records a credit, debit, promotion or adjustment on a subscription's balance. Idempotent per transaction_id: repeating an identical one answers 204 again.",
    body: named('BalanceTransactionCreate', BalanceTransactionCreate),
    responseStatus: 204,
  },
  listBalanceTransactions: {
    description: "A subscription's balance ledger, newest first.",
    query: z.object({
      subscription_id: z.string().meta({ description: 'The subscription whose ledger to list.' }),
      take: ListQuery.shape.take,
      before_id: z.string().optional().meta({ description: 'The x-next-before-id (a sequence_id) of the previous page.' }),
    }),
    responseStatus: 200,
    response: z.array(named('BalanceEntry', BalanceEntry)),
    responseHeaders: NEXT_PAGE,
  },
  listBalances: {
    description: 'Credit balances of one subscription or of every subscription of a company (give subscription_id or company_id).',
    query: z.object({
      subscription_id: z.string().optional(),
      company_id: z.string().optional(),
    }),
    responseStatus: 200,
    response: z.array(named('SubscriptionBalance', SubscriptionBalance)),
  },
};

export const routeSchemas: Readonly<Record<string, RouteSchema>> = {
  ...collectorSchemas,
  ...searchSchemas,
  ...documentSchemas,
  ...oauthSchemas,
  ...resourceSchemas,
  ...boardSchemas,
  ...catalogSchemas,
  ...channelSchemas,
  ...reportSchemas,
  ...balanceSchemas,
};
