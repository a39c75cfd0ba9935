import { SharedViewClaims } from '../../schemas/resources/shared-view';
import { UnauthorizedError } from '../shared/errors';
import { signedClaimsCodec } from '../shared/signed-claims';

/**
 * Shared-view tokens: `sv1.<claims>.<signature>` under a key derived from the management signing
 * key, so one secret serves both while neither kind of token can pass for the other (a shared-view
 * token sent as a management bearer token fails its signature check, and the other way round).
 */
const codec = signedClaimsCodec({ prefix: 'sv1', keyLabel: 'usage-analytics shared-view token key v1', schema: SharedViewClaims, noun: 'shared-view token' });

export const signSharedViewToken = (claims: SharedViewClaims, signingKey: Buffer): string => codec.sign(claims, signingKey);

/** The claims of a well-signed, unexpired token; a 401 naming the token otherwise. */
export function verifySharedViewToken(token: string, signingKey: Buffer, nowSeconds: number): SharedViewClaims {
  const claims = codec.verify(token, signingKey);
  if (claims.exp <= nowSeconds) throw invalid('has expired');
  return claims;
}

export function invalid(reason: string): UnauthorizedError {
  return new UnauthorizedError(`The shared-view token ${reason}`, [{ field: 'token', reason }]);
}
