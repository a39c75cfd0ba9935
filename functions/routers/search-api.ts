import { routesOf } from '../definitions/routes';
import { managementAuthenticator, managementRateLimitHeaders, type ManagementAuthDeps, type ManagementCaller } from '../management-tokens/management-auth';
import { createHttpHandler, type HttpHandler } from '../shared/http/handler';
import { profileWriteOperations, type ProfileWriteDeps } from '../ingest/profile-writes';
import { searchOperations, type SearchOperationDeps } from '../search/search-operations';

export interface SearchApiDeps extends SearchOperationDeps, ManagementAuthDeps, ProfileWriteDeps {}

/** The management search Lambda: the search DSL over events, users and companies, per tenant. */
export function createSearchApiHandler(deps: SearchApiDeps): HttpHandler {
  const authenticate = managementAuthenticator(deps);
  return createHttpHandler<ManagementCaller>({
    routes: routesOf({ lambda: 'search' }),
    authenticate: async (route, request) => {
      const caller = await authenticate(route, request);
      // Every search route is a token route (the route table says so; a test walks it).
      if (!caller) throw new Error(`search route ${route.method} ${route.path} has no token requirement`);
      return caller;
    },
    operations: { ...searchOperations(deps), ...profileWriteOperations(deps) },
    extraHeaders: managementRateLimitHeaders,
  });
}
