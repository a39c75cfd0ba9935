import type { HttpRequest } from '../shared/http/types';

/**
 * The console session's cookie: HttpOnly (page scripts never read it), SameSite=Strict (no other
 * site's page can make the browser send it), sent only to the session endpoints (Path), and
 * Secure except on a loopback host, where the local runtime serves plain http.
 */
export const SESSION_COOKIE = 'console_session';
export const SESSION_PATH = '/oauth/console_session';

export function sessionCookieOf(request: HttpRequest): string | undefined {
  const value = request.cookies[SESSION_COOKIE];
  return value === undefined || value === '' ? undefined : value;
}

export function setSessionCookie(request: HttpRequest, value: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${value}; Path=${SESSION_PATH}; Max-Age=${Math.max(0, maxAgeSeconds)}; HttpOnly; SameSite=Strict${secureSuffix(request)}`;
}

export function clearSessionCookie(request: HttpRequest): string {
  return `${SESSION_COOKIE}=; Path=${SESSION_PATH}; Max-Age=0; HttpOnly; SameSite=Strict${secureSuffix(request)}`;
}

function secureSuffix(request: HttpRequest): string {
  const host = (request.headers['host'] ?? '').replace(/:\d+$/, '').toLowerCase();
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' ? '' : '; Secure';
}
