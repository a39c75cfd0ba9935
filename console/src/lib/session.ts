/**
 * The signed-in user's management token, held in the page's memory only (never in storage or a
 * URL). What survives reloads and reaches other tabs is the session cookie, HttpOnly, which the
 * server trades for a fresh token (lib/console-session.ts). The token's claims say who and what it may do.
 */
let current: Session | undefined;

export interface Session {
  readonly token: string;
  readonly orgId: string;
  readonly appId: string;
  readonly username: string;
  readonly scopes: readonly string[];
  /** The token's id (its `jti`): sign-out revokes it. */
  readonly tokenId: string;
  /** Epoch seconds. */
  readonly expiresAt: number;
}

interface TokenClaims {
  sub?: string;
  org_id?: string;
  app_id?: string;
  scopes?: string[];
  jti?: string;
  exp?: number;
}

/** The claims of a JWT, read without checking the signature (the API checks it on every call). */
export function readClaims(token: string): TokenClaims {
  const payload = token.split('.')[1];
  if (!payload) throw new Error('the token is not a JWT');
  const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  return JSON.parse(json) as TokenClaims;
}

export function sessionFromToken(token: string): Session {
  const claims = readClaims(token);
  return {
    token,
    orgId: claims.org_id ?? '',
    appId: claims.app_id ?? '',
    username: claims.sub ?? '',
    scopes: claims.scopes ?? [],
    tokenId: claims.jti ?? '',
    expiresAt: claims.exp ?? Number.MAX_SAFE_INTEGER,
  };
}

/** The session of this page, while its token is good. */
export function loadSession(): Session | undefined {
  return current && current.expiresAt * 1000 > Date.now() ? current : undefined;
}

export function saveSession(session: Session | undefined): void {
  current = session;
}

export function hasScope(session: Session | undefined, scope: string): boolean {
  return session?.scopes.includes(scope) ?? false;
}
