import * as z from 'zod';
import { IssuedToken, MintTokenQuery, PasswordGrantFields } from '../../../schemas/oauth';
import { IngestBacklog } from '../../../schemas/ingest-backlog';
import { CreateOrgUser } from '../../../schemas/org';
import { AppCreate, AppUpdate } from '../../../schemas/resources/app-input';
import { MeterPreview } from '../../../schemas/billing/meter-preview';
import { ConsoleSignIn } from '../../../schemas/console-session';
import { BillingMeterCreate, BillingMeterUpdate } from '../../../schemas/resources/billing-meter';
import { CohortCreate, CohortMembers, CohortMembersPreview, CohortMembersQuery, CohortType, CohortUpdate } from '../../../schemas/resources/cohort';
import { GovernanceRuleCreate, GovernanceRuleUpdate } from '../../../schemas/resources/governance-rule';
import { RuleMembers, RuleMembersQuery } from '../../../schemas/governance';
import { AlertEvent, AlertHistoryQuery, AlertPreviewRequest, AlertRuleCreate, AlertRuleUpdate } from '../../../schemas/resources/alert-rule';
import { VirtualEventTypeCreate, VirtualEventTypeUpdate } from '../../../schemas/resources/virtual-event-type';
import { ExportCreate, ExportJobAnswer } from '../../../schemas/resources/export-job';
import { AppResponse, OAuthErrorBody, OAuthToken, OrgUserResponse, SignedTokenResponse } from '../response-schemas';
import { crud, ListQuery, named, NEXT_PAGE, SystemFields, type RouteSchema } from './route-schema';

/** OAuth, tokens, org users and the managed resources of the management API. */
// ── Management: OAuth, access tokens, org users ──

/** One named schema for both member-list answers (a name may be registered once). */
const CohortMembersSchema = named('CohortMembers', CohortMembers);

export const OrgUserSchema = named('OrgUser', OrgUserResponse);
const OAuthTokenSchema = named('OAuthToken', OAuthToken);
const OAuthErrorSchema = named('OAuthError', OAuthErrorBody);

export const oauthSchemas: Record<string, RouteSchema> = {
  issueAccessToken: {
    description:
      "RFC 6749 password grant: an org user's username and password for a management token valid one hour. Form-encoded (RFC 6749) or JSON. Errors use the RFC 6749 shape, not the service's. Rate-limited per org.",
    params: { orgId: 'The organisation the user belongs to.' },
    body: named(
      'PasswordGrant',
      PasswordGrantFields.meta({
        description:
          "grant_type=password, username and password are required; scope (space- or comma-separated) narrows the token; app_id picks the app `~` means (default: the org's first app).",
      }),
    ),
    bodyMediaTypes: ['application/x-www-form-urlencoded', 'application/json'],
    responseStatus: 200,
    response: OAuthTokenSchema,
    ownErrors: {
      statuses: [400, 401, 429],
      schema: OAuthErrorSchema,
      description: 'RFC 6749 §5.2 error (invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, too_many_requests).',
    },
  },
  startConsoleSession: {
    description:
      "The console's sign-in: checks an org user's password as the token URL does and answers a one-hour token, plus a session cookie (HttpOnly, SameSite=Strict, Path=/oauth/console_session) that renews it for up to 7 days (12 hours without use). Errors use the RFC 6749 shape. Rate-limited per org with the token URL.",
    body: named('ConsoleSignIn', ConsoleSignIn),
    responseStatus: 200,
    response: OAuthTokenSchema,
    ownErrors: {
      statuses: [400, 401, 429],
      schema: OAuthErrorSchema,
      description: 'RFC 6749 §5.2 error (invalid_request, invalid_grant, invalid_scope, too_many_requests).',
    },
  },
  refreshConsoleSession: {
    description:
      "A new one-hour token for the session of the console_session cookie, holding the session's scopes the user still holds. The cookie is rotated; the secret it replaced is honoured for 30 s more (tabs refreshing together), after that its use ends the session.",
    responseStatus: 200,
    response: OAuthTokenSchema,
    ownErrors: {
      statuses: [401],
      schema: OAuthErrorSchema,
      description: 'invalid_grant: no cookie, or its session ended, expired or was replaced; the cookie is cleared.',
    },
  },
  endConsoleSession: {
    description:
      'Ends the session of the console_session cookie (its cookie is refused from then on) and clears the cookie. Answers 204 with or without a session.',
    responseStatus: 204,
  },
  mintAccessToken: {
    description:
      "target=management (default): a new management token with the given scopes (a subset of the caller's) and expiration. target=collector: the app's collector application id.",
    query: MintTokenQuery,
    responseStatus: 200,
    response: named('SignedToken', SignedTokenResponse),
  },
  ingestBacklog: {
    description:
      'The ingest backlog: stream records the collector acknowledged and the consumer has not finished, the age of the oldest, and the limit past which the collector answers 503 with Retry-After. Measured by the local runtime (its journal); on AWS `measured` is false and `note` names the Kinesis metric to read.',
    responseStatus: 200,
    response: named('IngestBacklog', IngestBacklog),
  },
  listAccessTokens: {
    description:
      "The tokens issued to the caller's user that are still usable (not revoked, not expired), newest first, at most 200: ids, apps, scopes, issue and expiry times. The token texts are never shown again.",
    responseStatus: 200,
    response: z.array(named('IssuedToken', IssuedToken)),
  },
  revokeAccessToken: {
    description: "Revokes a management token of the caller's organisation by its id (the `_id` minting returned, the token's jti).",
    params: { tokenId: 'The token id (jti).' },
    responseStatus: 204,
    errors: [404],
  },
  createOrgUser: {
    description:
      "Creates a user of the caller's organisation who can sign in at the token URL; scopes bound what their tokens may hold (`admin` = every scope).",
    body: CreateOrgUser,
    responseStatus: 201,
    response: OrgUserSchema,
    errors: [409],
  },
  listOrgUsers: {
    description: "The users of the caller's organisation (never their password hashes).",
    responseStatus: 200,
    response: z.object({ users: z.array(OrgUserSchema) }),
  },
  deleteOrgUser: {
    description: "Deletes a user of the caller's organisation and revokes every token issued to them (refused from the next request on).",
    params: { username: "The user's username." },
    responseStatus: 204,
    errors: [404],
  },
};

/** A cohort as stored and shown: its create fields, criteria as a JSON string (spec), the system fields. */
export const CohortSchema = named(
  'Cohort',
  z.looseObject({
    ...CohortCreate.shape,
    criteria: z.string().meta({ description: 'The criteria query, as a JSON string.' }),
    sample_rate: z.int().optional(),
    ...SystemFields,
  }),
);

/** A governance rule as stored and shown: its create fields and the system fields. */
export const GovernanceRuleSchema = named('GovernanceRule', z.looseObject({ ...GovernanceRuleCreate.shape, ...SystemFields }));

/** A billing meter as stored and shown: es_query normalised to its JSON text (spec: es_query is a string). */
export const BillingMeterSchema = named(
  'BillingMeter',
  z.looseObject({ ...BillingMeterCreate.shape, es_query: z.string().meta({ description: 'The events search body, as JSON text.' }), ...SystemFields }),
);

/** A virtual event type as stored and shown: its fields and the system fields. */
export const VirtualEventTypeSchema = named(
  'VirtualEventType',
  z.looseObject({
    ...VirtualEventTypeCreate.shape,
    criteria: z
      .record(z.string(), z.unknown())
      .meta({ description: 'The events query (or a search body holding one) whose events have this type; it may not use virtual_event_types itself.' }),
    ...SystemFields,
  }),
);

const BillingMeterCreateSchema = named('BillingMeterCreate', BillingMeterCreate);

// ── Management: meter previews ──

const MeterPreviewSchema = named('MeterPreview', MeterPreview);

const meterPreviewSchemas: Record<string, RouteSchema> = {
  'billingMeters.preview': {
    runsQuery: true,
    description:
      'Checks a meter before it is saved (the create body): the plan/price ids its subscriptions must carry, the subscriptions that match, warnings when it would bill nothing, and the usage and amount per subscription of the window in progress, computed as the billing run computes them.',
    body: BillingMeterCreateSchema,
    responseStatus: 200,
    response: MeterPreviewSchema,
  },
  'billingMeters.previewSaved': {
    runsQuery: true,
    description:
      'The preview of a saved meter (see POST /~/billing/meters/preview). A stored meter the billing run cannot evaluate (its provider params are not usable) is a 400 naming why, as the run reports it.',
    params: { meterId: "The billing meter's id." },
    responseStatus: 200,
    response: MeterPreviewSchema,
    errors: [400, 404],
  },
};

const ExportJobSchema = named('ExportJob', ExportJobAnswer);

/** Bulk exports: jobs, not managed resources (no update; cancel instead of delete). */
export const exportSchemas: Record<string, RouteSchema> = {
  'exports.create': {
    description:
      'Starts an export of events (in the from/to window), users or companies, optionally narrowed by a search-DSL query, as gzip NDJSON or CSV parts. Answers 201 with the job (status queued); it runs in the background. Users and companies also need read:users / read:companies.',
    body: named('ExportCreate', ExportCreate),
    responseStatus: 201,
    response: ExportJobSchema,
  },
  'exports.list': {
    description: "The app's export jobs, newest first, a page at a time.",
    query: ListQuery,
    responseStatus: 200,
    response: z.array(ExportJobSchema),
    responseHeaders: NEXT_PAGE,
  },
  'exports.get': {
    description: 'An export job: status, progress (exported / estimated_total) and its parts, each with a download URL signed for this answer.',
    params: { id: "The export's id." },
    responseStatus: 200,
    response: ExportJobSchema,
    errors: [404],
  },
  'exports.cancel': {
    description: 'Cancels a queued or running export and deletes its parts; a finished one is answered as it is.',
    params: { id: "The export's id." },
    responseStatus: 200,
    response: ExportJobSchema,
    errors: [404, 503],
  },
};

export const resourceSchemas: Record<string, RouteSchema> = {
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
  'cohorts.members': {
    description:
      'Who is in the cohort now, computed at the request: profiles matching its criteria and, for a behavioural cohort, meeting its event conditions. Sorted by id; page with `after` = the `next_after` of the page before; `member_id` asks about one user or company.',
    params: { cohortId: "The cohort's id." },
    query: CohortMembersQuery,
    responseStatus: 200,
    response: CohortMembersSchema,
    errors: [400, 404, 410],
  },
  'cohorts.previewMembers': {
    description:
      'Who criteria not yet saved would select now, counted exactly as a saved cohort is (the console counts members with it while criteria are edited). Nothing is stored.',
    body: named('CohortMembersPreview', CohortMembersPreview),
    responseStatus: 200,
    response: CohortMembersSchema,
    errors: [400],
  },
  'cohorts.deleteSampleRate': {
    description: "Removes a cohort's sample rate.",
    params: { cohortId: "The cohort's id." },
    responseStatus: 200,
    response: CohortSchema,
    errors: [404, 410, 503],
  },
  ...crud('virtualEventTypes', {
    noun: 'virtual event type',
    plural: 'virtual event types',
    idParam: 'id',
    createConflicts: true,
    create: named('VirtualEventTypeCreate', VirtualEventTypeCreate),
    update: named('VirtualEventTypeUpdate', VirtualEventTypeUpdate),
    document: VirtualEventTypeSchema,
  }),
  ...crud('governanceRules', {
    noun: 'governance rule',
    plural: 'governance rules',
    idParam: 'id',
    create: named('GovernanceRuleCreate', GovernanceRuleCreate),
    update: named('GovernanceRuleUpdate', GovernanceRuleUpdate),
    document: GovernanceRuleSchema,
  }),
  'governanceRules.members': {
    description:
      'Who the rule hits now: the users and companies the last refresh listed for it (what SDKs apply), each with the values its response is filled with (a quota rule: quota_limit, quota_used, quota_reset, …). Sorted by kind and id; page with `after` = the `next_after` of the page before.',
    params: { id: "The rule's id." },
    query: RuleMembersQuery,
    responseStatus: 200,
    response: named('GovernanceRuleMembers', RuleMembers),
    errors: [400, 404, 410, 503],
  },
  ...crud('alerts', {
    noun: 'alert',
    plural: 'alert rules',
    idParam: 'id',
    create: named('AlertRuleCreate', AlertRuleCreate),
    update: named('AlertRuleUpdate', AlertRuleUpdate),
    document: named('AlertRule', z.looseObject({ ...AlertRuleCreate.shape, ...SystemFields })),
  }),
  'alerts.history': {
    description:
      "The alert's firings and resolves, newest first, each with where its messages stand per channel. Page with `before` = the `next_before` of the page before.",
    params: { id: "The alert's id." },
    query: AlertHistoryQuery,
    responseStatus: 200,
    response: named('AlertHistory', z.object({ events: z.array(named('AlertEvent', AlertEvent)), next_before: z.string().optional() })),
    errors: [400, 404, 410],
  },
  'alerts.evaluate': {
    description:
      'Run now: evaluates the window ending this minute at once (whatever the interval), records and delivers what fires or resolves, and answers each series with its value and threshold now.',
    params: { id: "The alert's id." },
    responseStatus: 200,
    response: named(
      'AlertEvaluation',
      z.object({
        fired: z.number().int(),
        resolved: z.number().int(),
        delivered: z.number().int(),
        failed: z.number().int(),
        series: z.array(z.object({ series: z.string(), value: z.number().nullable(), threshold: z.number().nullable(), breaching: z.boolean().nullable() })),
      }),
    ),
    errors: [404, 410],
  },
  'alerts.preview': {
    description: "An alert's metric over consecutive windows back from now, with the threshold each is held to (a chart before saving). Nothing is stored.",
    body: named('AlertPreviewRequest', AlertPreviewRequest),
    responseStatus: 200,
    response: named(
      'AlertPreview',
      z.object({ points: z.array(z.object({ time: z.string(), value: z.number().nullable(), threshold: z.number().nullable() })) }),
    ),
    errors: [400],
  },
  ...crud('billingMeters', {
    noun: 'billing meter',
    plural: 'billing meters',
    idParam: 'meterId',
    create: BillingMeterCreateSchema,
    update: named('BillingMeterUpdate', BillingMeterUpdate),
    document: BillingMeterSchema,
  }),
  ...meterPreviewSchemas,
};
