import { UnsubscribeClaims } from '../../schemas/resources/email-send';
import { signedClaimsCodec } from '../shared/signed-claims';

/**
 * Unsubscribe links: `us1.<claims>.<signature>` under a key derived from the management signing key
 * (as shared-view tokens are, under another label), so a link names one recipient of one template
 * and cannot be altered to unsubscribe someone else. They do not expire: an old email's link must
 * still work.
 */
const codec = signedClaimsCodec({ prefix: 'us1', keyLabel: 'usage-analytics email unsubscribe key v1', schema: UnsubscribeClaims, noun: 'unsubscribe token' });

export const signUnsubscribeToken = (claims: UnsubscribeClaims, signingKey: Buffer): string => codec.sign(claims, signingKey);
export const verifyUnsubscribeToken = (token: string, signingKey: Buffer): UnsubscribeClaims => codec.verify(token, signingKey);
