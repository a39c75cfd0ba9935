import { createHmac, timingSafeEqual } from 'node:crypto';
import { SharedViewClaims } from '../../schemas/resources/shared-view';
import { UnauthorizedError } from '../shared/errors';

/**
 * Shared-view tokens: `sv1.<claims>.<signature>`, HMAC-SHA256 under a key derived from the
 * management signing key, so one secret serves both while neither kind of token can pass for the
 * other (a shared-view token sent as a management bearer token fails its signature check, and the
 * other way round).
 */
const PREFIX = 'sv1';

export function signSharedViewToken(claims: SharedViewClaims, signingKey: Buffer): string {
  const payload = Buffer.from(JSON.stringify(SharedViewClaims.parse(claims)), 'utf8').toString('base64url');
  return `${PREFIX}.${payload}.${signature(`${PREFIX}.${payload}`, signingKey)}`;
}

/** The claims of a well-signed, unexpired token; a 401 naming the token otherwise. */
export function verifySharedViewToken(token: string, signingKey: Buffer, nowSeconds: number): SharedViewClaims {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX) throw invalid('is not a shared-view token');
  const [, payload, given] = parts as [string, string, string];
  const expected = Buffer.from(signature(`${PREFIX}.${payload}`, signingKey));
  const givenBytes = Buffer.from(given);
  if (expected.length !== givenBytes.length || !timingSafeEqual(expected, givenBytes)) throw invalid('has an invalid signature');
  let claims: SharedViewClaims;
  try {
    claims = SharedViewClaims.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  } catch {
    throw invalid('has malformed claims');
  }
  if (claims.exp <= nowSeconds) throw invalid('has expired');
  return claims;
}

function signature(input: string, signingKey: Buffer): string {
  return createHmac('sha256', sharedViewKey(signingKey)).update(input).digest('base64url');
}

const derived = new WeakMap<Buffer, Buffer>();
function sharedViewKey(signingKey: Buffer): Buffer {
  let key = derived.get(signingKey);
  if (!key) {
    key = createHmac('sha256', signingKey).update('usage-analytics shared-view token key v1').digest();
    derived.set(signingKey, key);
  }
  return key;
}

export function invalid(reason: string): UnauthorizedError {
  return new UnauthorizedError(`The shared-view token ${reason}`, [{ field: 'token', reason }]);
}
