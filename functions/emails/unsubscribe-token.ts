import { createHmac, timingSafeEqual } from 'node:crypto';
import { UnsubscribeClaims } from '../../schemas/resources/email-send';
import { UnauthorizedError } from '../shared/errors';

/**
 * Unsubscribe links: `us1.<claims>.<signature>`, HMAC-SHA256 under a key derived from the management
 * signing key (as shared-view tokens are, under another derivation), so a link names one recipient
 * of one template and cannot be altered to unsubscribe someone else. They do not expire: an old
 * email's link must still work.
 */
const PREFIX = 'us1';

export function signUnsubscribeToken(claims: UnsubscribeClaims, signingKey: Buffer): string {
  const payload = Buffer.from(JSON.stringify(UnsubscribeClaims.parse(claims)), 'utf8').toString('base64url');
  return `${PREFIX}.${payload}.${signature(`${PREFIX}.${payload}`, signingKey)}`;
}

export function verifyUnsubscribeToken(token: string, signingKey: Buffer): UnsubscribeClaims {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== PREFIX) throw invalid('is not an unsubscribe token');
  const [, payload, given] = parts as [string, string, string];
  const expected = Buffer.from(signature(`${PREFIX}.${payload}`, signingKey));
  const givenBytes = Buffer.from(given);
  if (expected.length !== givenBytes.length || !timingSafeEqual(expected, givenBytes)) throw invalid('has an invalid signature');
  try {
    return UnsubscribeClaims.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  } catch {
    throw invalid('has malformed claims');
  }
}

function signature(input: string, signingKey: Buffer): string {
  const key = createHmac('sha256', signingKey).update('usage-analytics email unsubscribe key v1').digest();
  return createHmac('sha256', key).update(input).digest('base64url');
}

function invalid(reason: string): UnauthorizedError {
  return new UnauthorizedError(`The unsubscribe link ${reason}`, [{ field: 'token', reason }]);
}
