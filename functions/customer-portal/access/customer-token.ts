import { CustomerClaims } from '../../../schemas/resources/customer-access';
import { UnauthorizedError } from '../../shared/errors';
import { signedClaimsCodec } from '../../shared/signed-claims';

/**
 * Customer tokens: `ct1.<claims>.<signature>` under a key derived from the management signing key
 * with its own label, so a customer token passes for no other kind of token (nor the reverse).
 * Minting is a signature: nothing is stored per customer or per token.
 */
const codec = signedClaimsCodec({ prefix: 'ct1', keyLabel: 'usage-analytics customer token key v1', schema: CustomerClaims, noun: 'customer token' });

export const signCustomerToken = (claims: CustomerClaims, signingKey: Buffer): string => codec.sign(claims, signingKey);

/** The claims of a well-signed, unexpired token; a 401 naming the token otherwise (revocation is checked by the caller). */
export function verifyCustomerToken(token: string, signingKey: Buffer, nowSeconds: number): CustomerClaims {
  const claims = codec.verify(token, signingKey);
  if (claims.exp <= nowSeconds) throw customerTokenRefused('has expired');
  return claims;
}

export function customerTokenRefused(reason: string): UnauthorizedError {
  return new UnauthorizedError(`The customer token ${reason}`, [{ field: 'token', reason }]);
}
