import { expiry, requestedScopes } from '../../../functions/oauth/access-tokens';
import type { ManagementCaller } from '../../../functions/management-tokens/management-auth';
import { effectiveScopes, splitScopeList } from '../../../functions/management-tokens/scope-list';
import { managementScopes } from '../../../schemas/scopes';
import { UnauthorizedError, ValidationError } from '../../../functions/shared/errors';

const caller: ManagementCaller = {
  iss: 'usage-analytics',
  sub: 'alice',
  org_id: 'o',
  app_id: 'a',
  scopes: ['read:events', 'read:users', 'create:access_tokens'],
  iat: 1,
  jti: 'j',
};
const now = new Date('2026-01-01T00:00:00Z');

describe('scope lists', () => {
  it('splits on spaces and commas, dropping duplicates', () => {
    expect(splitScopeList('read:events read:users')).toEqual(['read:events', 'read:users']);
    expect(splitScopeList('read:events,read:users, read:events')).toEqual(['read:events', 'read:users']);
    expect(splitScopeList('  ')).toBeUndefined();
    expect(splitScopeList(undefined)).toBeUndefined();
  });

  it('expands admin to every scope', () => {
    expect(effectiveScopes(['admin'])).toEqual([...managementScopes]);
    expect(effectiveScopes(['read:users', 'read:events'])).toEqual(['read:events', 'read:users']);
  });
});

describe('minting rules', () => {
  it("grants a subset of the caller's scopes, all of them by default", () => {
    expect(requestedScopes(caller, undefined)).toEqual(caller.scopes);
    expect(requestedScopes(caller, 'read:events')).toEqual(['read:events']);
  });

  it('names a scope the caller lacks (401) and an unknown one (400)', () => {
    expect(() => requestedScopes(caller, 'read:events delete:apps')).toThrow(UnauthorizedError);
    expect(() => requestedScopes(caller, 'read:events delete:apps')).toThrow(/delete:apps/);
    expect(() => requestedScopes(caller, 'read:everything')).toThrow(ValidationError);
  });

  it('defaults the expiry to a year and accepts up to five', () => {
    expect(expiry(undefined, now)).toBe(Math.floor(Date.parse('2027-01-01T06:00:00Z') / 1000));
    expect(expiry('2030-12-31T00:00:00+01:00', now)).toBe(Date.parse('2030-12-30T23:00:00Z') / 1000);
  });

  it('refuses a past, a too distant or an unreadable expiry with 400 naming expiration', () => {
    for (const bad of ['2025-12-31T23:59:59Z', '2031-01-02T00:00:00Z', 'tomorrow']) {
      try {
        expiry(bad, now);
        throw new Error(`accepted ${bad}`);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).details[0]!.field).toBe('expiration');
      }
    }
  });
});
