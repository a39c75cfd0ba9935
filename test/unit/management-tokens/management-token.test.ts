import { bearerToken, requireScope, signManagementToken, verifyManagementToken } from '../../../functions/management-tokens/management-token';
import { UnauthorizedError } from '../../../functions/shared/errors';

const key = Buffer.from('k'.repeat(64));
const base = { sub: 'bootstrap', org_id: 'org1', app_id: 'app1', scopes: ['read:events' as const] };

describe('management tokens', () => {
  it('round-trips claims', () => {
    const token = signManagementToken(base, key);
    const claims = verifyManagementToken(token, key);
    expect(claims).toMatchObject({ ...base, iss: 'usage-analytics' });
    expect(claims.jti).toMatch(/^[0-9a-f]{24}$/);
  });

  it('rejects a token signed with another key', () => {
    const token = signManagementToken(base, Buffer.from('other'));
    expect(() => verifyManagementToken(token, key)).toThrow(/invalid signature/);
  });

  it('rejects a token whose claims were altered', () => {
    const [header, , signature] = signManagementToken(base, key).split('.');
    const forged = Buffer.from(JSON.stringify({ ...base, iss: 'usage-analytics', iat: 1, jti: 'x', scopes: ['delete:apps'] })).toString('base64url');
    expect(() => verifyManagementToken(`${header}.${forged}.${signature}`, key)).toThrow(UnauthorizedError);
  });

  it('rejects an expired token and accepts one not yet expired', () => {
    const token = signManagementToken({ ...base, exp: 1000 }, key);
    expect(() => verifyManagementToken(token, key, 1000)).toThrow(/expired/);
    expect(verifyManagementToken(token, key, 999).exp).toBe(1000);
  });

  it('rejects garbage', () => {
    expect(() => verifyManagementToken('abc', key)).toThrow(UnauthorizedError);
    expect(() => verifyManagementToken('a.b.c', key)).toThrow(UnauthorizedError);
  });

  it('requires the named scope', () => {
    const claims = verifyManagementToken(signManagementToken(base, key), key);
    expect(() => requireScope(claims, 'read:events')).not.toThrow();
    expect(() => requireScope(claims, 'read:users')).toThrow(/read:users/);
  });

  it('accepts "Bearer <token>" and a bare token', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer   abc')).toBe('abc');
    expect(bearerToken('abc.def.ghi')).toBe('abc.def.ghi');
    expect(() => bearerToken(undefined)).toThrow(UnauthorizedError);
    expect(() => bearerToken('  ')).toThrow(UnauthorizedError);
  });
});
