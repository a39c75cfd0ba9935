import fc from 'fast-check';
import { signUnsubscribeToken, verifyUnsubscribeToken } from '../../../functions/emails/unsubscribe-token';
import { UnauthorizedError } from '../../../functions/shared/errors';
import { signSharedViewToken } from '../../../functions/shared-views/shared-view-token';

const key = Buffer.from('k'.repeat(64));
const claims = { typ: 'email_unsubscribe' as const, org_id: 'o', app_id: 'a', template_id: 't1', email: 'ann@x.test' };

describe('unsubscribe tokens', () => {
  it('verify to what they were signed with', () => {
    expect(verifyUnsubscribeToken(signUnsubscribeToken(claims, key), key)).toEqual(claims);
  });

  it('are refused after any one character is changed (property)', () => {
    const token = signUnsubscribeToken(claims, key);
    fc.assert(
      fc.property(fc.nat({ max: token.length - 1 }), fc.constantFrom(...'ABCabc0123-_.'), (at, replacement) => {
        fc.pre(token[at] !== replacement);
        try {
          // base64url's last character has spare bits: a change there may decode to the same claims.
          expect(verifyUnsubscribeToken(token.slice(0, at) + replacement + token.slice(at + 1), key)).toEqual(claims);
        } catch (error) {
          expect(error).toBeInstanceOf(UnauthorizedError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('are not shared-view tokens, nor the other way round', () => {
    const shared = signSharedViewToken({ typ: 'shared_view', org_id: 'o', app_id: 'a', tid: 't', kind: 'workspace', id: 'w', iat: 1, exp: 2 }, key);
    expect(() => verifyUnsubscribeToken(shared, key)).toThrow(UnauthorizedError);
    const [, payload, signature] = signUnsubscribeToken(claims, key).split('.');
    expect(() => verifyUnsubscribeToken(`us1.${payload}.${signature}x`, key)).toThrow(UnauthorizedError);
  });
});
