import type { ManagementScope } from '../../schemas/scopes';

/** The shape of a route and the builders the route table's sections write it with (routes.ts). */

export type ApiName = 'collector' | 'management';
/**
 * The Lambdas that serve HTTP. Each has one entry file in functions/entries/.
 * - collector: the Collector API.
 * - search: the management API's `/search/~/...` routes (the search backend, heavy queries).
 * - shared-views: the public routes a shared-view or customer token opens (`/public/views/...`,
 *   `/public/customers/...`): stored queries, and a customer's usage, bill and spend cap, for people
 *   without an account. Its own Lambda, so what a leaked link can reach is bounded by that Lambda's
 *   role (read the resources and billing tables, write spend caps, search).
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
  | { kind: 'shared-view-token' }
  /** The `{token}` path parameter is a customer token (functions/customer-portal). */
  | { kind: 'customer-token' };

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

export const collectorApp = { kind: 'collector-app' } as const;
export const open = { kind: 'none' } as const;

export const collector = (method: HttpMethod, path: string, operation: string, summary: string, auth: RouteAuth = collectorApp): RouteDefinition => ({
  api: 'collector',
  method,
  path,
  lambda: 'collector',
  operation,
  auth,
  summary,
});

export const search = (method: HttpMethod, path: string, operation: string, scope: ManagementScope, summary: string): RouteDefinition => ({
  api: 'management',
  method,
  path,
  lambda: 'search',
  operation,
  auth: { kind: 'management-token', scope },
  summary,
});

export const manage = (method: HttpMethod, path: string, operation: string, scope: ManagementScope, summary: string): RouteDefinition => ({
  api: 'management',
  method,
  path,
  lambda: 'management',
  operation,
  auth: { kind: 'management-token', scope },
  summary,
});

export const sharedView = (method: HttpMethod, path: string, operation: string, summary: string): RouteDefinition => ({
  api: 'management',
  method,
  path,
  lambda: 'shared-views',
  operation,
  auth: { kind: 'shared-view-token' },
  summary,
});

/** A customer route: served by the shared-views Lambda, the `{token}` path parameter a customer token. */
export const customerRoute = (method: HttpMethod, path: string, operation: string, summary: string): RouteDefinition => ({
  api: 'management',
  method,
  path,
  lambda: 'shared-views',
  operation,
  auth: { kind: 'customer-token' },
  summary,
});
