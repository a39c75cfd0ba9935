import { routesOf } from '../definitions/routes';
import { managementAuthenticator } from '../auth/management-auth';
import type { SigningKeyProvider } from '../auth/signing-key';
import type { ManagementTokenClaims } from '../../schemas/management-token';
import { createHttpHandler, type HttpHandler } from '../shared/http/handler';
import { searchOperations, type SearchOperationDeps } from './search-operations';

export interface SearchApiDeps extends SearchOperationDeps {
  readonly signingKey: SigningKeyProvider;
}

/** The management search Lambda: the search DSL over events, users and companies, per tenant. */
export function createSearchApiHandler(deps: SearchApiDeps): HttpHandler {
  return createHttpHandler<ManagementTokenClaims>({
    routes: routesOf({ lambda: 'search' }),
    authenticate: managementAuthenticator(deps.signingKey),
    operations: searchOperations(deps),
  });
}
