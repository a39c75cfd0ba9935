/**
 * The signed-in user's management token, kept in sessionStorage (never in a URL): it survives a
 * reload of the tab and is gone when the tab closes. The token's claims say who and what it may do.
 */
const STORAGE_KEY = 'console.session';

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

export function loadSession(): Session | undefined {
  const stored = sessionStorage.getItem(STORAGE_KEY);
  if (!stored) return undefined;
  try {
    const session = JSON.parse(stored) as Session;
    return session.expiresAt * 1000 > Date.now() ? session : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session | undefined): void {
  if (session) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(STORAGE_KEY);
}

export function hasScope(session: Session | undefined, scope: string): boolean {
  return session?.scopes.includes(scope) ?? false;
}
