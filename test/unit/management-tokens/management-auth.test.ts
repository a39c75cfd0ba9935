import { managementAuthenticator, managementRateLimitHeaders } from '../../../functions/management-tokens/management-auth';
import { signManagementToken } from '../../../functions/management-tokens/management-token';
import { tokenKey, TokenStore } from '../../../functions/management-tokens/token-store';
import { OrgStatusCache } from '../../../functions/organisations/org-status';
import { RateLimiter } from '../../../functions/rate-limit/rate-limiter';
import type { RouteDefinition } from '../../../functions/definitions/routes';
import { PaymentRequiredError, TooManyRequestsError, UnauthorizedError } from '../../../functions/shared/errors';
import type { HttpRequest } from '../../../functions/shared/http/types';
import { fakeTable } from './fake-table';

const key = Buffer.from('k'.repeat(48));
const route: RouteDefinition = {
  api: 'management',
  method: 'GET',
  path: '/~/x',
  lambda: 'management',
  operation: 'x',
  auth: { kind: 'management-token', scope: 'read:events' },
  summary: '',
};
const openRoute: RouteDefinition = { ...route, auth: { kind: 'none' } };
const request = (authorization: string): HttpRequest => ({
  method: 'GET',
  path: '/~/x',
  headers: { authorization },
  cookies: {},
  query: {},
  pathParams: {},
  rawBody: Buffer.alloc(0),
  sourceIp: '',
  receivedAt: new Date(),
});

function setup(options: { status?: string; revoked?: boolean; limit?: number } = {}) {
  let nowMs = Date.parse('2026-05-01T12:00:10Z');
  const table = fakeTable();
  table.put({ pk: 'ORG#o1', sk: 'ORG', ...(options.status ? { subscription_status: options.status } : {}) });
  table.put({
    ...tokenKey('t1'),
    jti: 't1',
    org_id: 'o1',
    app_id: 'a1',
    sub: 'alice',
    scopes: ['read:events'],
    issued_at: 1,
    ...(options.revoked ? { revoked_at: '2026-01-01T00:00:00Z' } : {}),
  });
  const token = signManagementToken({ sub: 'alice', org_id: 'o1', app_id: 'a1', scopes: ['read:events'], jti: 't1', iat: 1 }, key);
  const clock = () => nowMs;
  const authenticate = managementAuthenticator({
    signingKey: async () => key,
    tokens: new TokenStore(table.client, 'resources'),
    orgStatus: new OrgStatusCache(table.client, 'resources', { ttlMs: 5_000, now: clock }),
    rateLimiter: new RateLimiter(table.client, 'resources', { limitPerMinute: options.limit ?? 10, now: clock }),
    now: () => new Date(nowMs),
  });
  return { table, token, authenticate, advance: (ms: number) => (nowMs += ms) };
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('managementAuthenticator', () => {
  it('passes open routes without a token and returns the claims with the rate state otherwise', async () => {
    const { authenticate, token } = setup();
    await expect(authenticate(openRoute, request(''))).resolves.toBeUndefined();
    const caller = await authenticate(route, request(`Bearer ${token}`));
    expect(caller).toMatchObject({ sub: 'alice', org_id: 'o1', rateLimit: { limit: 15, remaining: 14 } });
    expect(managementRateLimitHeaders(caller)).toMatchObject({ 'x-ratelimit-limit': '15', 'x-ratelimit-remaining': '14' });
    expect(managementRateLimitHeaders(undefined)).toEqual({});
  });

  it('answers a revoked token with 401 even when the org is also unpaid and over its limit', async () => {
    const { authenticate, token } = setup({ revoked: true, status: 'cancelled', limit: 1 });
    await authenticate(route, request(token)).catch(() => undefined);
    await authenticate(route, request(token)).catch(() => undefined);
    expect(await rejection(authenticate(route, request(token)))).toBeInstanceOf(UnauthorizedError);
  });

  it('answers an unpaid org with 402 before the rate limit', async () => {
    const { authenticate, token } = setup({ status: 'inactive', limit: 1 });
    for (let i = 0; i < 3; i++) expect(await rejection(authenticate(route, request(token)))).toBeInstanceOf(PaymentRequiredError);
  });

  it('answers 429 once the minute is used up', async () => {
    const { authenticate, token } = setup({ limit: 2 });
    for (let i = 0; i < 3; i++) await authenticate(route, request(token));
    const error = await rejection(authenticate(route, request(token)));
    expect(error).toBeInstanceOf(TooManyRequestsError);
    expect((error as TooManyRequestsError).headers['retry-after']).toBe('50');
  });

  it('caches the org status for its TTL, then sees a change', async () => {
    const { authenticate, token, table, advance } = setup();
    await authenticate(route, request(token));
    table.put({ pk: 'ORG#o1', sk: 'ORG', subscription_status: 'cancelled' });
    advance(4_000);
    await expect(authenticate(route, request(token))).resolves.toBeDefined();
    advance(1_001);
    expect(await rejection(authenticate(route, request(token)))).toBeInstanceOf(PaymentRequiredError);
  });

  it('refuses a token whose record has expired even if the token carries no exp', async () => {
    const { authenticate, token, table } = setup();
    table.put({
      ...tokenKey('t1'),
      jti: 't1',
      org_id: 'o1',
      app_id: 'a1',
      sub: 'alice',
      scopes: ['read:events'],
      issued_at: 1,
      expires_at: Date.parse('2026-05-01T12:00:00Z') / 1000,
    });
    const error = await rejection(authenticate(route, request(token)));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as UnauthorizedError).details).toEqual([{ field: 'authorization', reason: 'has expired' }]);
  });
});
