import type { ManagementScope } from '../../schemas/scopes';

/**
 * The one route table. The CDK stack turns it into API Gateway routes and Lambda integrations;
 * the local runtime dispatches with it; each Lambda's router matches with it (so 404 and 405 answers
 * have the service's JSON shape on AWS too); tests walk it.
 */

export type ApiName = 'collector' | 'management';
/**
 * The Lambdas that serve HTTP. Each has one entry file in functions/entries/.
 * - collector: the Collector API.
 * - search: the management API's `/search/~/...` routes (the search backend, heavy queries).
 * - shared-views: the public routes a shared-view token opens (`/public/views/...`): one workspace or
 *   dashboard and its stored queries, for people without an account. Its own Lambda, so what a
 *   leaked link can reach is bounded by that Lambda's role (read the resources table, search).
 * - management: every other management route (OAuth, access tokens, resources). Paths that start
 *   with `~` have no prefix API Gateway can route on, so they all reach the `$default` Lambda;
 *   grouping them in one Lambda is what the gateway allows (see lib/management-api.ts).
 */
export type HttpLambdaName = 'collector' | 'search' | 'shared-views' | 'management';
/** The HTTP Lambdas that serve the management API (every one but the collector). */
export type ManagementLambdaName = Exclude<HttpLambdaName, 'collector'>;

/** The Lambda behind the management API's `$default` route: paths under `~` and unknown paths (its JSON 404). */
export const MANAGEMENT_DEFAULT_LAMBDA: ManagementLambdaName = 'management';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RouteAuth =
  | { kind: 'none' }
  | { kind: 'collector-app' }
  | { kind: 'management-token'; scope: ManagementScope }
  /** The `{token}` path parameter is a shared-view token (functions/shared-views). */
  | { kind: 'shared-view-token' };

export interface RouteDefinition {
  readonly api: ApiName;
  readonly method: HttpMethod;
  /** API Gateway style: literal segments and `{param}` segments. */
  readonly path: string;
  readonly lambda: HttpLambdaName;
  /** Name of the operation inside the Lambda's operation table. */
  readonly operation: string;
  readonly auth: RouteAuth;
  readonly summary: string;
  /**
   * Management routes are served both as written and under `/v1` (MANAGEMENT_PATH_PREFIXES);
   * a route whose path already carries its version (the OAuth token URL) is served only as written.
   */
  readonly exactPath?: boolean;
}

const collectorApp = { kind: 'collector-app' } as const;
const open = { kind: 'none' } as const;

const collector = (method: HttpMethod, path: string, operation: string, summary: string, auth: RouteAuth = collectorApp): RouteDefinition => ({
  api: 'collector',
  method,
  path,
  lambda: 'collector',
  operation,
  auth,
  summary,
});

const search = (method: HttpMethod, path: string, operation: string, scope: ManagementScope, summary: string): RouteDefinition => ({
  api: 'management',
  method,
  path,
  lambda: 'search',
  operation,
  auth: { kind: 'management-token', scope },
  summary,
});

const manage = (method: HttpMethod, path: string, operation: string, scope: ManagementScope, summary: string): RouteDefinition => ({
  api: 'management',
  method,
  path,
  lambda: 'management',
  operation,
  auth: { kind: 'management-token', scope },
  summary,
});

const sharedView = (method: HttpMethod, path: string, operation: string, summary: string): RouteDefinition => ({
  api: 'management',
  method,
  path,
  lambda: 'shared-views',
  operation,
  auth: { kind: 'shared-view-token' },
  summary,
});

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

  // ── Billing: product catalog (the original's create/read/update/delete:plans|prices scopes are not in the spec's list: reports scopes stand in) ──
  manage('GET', '/~/billing/catalog/plans', 'catalogPlans.list', 'read:reports', 'List catalog plans (`provider`, `includes=prices`)'),
  manage('POST', '/~/billing/catalog/plans', 'catalogPlans.create', 'create:reports', 'Create a catalog plan'),
  manage('GET', '/~/billing/catalog/plans/{id}', 'catalogPlans.get', 'read:reports', 'One catalog plan with its prices'),
  manage('PUT', '/~/billing/catalog/plans/{id}', 'catalogPlans.update', 'create:reports', 'Update a catalog plan'),
  manage('POST', '/~/billing/catalog/plans/{id}', 'catalogPlans.update', 'create:reports', 'Update a catalog plan (POST alias)'),
  manage('DELETE', '/~/billing/catalog/plans/{id}', 'catalogPlans.delete', 'delete:reports', 'Delete a catalog plan without prices'),
  manage('GET', '/~/billing/catalog/prices', 'catalogPrices.list', 'read:reports', 'List catalog prices (`provider`, `plan_id`)'),
  manage('POST', '/~/billing/catalog/prices', 'catalogPrices.create', 'create:reports', 'Create a catalog price for a plan'),
  manage('GET', '/~/billing/catalog/prices/{id}', 'catalogPrices.get', 'read:reports', 'One catalog price'),
  manage('PUT', '/~/billing/catalog/prices/{id}', 'catalogPrices.update', 'create:reports', 'Update a catalog price'),
  manage('POST', '/~/billing/catalog/prices/{id}', 'catalogPrices.update', 'create:reports', 'Update a catalog price (POST alias)'),
  manage('DELETE', '/~/billing/catalog/prices/{id}', 'catalogPrices.delete', 'delete:reports', 'Delete a catalog price'),

  // ── Billing: balances ──
  manage(
    'POST',
    '/~/billing/reports/balance_transactions',
    'createBalanceTransaction',
    'create:reports',
    "Record a credit, debit, promotion or adjustment on a subscription's balance (idempotent per transaction_id)",
  ),
  manage(
    'GET',
    '/~/billing/reports/balance_transactions',
    'listBalanceTransactions',
    'read:reports',
    "A subscription's balance ledger, newest first (subscription_id, take, before_id)",
  ),
  manage('GET', '/~/billing/reports/balances', 'listBalances', 'read:reports', 'Credit balances by subscription_id or company_id'),

  // ── Billing: reports and channels (read → read:reports, create/update → create:reports, delete → delete:reports) ──
  manage(
    'GET',
    '/~/billing/channels',
    'billingChannels.list',
    'read:reports',
    'List webhook channels (newest first; status, take, before_id); secrets are never shown',
  ),
  manage('POST', '/~/billing/channels', 'billingChannels.create', 'create:reports', 'Create a webhook channel; the answer shows its signing secret once'),
  manage('GET', '/~/billing/channels/{channelId}', 'billingChannels.get', 'read:reports', 'One webhook channel'),
  manage(
    'POST',
    '/~/billing/channels/{channelId}',
    'billingChannels.update',
    'create:reports',
    'Update a webhook channel (secret / rotate_secret: the previous secret signs for 24 h more)',
  ),
  manage('PUT', '/~/billing/channels/{channelId}', 'billingChannels.update', 'create:reports', 'Update a webhook channel (alias of POST)'),
  manage('DELETE', '/~/billing/channels/{channelId}', 'billingChannels.delete', 'delete:reports', 'Delete a webhook channel'),
  manage(
    'POST',
    '/~/billing/meters/{meterId}/webhooks/channels/test',
    'billingChannels.test',
    'create:reports',
    "Send a signed test event to the meter's webhook channels (or body channel_id); answers each channel's request record",
  ),
  manage(
    'GET',
    '/~/billing/reports',
    'billingReports.list',
    'read:reports',
    'List billing reports, newest window first (from, to, time_zone, billing_meter_id, company_id, subscription_id, provider, success, status, type, take, before_id)',
  ),
  manage(
    'GET',
    '/~/billing/reports/metrics',
    'billingReports.metrics',
    'read:reports',
    'Billing metrics: buckets of usage, amounts and ending balances (from, to, aggregator, interval, group_by, time_zone, filters)',
  ),
  manage('GET', '/~/billing/reports/{reportId}', 'billingReports.get', 'read:reports', 'One billing report'),
  manage(
    'GET',
    '/~/billing/reports/{reportId}/explain',
    'billingReports.explain',
    'read:reports',
    "Re-run a report's usage query: recomputed usage, the query, sample event ids",
  ),

  // ── Management resources ──
  // Dashboards (helper B2)
  manage('GET', '/~/dashboards', 'dashboards.list', 'read:dashboards', 'List dashboards (newest first; take, before_id)'),
  manage('POST', '/~/dashboards', 'dashboards.create', 'create:dashboards', 'Create a dashboard'),
  manage('GET', '/~/dashboards/{dashId}', 'dashboards.get', 'read:dashboards', 'One dashboard'),
  manage('POST', '/~/dashboards/{dashId}', 'dashboards.update', 'update:dashboards', 'Update a dashboard'),
  manage('PUT', '/~/dashboards/{dashId}', 'dashboards.update', 'update:dashboards', 'Update a dashboard (PUT alias)'),
  manage('DELETE', '/~/dashboards/{dashId}', 'dashboards.delete', 'delete:dashboards', 'Delete a dashboard'),
  manage('POST', '/~/dashboards/{dashId}/copy', 'dashboards.copy', 'create:dashboards', 'Copy a dashboard with its child dashboards and workspaces'),
  manage('POST', '/~/dashboard/{dashId}/copy', 'dashboards.copy', 'create:dashboards', "Copy a dashboard (the original's path)"),
  manage(
    'DELETE',
    '/~/dashboards/{dashId}/cascade',
    'dashboards.cascadeDelete',
    'delete:dashboards',
    'Delete a dashboard with its child dashboards and their workspaces',
  ),
  manage('POST', '/~/dashboards/{dashId}/policy/acl', 'dashboards.aclAdd', 'create:dashboards', 'Grant a permission on a dashboard'),
  manage('DELETE', '/~/dashboards/{dashId}/policy/acl', 'dashboards.aclRemove', 'delete:dashboards', "Remove a grantee from a dashboard's ACL"),
  // Workspaces (helper B2); templates before {id}: the first matching route wins
  manage('GET', '/~/workspaces', 'workspaces.list', 'read:workspaces', 'List workspaces (newest first; take, before_id, type)'),
  manage('POST', '/~/workspaces', 'workspaces.create', 'create:workspaces', 'Create a workspace'),
  manage('GET', '/~/workspaces/templates', 'workspaces.templates', 'read:workspaces', 'List template workspaces'),
  manage(
    'GET',
    '/~/workspaces/public',
    'sharedViews.list',
    'read:public_workspaces',
    "The app's live shared-view tokens (public and embedded workspaces and dashboards), newest first",
  ),
  manage('GET', '/~/workspaces/{id}', 'workspaces.get', 'read:workspaces', 'One workspace'),
  manage('POST', '/~/workspaces/{id}', 'workspaces.update', 'update:workspaces', 'Update a workspace'),
  manage('PUT', '/~/workspaces/{id}', 'workspaces.update', 'update:workspaces', 'Update a workspace (PUT alias)'),
  manage('DELETE', '/~/workspaces/{id}', 'workspaces.delete', 'delete:workspaces', 'Delete a workspace and its comments'),
  manage('POST', '/~/workspaces/{id}/comments', 'workspaces.comments.create', 'update:workspaces', 'Comment on a workspace'),
  manage('GET', '/~/workspaces/{id}/comments', 'workspaces.comments.list', 'read:workspaces', "A workspace's comments (newest first)"),
  manage('POST', '/~/workspaces/{id}/comments/{commentId}', 'workspaces.comments.update', 'update:workspaces', "Edit one's own comment"),
  manage('DELETE', '/~/workspaces/{id}/comments/{commentId}', 'workspaces.comments.delete', 'update:workspaces', "Delete one's own comment"),
  manage(
    'POST',
    '/~/workspaces/{id}/signed_tokens',
    'workspaces.signedTokens.create',
    'update:workspaces',
    'Mint a signed token that shows this workspace to anyone holding it (a public or embeddable link)',
  ),
  manage('GET', '/~/workspaces/{id}/signed_tokens', 'workspaces.signedTokens.list', 'read:workspaces', "The workspace's live signed tokens"),
  manage(
    'DELETE',
    '/~/workspaces/{id}/signed_tokens/{tokenId}',
    'workspaces.signedTokens.delete',
    'update:workspaces',
    'Revoke a signed token of the workspace',
  ),
  manage(
    'POST',
    '/~/dashboards/{dashId}/signed_tokens',
    'dashboards.signedTokens.create',
    'update:dashboards',
    'Mint a signed token that shows this dashboard and its workspaces to anyone holding it',
  ),
  manage('GET', '/~/dashboards/{dashId}/signed_tokens', 'dashboards.signedTokens.list', 'read:dashboards', "The dashboard's live signed tokens"),
  manage(
    'DELETE',
    '/~/dashboards/{dashId}/signed_tokens/{tokenId}',
    'dashboards.signedTokens.delete',
    'update:dashboards',
    'Revoke a signed token of the dashboard',
  ),
  sharedView(
    'GET',
    '/public/views/{token}',
    'sharedView',
    'What a shared-view token shows: the workspace (or dashboard and its workspaces) and the time ranges it allows',
  ),
  sharedView(
    'GET',
    '/public/views/{token}/workspaces/{workspaceId}/data',
    'sharedViewData',
    "Run a shared workspace's stored query over one of the allowed time ranges",
  ),
  manage('POST', '/~/workspaces/{id}/policy/acl', 'workspaces.aclAdd', 'create:workspaces', 'Grant a permission on a workspace'),
  manage('DELETE', '/~/workspaces/{id}/policy/acl', 'workspaces.aclRemove', 'delete:workspaces', "Remove a grantee from a workspace's ACL"),
  // Email templates (helper B2); the original's *:email_templates scopes map to *:cohorts (templates are sent to cohorts)
  manage('GET', '/~/emails/templates', 'emailTemplates.list', 'read:cohorts', 'List email templates (cohort_id filter)'),
  manage('POST', '/~/emails/templates', 'emailTemplates.create', 'create:cohorts', 'Create an email template'),
  manage('GET', '/~/emails/templates/{id}', 'emailTemplates.get', 'read:cohorts', 'One email template'),
  manage('POST', '/~/emails/templates/{id}', 'emailTemplates.update', 'update:cohorts', 'Update an email template'),
  manage('PUT', '/~/emails/templates/{id}', 'emailTemplates.update', 'update:cohorts', 'Update an email template (PUT alias)'),
  manage('DELETE', '/~/emails/templates/{id}', 'emailTemplates.delete', 'delete:cohorts', 'Delete an email template'),
  // Ethereum ABIs: the interface gives them one scope, create:eth_abi, which reads and deletes them too.
  manage(
    'POST',
    '/~/eth_abi',
    'ethAbi.create',
    'create:eth_abi',
    "Store a contract's ABI (per address, or for any contract): Ethereum JSON-RPC calls in API calls are decoded with it",
  ),
  manage('GET', '/~/eth_abi', 'ethAbi.list', 'create:eth_abi', "The app's stored ABIs"),
  manage('DELETE', '/~/eth_abi/{id}', 'ethAbi.delete', 'create:eth_abi', 'Delete a stored ABI'),
  manage(
    'POST',
    '/~/emails/templates/{id}/test',
    'emailTemplates.test',
    'create:cohorts',
    'Send the template now to one address, rendered for a user or with sample values (not recorded as a send)',
  ),
  manage(
    'GET',
    '/~/emails/templates/{id}/sends',
    'emailTemplates.sends',
    'read:cohorts',
    "The template's sends log: one record per period and recipient, newest period first (status, take, before_id)",
  ),
  // Unsubscribe links are opened by recipients, who hold no token: the link's signed token is the credential.
  {
    api: 'management',
    method: 'GET',
    path: '/public/emails/unsubscribe/{token}',
    lambda: 'management',
    operation: 'emails.unsubscribe.read',
    auth: open,
    summary: 'Who and what an unsubscribe link unsubscribes',
  },
  {
    api: 'management',
    method: 'POST',
    path: '/public/emails/unsubscribe/{token}',
    lambda: 'management',
    operation: 'emails.unsubscribe',
    auth: open,
    summary: 'Unsubscribe from the template (or from every email of the app, `all: true`); RFC 8058 one-click',
  },
  // Keystore: the secure proxy's encrypted keys (helper B2)
  manage('GET', '/~/keystore', 'keystore.list', 'read:encrypted_keys', 'List encrypted keys, without key material (from, to, type)'),
  manage('POST', '/~/keystore', 'keystore.create', 'create:encrypted_keys', 'Store one or more wrapped keys'),
  manage('GET', '/~/keystore/{keyId}', 'keystore.get', 'read:encrypted_keys', 'One encrypted key, with its wrapped material'),
  manage('POST', '/~/keystore/{keyId}', 'keystore.update', 'update:encrypted_keys', 'Re-wrap an encrypted key'),
  manage('PUT', '/~/keystore/{keyId}', 'keystore.update', 'update:encrypted_keys', 'Re-wrap an encrypted key (PUT alias)'),
  manage('DELETE', '/~/keystore/{keyId}', 'keystore.delete', 'delete:encrypted_keys', 'Delete an encrypted key'),
  // Apps (org level; `~` = the token's org). Updates are POST as in the original; PUT is an alias.
  manage('GET', '/~/apps', 'apps.list', 'read:apps', "List the org's apps (newest first; take, before_id)"),
  manage('POST', '/~/apps', 'apps.create', 'create:apps', 'Create an app and its collector application id'),
  manage('GET', '/~/apps/{id}', 'apps.get', 'read:apps', 'One app'),
  manage('POST', '/~/apps/{id}', 'apps.update', 'update:apps', 'Update an app (name, time zone, week start, sampling, backfill)'),
  manage('PUT', '/~/apps/{id}', 'apps.update', 'update:apps', 'Update an app (alias of POST)'),
  manage('DELETE', '/~/apps/{id}', 'apps.delete', 'delete:apps', 'Delete an app; its collector application id stops working'),
  // Cohorts
  manage('GET', '/~/cohorts', 'cohorts.list', 'read:cohorts', 'List cohorts (newest first; cohort_type, take, before_id)'),
  manage('POST', '/~/cohorts', 'cohorts.create', 'create:cohorts', 'Create a cohort'),
  manage('GET', '/~/cohorts/{cohortId}', 'cohorts.get', 'read:cohorts', 'One cohort'),
  manage('POST', '/~/cohorts/{cohortId}', 'cohorts.update', 'update:cohorts', 'Update a cohort (cohort_type required, unchanged)'),
  manage('PUT', '/~/cohorts/{cohortId}', 'cohorts.update', 'update:cohorts', 'Update a cohort (alias of POST)'),
  manage('DELETE', '/~/cohorts/{cohortId}', 'cohorts.delete', 'delete:cohorts', 'Delete a cohort'),
  manage('DELETE', '/~/cohorts/{cohortId}/sample_rate', 'cohorts.deleteSampleRate', 'update:cohorts', "Remove a cohort's sample rate"),
  // Bulk exports (events, users, companies) to gzip files; users and companies also need read:users / read:companies
  manage('GET', '/~/exports', 'exports.list', 'read:events', 'List export jobs (newest first; take, before_id)'),
  manage('POST', '/~/exports', 'exports.create', 'read:events', 'Start an export job'),
  manage('GET', '/~/exports/{id}', 'exports.get', 'read:events', 'An export job: status, progress and parts with download URLs'),
  manage('POST', '/~/exports/{id}/cancel', 'exports.cancel', 'read:events', 'Cancel an export job and delete its parts'),
  // Virtual event types (tags): a name for the events a query selects, searchable as virtual_event_types
  manage('GET', '/~/virtual_eventtypes', 'virtualEventTypes.list', 'read:virtual_eventtypes', 'List virtual event types (newest first; take, before_id)'),
  manage('POST', '/~/virtual_eventtypes', 'virtualEventTypes.create', 'create:virtual_eventtypes', 'Create a virtual event type'),
  manage('GET', '/~/virtual_eventtypes/{id}', 'virtualEventTypes.get', 'read:virtual_eventtypes', 'One virtual event type'),
  manage('POST', '/~/virtual_eventtypes/{id}', 'virtualEventTypes.update', 'update:virtual_eventtypes', 'Update a virtual event type'),
  manage('PUT', '/~/virtual_eventtypes/{id}', 'virtualEventTypes.update', 'update:virtual_eventtypes', 'Update a virtual event type (alias of POST)'),
  manage('DELETE', '/~/virtual_eventtypes/{id}', 'virtualEventTypes.delete', 'delete:virtual_eventtypes', 'Delete a virtual event type'),
  // Governance rules (the original's *:governance_rules scopes map to read:apps / update:apps)
  manage('GET', '/~/governance/rules', 'governanceRules.list', 'read:apps', 'List governance rules (newest first; take, before_id)'),
  manage('POST', '/~/governance/rules', 'governanceRules.create', 'update:apps', 'Create a governance rule'),
  manage('GET', '/~/governance/rules/{id}', 'governanceRules.get', 'read:apps', 'One governance rule'),
  manage('POST', '/~/governance/rules/{id}', 'governanceRules.update', 'update:apps', 'Update a governance rule'),
  manage('PUT', '/~/governance/rules/{id}', 'governanceRules.update', 'update:apps', 'Update a governance rule (alias of POST)'),
  manage('DELETE', '/~/governance/rules/{id}', 'governanceRules.delete', 'update:apps', 'Delete a governance rule'),
  // Billing meters (the original's *:billing_meters scopes map to read:reports / create:reports / delete:reports)
  manage('GET', '/~/billing/meters', 'billingMeters.list', 'read:reports', 'List billing meters (newest first; take, before_id)'),
  manage('POST', '/~/billing/meters', 'billingMeters.create', 'create:reports', 'Create a billing meter'),
  // Before `{meterId}`: the first matching route wins, and `preview` is no meter id.
  manage(
    'POST',
    '/~/billing/meters/preview',
    'billingMeters.preview',
    'read:reports',
    'Preview a meter before saving it: matching subscriptions, warnings, usage and amount per subscription of the window in progress',
  ),
  manage(
    'GET',
    '/~/billing/meters/{meterId}/preview',
    'billingMeters.previewSaved',
    'read:reports',
    'Preview a saved meter: matching subscriptions, warnings, usage and amount per subscription of the window in progress',
  ),
  manage('GET', '/~/billing/meters/{meterId}', 'billingMeters.get', 'read:reports', 'One billing meter'),
  manage('POST', '/~/billing/meters/{meterId}', 'billingMeters.update', 'create:reports', 'Update a billing meter'),
  manage('PUT', '/~/billing/meters/{meterId}', 'billingMeters.update', 'create:reports', 'Update a billing meter (alias of POST)'),
  manage('DELETE', '/~/billing/meters/{meterId}', 'billingMeters.delete', 'delete:reports', 'Delete a billing meter'),
];

/** Every management route is also served under `/v1` (the original service accepts both). */
export const MANAGEMENT_PATH_PREFIXES = ['', '/v1'] as const;

export function routesOf(filter: { api?: ApiName; lambda?: HttpLambdaName }): RouteDefinition[] {
  return routes.filter((r) => (!filter.api || r.api === filter.api) && (!filter.lambda || r.lambda === filter.lambda));
}
