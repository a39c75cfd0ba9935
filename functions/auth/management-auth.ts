import type { RouteDefinition } from '../definitions/routes';
import type { ManagementTokenClaims } from '../../schemas/management-token';
import type { HttpRequest } from '../shared/http/types';
import { bearerToken, requireScope, verifyManagementToken } from './management-token';
import type { SigningKeyProvider } from './signing-key';

/** Authenticates a management route: a valid token holding the route's scope (else 401, per the spec). */
export function managementAuthenticator(signingKey: SigningKeyProvider) {
  return async (route: RouteDefinition, request: HttpRequest): Promise<ManagementTokenClaims> => {
    if (route.auth.kind !== 'management-token') throw new Error(`route ${route.path} is not a management route`);
    const claims = verifyManagementToken(bearerToken(request.headers['authorization']), await signingKey());
    requireScope(claims, route.auth.scope);
    return claims;
  };
}
