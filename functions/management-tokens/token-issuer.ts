import { randomBytes } from 'node:crypto';
import type { ManagementScope } from '../../schemas/scopes';
import { signManagementToken } from './management-token';
import type { TokenStore } from './token-store';

export interface IssueTokenInput {
  sub: string;
  org_id: string;
  app_id: string;
  scopes: readonly ManagementScope[];
  /** Epoch seconds; omitted = a token that does not expire (the local bootstrap token). */
  exp?: number;
}

export interface IssuedToken {
  token: string;
  jti: string;
  iat: number;
  exp?: number;
}

/** Signs a management token and records it: a token without a record is refused. */
export async function issueManagementToken(store: TokenStore, key: Buffer, input: IssueTokenInput, now: Date = new Date()): Promise<IssuedToken> {
  const jti = randomBytes(12).toString('hex');
  const iat = Math.floor(now.getTime() / 1000);
  const scopes = [...new Set(input.scopes)];
  await store.put({ jti, org_id: input.org_id, app_id: input.app_id, sub: input.sub, scopes, issued_at: iat, expires_at: input.exp });
  const token = signManagementToken({ sub: input.sub, org_id: input.org_id, app_id: input.app_id, scopes, iat, exp: input.exp, jti }, key);
  return { token, jti, iat, exp: input.exp };
}
