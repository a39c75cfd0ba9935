import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RouteDefinition } from '../definitions/routes';
import type { ManagementTokenClaims } from '../../schemas/management-token';
import type { HttpRequest } from '../shared/http/types';
import { bearerToken, requireScope, verifyManagementToken } from './management-token';
import type { SigningKeyProvider } from './signing-key';

/** Who is calling a management route: the verified claims of the caller's token. */
export type ManagementCaller = ManagementTokenClaims;

export interface ManagementAuthDeps {
  readonly signingKey: SigningKeyProvider;
  readonly documents: DynamoDBDocumentClient;
  readonly resourcesTable: string;
  readonly now?: () => Date;
}

/**
 * Authenticates a management route: open routes (the OAuth token URL, the OpenAPI document) pass
 * with no caller; every other route needs a valid token holding the route's scope (else 401, per
 * the spec).
 */
export function managementAuthenticator(deps: ManagementAuthDeps) {
  return async (route: RouteDefinition, request: HttpRequest): Promise<ManagementCaller | undefined> => {
    if (route.auth.kind === 'none') return undefined;
    if (route.auth.kind !== 'management-token') throw new Error(`route ${route.path} is not a management route`);
    const claims = verifyManagementToken(bearerToken(request.headers['authorization']), await deps.signingKey());
    requireScope(claims, route.auth.scope);
    return claims;
  };
}
