import fc from 'fast-check';
import { signManagementToken, verifyManagementToken } from '../../../functions/management-tokens/management-token';
import { signSharedViewToken, verifySharedViewToken } from '../../../functions/shared-views/shared-view-token';
import { UnauthorizedError } from '../../../functions/shared/errors';
import type { SharedViewClaims } from '../../../schemas/resources/shared-view';

const key = Buffer.from('k'.repeat(64));
const now = 1_800_000_000;
const claims: SharedViewClaims = {
  typ: 'shared_view',
  org_id: 'org1',
  app_id: 'app1',
  tid: '0123456789ab01234567',
  kind: 'workspace',
  id: 'abcdefabcdef01234567',
  iat: now - 10,
  exp: now + 3600,
};
const reasonOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UnauthorizedError);
    return (error as UnauthorizedError).details[0]?.reason;
  }
  return 'accepted';
};

describe('shared-view tokens', () => {
  it('verify to the claims they were signed with', () => {
    expect(verifySharedViewToken(signSharedViewToken(claims, key), key, now)).toEqual(claims);
  });

  it('are refused once expired, or under another key', () => {
    const token = signSharedViewToken(claims, key);
    expect(reasonOf(() => verifySharedViewToken(token, key, claims.exp))).toBe('has expired');
    expect(reasonOf(() => verifySharedViewToken(token, Buffer.from('other'), now))).toBe('has an invalid signature');
  });

  it('are refused after any one character is changed (property)', () => {
    const token = signSharedViewToken(claims, key);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    fc.assert(
      fc.property(fc.nat({ max: token.length - 1 }), fc.constantFrom(...alphabet), (at, replacement) => {
        fc.pre(token[at] !== replacement);
        const changed = token.slice(0, at) + replacement + token.slice(at + 1);
        let claimsOfChanged: SharedViewClaims | undefined;
        try {
          claimsOfChanged = verifySharedViewToken(changed, key, now);
        } catch (error) {
          expect(error).toBeInstanceOf(UnauthorizedError);
          return;
        }
        // base64url has spare bits in its last character: a change there may decode to the same bytes.
        expect(claimsOfChanged).toEqual(claims);
      }),
      { numRuns: 500 },
    );
  });

  it('never pass for management tokens, nor the other way round, under the same key', () => {
    const shared = signSharedViewToken(claims, key);
    expect(reasonOf(() => verifyManagementToken(shared, key, now))).toBe('has an invalid signature');
    const management = signManagementToken({ sub: 'u', org_id: 'org1', app_id: 'app1', scopes: ['read:workspaces'] }, key);
    expect(reasonOf(() => verifySharedViewToken(management, key, now))).toBe('is not a shared-view token');
    // The same claims re-wrapped with the management prefix do not verify either.
    const [, payload, signature] = shared.split('.');
    expect(reasonOf(() => verifyManagementToken(`${management.split('.')[0]}.${payload}.${signature}`, key, now))).toBe('has an invalid signature');
  });
});
