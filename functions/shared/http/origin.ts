import type { HttpRequest } from './types';

/** The API's own origin, as the caller reached it (API Gateway sets host and x-forwarded-proto). */
export function originOf(request: HttpRequest): string {
  const host = request.headers['x-forwarded-host'] ?? request.headers.host ?? 'localhost';
  const local = /^(localhost|127\.|\[::1\])/.test(host);
  const proto = request.headers['x-forwarded-proto'] ?? (local ? 'http' : 'https');
  return `${proto}://${host}`;
}
