/**
 * What the collector fills in from the HTTP call that carried an event: the caller's IP address
 * and, for API calls, the session token found in the recorded request's headers.
 */

/** The client address: the first (left-most, original client) X-Forwarded-For entry, else the source IP. */
export function callerIp(sourceIp: string, forwardedFor?: string): string | undefined {
  if (forwardedFor) {
    const comma = forwardedFor.indexOf(',');
    const first = (comma < 0 ? forwardedFor : forwardedFor.slice(0, comma)).trim();
    if (first) return first;
  }
  return sourceIp || undefined;
}

/**
 * Header names searched for a session token, best first, matched case-insensitively:
 * Authorization (its `Bearer `/`Basic `/`Token ` scheme stripped), then the common API-key headers.
 */
export const SESSION_TOKEN_HEADERS = ['authorization', 'x-api-key', 'api-key', 'x-api-token', 'x-access-token'] as const;

const SHORTEST_NAME = Math.min(...SESSION_TOKEN_HEADERS.map((name) => name.length));
const LONGEST_NAME = Math.max(...SESSION_TOKEN_HEADERS.map((name) => name.length));
const AUTH_SCHEME = /^(?:bearer|basic|token)\s+/i;

/** The session token the recorded request carried, from the best-ranked header that has one. */
export function sessionTokenFromHeaders(headers: Readonly<Record<string, string>>): string | undefined {
  let bestRank: number = SESSION_TOKEN_HEADERS.length;
  let token: string | undefined;
  for (const name in headers) {
    // Most header names are ruled out by their length without lower-casing them.
    if (name.length < SHORTEST_NAME || name.length > LONGEST_NAME) continue;
    const rank = (SESSION_TOKEN_HEADERS as readonly string[]).indexOf(name.toLowerCase());
    if (rank < 0 || rank >= bestRank) continue;
    const raw = headers[name];
    if (typeof raw !== 'string') continue;
    const value = (rank === 0 ? raw.replace(AUTH_SCHEME, '') : raw).trim();
    if (!value) continue;
    bestRank = rank;
    token = value;
  }
  return token;
}
