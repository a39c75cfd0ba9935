import { collector, search, manage, open, type ApiName, type HttpLambdaName, type RouteDefinition } from './route-types';
import { billingRoutes } from './billing-routes';
import { resourceRoutes } from './resource-routes';
import { customerRoutes } from './customer-routes';

export type { ApiName, HttpLambdaName, HttpMethod, ManagementLambdaName, RouteAuth, RouteDefinition } from './route-types';
export { MANAGEMENT_DEFAULT_LAMBDA } from './route-types';

/**
 * The one route table. The CDK stack turns it into API Gateway routes and Lambda integrations;
 * the local runtime dispatches with it; each Lambda's router matches with it (so 404 and 405 answers
 * have the service's JSON shape on AWS too); tests walk it.
 */
export const routes: readonly RouteDefinition[] = [
  collector('POST', '/v1/events', 'events', 'Log one API call'),
  collector('POST', '/v1/events/batch', 'eventsBatch', 'Log a batch of API calls'),
  collector('POST', '/v1/actions', 'actions', 'Log one user action'),
  collector('POST', '/v1/actions/batch', 'actionsBatch', 'Log a batch of user actions'),
  collector('POST', '/v1/users', 'users', 'Create or merge one user profile'),
  collector('POST', '/v1/users/batch', 'usersBatch', 'Create or merge user profiles'),
  collector('POST', '/v1/companies', 'companies', 'Create or merge one company profile'),
  collector('POST', '/v1/companies/batch', 'companiesBatch', 'Create or merge company profiles'),
  collector('POST', '/v1/subscriptions', 'subscriptions', 'Create or merge one subscription'),
  collector('POST', '/v1/subscriptions/batch', 'subscriptionsBatch', 'Create or merge subscriptions'),
  collector('POST', '/v1/uploads', 'createUpload', 'Get a pre-signed URL for a batch larger than the API body limit'),
  collector('GET', '/v1/uploads/{uploadId}', 'getUpload', 'Processing status of an uploaded batch'),
  collector('GET', '/v1/config', 'config', 'Sampling and rule configuration for SDKs'),
  collector('GET', '/v1/rules', 'rules', 'Governance rules for SDKs'),
  collector('GET', '/health/probe', 'probe', 'Liveness probe', open),

  search('POST', '/search/~/search/events', 'searchEvents', 'read:events', 'Search events (API calls and actions) with the search DSL'),
  search('POST', '/search/~/count/events', 'countEvents', 'read:events', 'Count events matching a query'),
  search(
    'POST',
    '/search/~/funnels/events',
    'funnelEvents',
    'read:events',
    'A funnel: of the actors that did step 1, how many did each next step within the conversion window',
  ),
  search(
    'POST',
    '/search/~/retention/events',
    'retentionEvents',
    'read:events',
    'A retention table: cohorts by the period of their first event, and how many came back in each later period',
  ),
  search('POST', '/search/~/search/count', 'countEvents', 'read:events', "Count events matching a query (the spec's other form)"),
  manage(
    'POST',
    '/~/events/voids',
    'createEventVoid',
    'update:events',
    'Void events by id or by a query in a time range (kept, hidden from reads, corrected in billing)',
  ),
  manage(
    'POST',
    '/~/events/replacements',
    'replaceEvents',
    'update:events',
    "Replace a time range's wrong events with a corrected set (the wrong ones voided, the corrected ones collected)",
  ),
  manage('GET', '/~/events/voids', 'listEventVoids', 'read:events', 'The audit log of voids, newest first'),
  manage('GET', '/~/events/voids/{voidId}', 'getEventVoid', 'read:events', 'One void of the audit log'),
  search('GET', '/search/~/events/{id}', 'getEvent', 'read:events', 'One event by id'),
  search('GET', '/search/~/mappings/events/properties', 'eventProperties', 'read:events', 'Fields an event query can use'),

  search('POST', '/search/~/search/users', 'searchUsers', 'read:users', 'Search user profiles'),
  search('POST', '/search/~/count/users', 'countUsers', 'read:users', 'Count user profiles matching a query'),
  search('GET', '/search/~/users/{id}', 'getUser', 'read:users', 'One user profile by id'),
  search('DELETE', '/search/~/users/{id}', 'deleteUser', 'delete:users', 'Delete a user (and, with delete_events=true, its events)'),
  search('POST', '/search/~/users', 'writeUser', 'create:users', 'Create or merge one user profile (as the collector does)'),
  search('POST', '/search/~/users/batch', 'writeUsers', 'create:users', 'Create or merge user profiles (as the collector does)'),
  search('GET', '/search/~/mappings/users/properties', 'userProperties', 'read:users', 'Fields a user query can use'),

  search('POST', '/search/~/search/companies', 'searchCompanies', 'read:companies', 'Search company profiles'),
  search('POST', '/search/~/count/companies', 'countCompanies', 'read:companies', 'Count company profiles matching a query'),
  search('GET', '/search/~/companies/{id}', 'getCompany', 'read:companies', 'One company profile by id'),
  search('DELETE', '/search/~/companies/{id}', 'deleteCompany', 'delete:companies', 'Delete a company (and, with delete_events=true, its events)'),
  search('GET', '/search/~/deletions/{id}', 'deletionStatus', 'read:events', "Progress of a user's or company's events being deleted in the background"),
  search('GET', '/search/~/companies/{id}/subscriptions', 'companySubscriptions', 'read:companies', 'The subscriptions of a company'),
  search('POST', '/search/~/companies', 'writeCompany', 'create:companies', 'Create or merge one company profile (as the collector does)'),
  search('POST', '/search/~/companies/batch', 'writeCompanies', 'create:companies', 'Create or merge company profiles (as the collector does)'),
  search('POST', '/search/~/subscriptions', 'writeSubscription', 'create:companies', 'Create or merge one subscription of a company (as the collector does)'),
  search('POST', '/search/~/subscriptions/batch', 'writeSubscriptions', 'create:companies', 'Create or merge subscriptions (as the collector does)'),
  search('GET', '/search/~/mappings/companies/properties', 'companyProperties', 'read:companies', 'Fields a company query can use'),

  // ── OpenAPI documents (generated from the zod schemas and this table) ──
  collector('GET', '/openapi.json', 'openApi', 'This API as an OpenAPI 3.1 document', open),
  {
    api: 'management',
    method: 'GET',
    path: '/openapi.json',
    lambda: 'management',
    operation: 'openApi',
    auth: open,
    summary: 'This API as an OpenAPI 3.1 document',
  },

  // ── OAuth and access tokens ──
  // The token URL carries its version and the org in the path (spec), and is open: the password is the credential.
  {
    api: 'management',
    method: 'POST',
    path: '/v1/{orgId}/oauth/access_tokens',
    lambda: 'management',
    operation: 'issueAccessToken',
    auth: open,
    exactPath: true,
    summary: "OAuth 2.0 password grant: an org user's username and password for a short-lived management token",
  },
  // The console's lasting sign-in: a session cookie (HttpOnly, SameSite=Strict) traded for one-hour tokens.
  {
    api: 'management',
    method: 'POST',
    path: '/oauth/console_session',
    lambda: 'management',
    operation: 'startConsoleSession',
    auth: open,
    exactPath: true,
    summary: "Console sign-in: an org user's password for a one-hour token and a session cookie that renews it",
  },
  {
    api: 'management',
    method: 'POST',
    path: '/oauth/console_session/refresh',
    lambda: 'management',
    operation: 'refreshConsoleSession',
    auth: open,
    exactPath: true,
    summary: 'A new one-hour token for the console session of the cookie (the cookie is rotated)',
  },
  {
    api: 'management',
    method: 'DELETE',
    path: '/oauth/console_session',
    lambda: 'management',
    operation: 'endConsoleSession',
    auth: open,
    exactPath: true,
    summary: 'Console sign-out: ends the session of the cookie and clears it',
  },
  manage(
    'GET',
    '/~/oauth/access_tokens',
    'mintAccessToken',
    'create:access_tokens',
    "Mint a management token (scopes ⊆ the caller's) or get the app's collector application id",
  ),
  manage(
    'GET',
    '/~/ingest/backlog',
    'ingestBacklog',
    'read:apps',
    'Records the collector acknowledged that are not yet searchable: how many, how old the oldest, and the limit past which the collector answers 503',
  ),
  manage(
    'GET',
    '/~/oauth/access_tokens/issued',
    'listAccessTokens',
    'create:access_tokens',
    "The caller's own tokens still usable (not revoked, not expired), newest first: ids, apps, scopes, issue and expiry times",
  ),
  manage('DELETE', '/~/oauth/access_tokens/{tokenId}', 'revokeAccessToken', 'create:access_tokens', 'Revoke a management token of the organisation'),
  manage('POST', '/~/organizations/users', 'createOrgUser', 'update:organizations', 'Create an org user (password flow login)'),
  manage('GET', '/~/organizations/users', 'listOrgUsers', 'update:organizations', "List the organisation's users"),
  manage('DELETE', '/~/organizations/users/{username}', 'deleteOrgUser', 'update:organizations', 'Delete an org user'),
  ...billingRoutes,
  ...resourceRoutes,
  ...customerRoutes,
];

/** Every management route is also served under `/v1` (the original service accepts both). */
export const MANAGEMENT_PATH_PREFIXES = ['', '/v1'] as const;

export function routesOf(filter: { api?: ApiName; lambda?: HttpLambdaName }): RouteDefinition[] {
  return routes.filter((r) => (!filter.api || r.api === filter.api) && (!filter.lambda || r.lambda === filter.lambda));
}
