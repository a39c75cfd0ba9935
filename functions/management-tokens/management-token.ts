import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ManagementTokenClaims } from '../../schemas/management-token';
import type { ManagementScope } from '../../schemas/scopes';
import { UnauthorizedError } from '../shared/errors';

/**
 * Management API tokens: compact JWTs signed with HMAC-SHA256. The signing key lives in Secrets
 * Manager on AWS and in the data directory locally; it is handed in, never read here.
 */
const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export function signManagementToken(claims: Omit<ManagementTokenClaims, 'iss' | 'iat' | 'jti'> & { iat?: number; jti?: string }, key: Buffer): string {
  const full: ManagementTokenClaims = ManagementTokenClaims.parse({
    ...claims,
    iss: 'usage-analytics',
    iat: claims.iat ?? Math.floor(Date.now() / 1000),
    jti: claims.jti ?? randomBytes(12).toString('hex'),
  });
  const payload = base64url(JSON.stringify(full));
  return `${HEADER}.${payload}.${sign(`${HEADER}.${payload}`, key)}`;
}

/** Verifies signature and expiry; the scope check is separate so the caller can name the scope. */
export function verifyManagementToken(token: string, key: Buffer, nowSeconds = Math.floor(Date.now() / 1000)): ManagementTokenClaims {
  const parts = token.split('.');
  if (parts.length !== 3) throw invalid('is not a signed token');
  const [header, payload, signature] = parts as [string, string, string];
  const expected = Buffer.from(sign(`${header}.${payload}`, key));
  const given = Buffer.from(signature);
  if (header !== HEADER || expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid('has an invalid signature');
  let claims: ManagementTokenClaims;
  try {
    claims = ManagementTokenClaims.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  } catch {
    throw invalid('has malformed claims');
  }
  if (claims.exp !== undefined && claims.exp <= nowSeconds) throw invalid('has expired');
  return claims;
}

export function requireScope(claims: ManagementTokenClaims, scope: ManagementScope): void {
  if (!claims.scopes.includes(scope)) {
    throw new UnauthorizedError(`The token lacks the scope ${scope} this endpoint requires`, [{ field: 'authorization', reason: `missing scope ${scope}` }]);
  }
}

/** Accepts `Bearer <token>` and a bare token (some clients omit the scheme). */
export function bearerToken(authorization: string | undefined): string {
  const value = authorization?.trim();
  if (!value)
    throw new UnauthorizedError('The Authorization header is missing; send Authorization: Bearer <management token>', [
      { field: 'authorization', reason: 'missing' },
    ]);
  const match = /^bearer\s+(.+)$/i.exec(value);
  return (match ? match[1]! : value).trim();
}

function sign(input: string, key: Buffer): string {
  return createHmac('sha256', key).update(input).digest('base64url');
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function invalid(reason: string): UnauthorizedError {
  return new UnauthorizedError(`The management token ${reason}`, [{ field: 'authorization', reason }]);
}
