import { clearSessionCookie, sessionCookieOf, setSessionCookie } from '../../../functions/console-sessions/session-cookie';
import type { HttpRequest } from '../../../functions/shared/http/types';

const request = (host: string, cookies: Record<string, string> = {}): HttpRequest => ({
  method: 'POST',
  path: '/oauth/console_session/refresh',
  headers: { host },
  cookies,
  query: {},
  pathParams: {},
  rawBody: Buffer.alloc(0),
  sourceIp: '',
  receivedAt: new Date(),
});

describe('the console session cookie', () => {
  it('is HttpOnly, SameSite=Strict, scoped to the session endpoints, and Secure except on loopback hosts', () => {
    expect(setSessionCookie(request('console.example.com'), 'abc.def', 60)).toBe(
      'console_session=abc.def; Path=/oauth/console_session; Max-Age=60; HttpOnly; SameSite=Strict; Secure',
    );
    for (const host of ['localhost:3000', '127.0.0.1:4000', '[::1]:80', 'LOCALHOST']) {
      expect(setSessionCookie(request(host), 'abc.def', 60)).not.toMatch(/Secure/);
    }
    expect(clearSessionCookie(request('console.example.com'))).toBe(
      'console_session=; Path=/oauth/console_session; Max-Age=0; HttpOnly; SameSite=Strict; Secure',
    );
    expect(setSessionCookie(request('x.example.com'), 'v', -5)).toContain('Max-Age=0;');
  });

  it('is read from the request cookies; empty counts as none', () => {
    expect(sessionCookieOf(request('h', { console_session: 'abc.def', other: 'x' }))).toBe('abc.def');
    expect(sessionCookieOf(request('h', { console_session: '' }))).toBeUndefined();
    expect(sessionCookieOf(request('h'))).toBeUndefined();
  });
});
