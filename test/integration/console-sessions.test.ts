import { ROTATION_GRACE_MS, SESSION_IDLE_SECONDS } from '../../functions/console-sessions/session-store';
import { send, startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * The console session over HTTP on the emulators: sign-in sets an HttpOnly, SameSite=Strict cookie
 * scoped to the session endpoints; refresh trades it for a new token and rotates it; a replaced
 * cookie is honoured briefly (tabs refreshing together) and ends the session when replayed later;
 * sign-out ends it; a deleted user or narrowed scopes are honoured at the next refresh.
 */
describe('console sessions', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime('console-sessions', { managementAuth: { rateLimitPerMinute: 100_000 } });
  });
  afterAll(() => rt?.dispose());

  const url = (path: string) => `${rt.credentials.management_url}${path}`;
  const signIn = (username: string, password: string) =>
    send(url('/oauth/console_session'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ org_id: rt.credentials.org_id, username, password }),
    });
  const refresh = (cookie?: string) =>
    send(url('/oauth/console_session/refresh'), { method: 'POST', headers: cookie ? { cookie: `console_session=${cookie}` } : {} });
  const cookieOf = (headers: Headers) => /^console_session=([^;]*)/.exec(headers.getSetCookie()[0] ?? '')?.[1];
  const asAdmin = () => signIn(rt.credentials.admin_username!, rt.credentials.admin_password!);

  it('signs in with a password: a one-hour token and a session cookie only the session endpoints receive', async () => {
    const answer = await asAdmin();
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, access_token: expect.stringMatching(/^eyJ/) });
    const [setCookie] = answer.headers.getSetCookie();
    expect(setCookie).toMatch(/^console_session=[0-9a-f]{32}\.[\w-]+; Path=\/oauth\/console_session; Max-Age=604800; HttpOnly; SameSite=Strict$/);
    expect((await rt.management('GET', '/~/workspaces', { authorization: `Bearer ${answer.body.access_token}` })).status).toBe(200);
  });

  it("refuses a wrong password and a body without the fields, in the token URL's shape", async () => {
    const wrong = await signIn(rt.credentials.admin_username!, 'not the password');
    expect([wrong.status, wrong.body.error]).toEqual([401, 'invalid_grant']);
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const empty = await send(url('/oauth/console_session'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('org_id') });
    // No body at all, or one that is not JSON: the same declared shape, not the service's own.
    for (const body of [undefined, 'not json']) {
      const init: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body }) };
      const answer = await send(url('/oauth/console_session'), init);
      expect([answer.status, answer.body]).toEqual([400, { error: 'invalid_request', error_description: expect.any(String) }]);
    }
  });

  it('trades the cookie for a new token, rotating it; the replaced cookie works for a moment, then ends the session', async () => {
    const first = cookieOf((await asAdmin()).headers)!;
    const renewed = await refresh(first);
    expect(renewed.status).toBe(200);
    expect((await rt.management('GET', '/~/workspaces', { authorization: `Bearer ${renewed.body.access_token}` })).status).toBe(200);
    const second = cookieOf(renewed.headers)!;
    expect(second).not.toBe(first);
    // A second tab that sent the same cookie at once is answered, and leaves the new cookie in place.
    const sibling = await refresh(first);
    expect(sibling.status).toBe(200);
    expect(sibling.headers.getSetCookie()).toEqual([]);
    expect((await refresh(second)).status).toBe(200);

    // Past the grace, the old secret is a stolen copy: refused, and the session ends for every holder.
    const store = rt.stores.consoleSessions;
    const later = new Date(Date.now() + ROTATION_GRACE_MS + 60_000);
    const started = await store.start({ org_id: rt.credentials.org_id, app_id: rt.credentials.app_id, sub: 'admin', scopes: ['read:events'] }, new Date());
    const rotated = await store.refresh(started.cookie, new Date());
    expect(rotated.kind).toBe('rotated');
    expect(await store.refresh(started.cookie, later)).toEqual({ kind: 'refused', reason: expect.stringContaining('replaced') });
    expect(rotated.kind === 'rotated' && (await store.refresh(rotated.cookie, later)).kind).toBe('refused');
  });

  it('ends a session left unused for its idle time', async () => {
    const store = rt.stores.consoleSessions;
    const started = await store.start({ org_id: rt.credentials.org_id, app_id: rt.credentials.app_id, sub: 'admin', scopes: ['read:events'] }, new Date());
    expect(await store.refresh(started.cookie, new Date(Date.now() + (SESSION_IDLE_SECONDS + 1) * 1000))).toEqual({
      kind: 'refused',
      reason: 'the session has expired',
    });
  });

  it('signs out: the cookie is cleared and refused from then on', async () => {
    const cookie = cookieOf((await asAdmin()).headers)!;
    const out = await send(url('/oauth/console_session'), { method: 'DELETE', headers: { cookie: `console_session=${cookie}` } });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()[0]).toMatch(/^console_session=; Path=\/oauth\/console_session; Max-Age=0;/);
    const refused = await refresh(cookie);
    expect([refused.status, refused.body.error]).toEqual([401, 'invalid_grant']);
    expect(refused.headers.getSetCookie()[0]).toMatch(/Max-Age=0/);
    expect((await refresh()).status).toBe(401);
    expect((await refresh('garbage')).status).toBe(401);
  });

  it('gives the next token only the scopes the user still holds, and none once the user is deleted', async () => {
    expect(
      (
        await rt.management(
          'POST',
          '/~/organizations/users',
          {},
          { username: 'analyst', password: 'analyst-password-1', scopes: ['read:events', 'read:users'] },
        )
      ).status,
    ).toBe(201);
    const cookie = cookieOf((await signIn('analyst', 'analyst-password-1')).headers)!;
    const renewed = await refresh(cookie);
    expect(renewed.body.scope).toBe('read:events read:users');
    expect((await rt.management('DELETE', '/~/organizations/users/analyst')).status).toBe(204);
    const refused = await refresh(cookieOf(renewed.headers));
    expect([refused.status, refused.body.error_description]).toEqual([401, 'the user no longer exists']);
  });
});
