import * as z from 'zod';
import { ManagementScope } from './scopes';

/**
 * Body of the token URL (POST /v1/{orgId}/oauth/access_tokens), RFC 6749 §4.3 password grant.
 * Checked field by field in the OAuth operation, because each failure has its own RFC error code.
 */
export const PasswordGrantFields = z.object({
  grant_type: z.string().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  /** Space- or comma-separated scopes; omitted = every scope the user holds. */
  scope: z.string().optional(),
  /** The app `~` paths resolve to; omitted = the org's first app. */
  app_id: z.string().optional(),
});
export type PasswordGrantFields = z.infer<typeof PasswordGrantFields>;

/** Query of GET /~/oauth/access_tokens (minting a token or fetching the collector id). */
export const MintTokenQuery = z.object({
  target: z.enum(['management', 'collector']).default('management'),
  scope: z.string().optional(),
  expiration: z.iso.datetime({ offset: true }).optional(),
});
export type MintTokenQuery = z.infer<typeof MintTokenQuery>;

/** The record of an issued management token: TOKEN#<jti> / TOKEN. */
export const AccessTokenRecord = z.object({
  jti: z.string(),
  org_id: z.string(),
  app_id: z.string(),
  sub: z.string(),
  scopes: z.array(ManagementScope),
  /** Epoch seconds. */
  issued_at: z.number().int(),
  /** Epoch seconds; DynamoDB's TTL removes the record after it. Absent = never expires. */
  expires_at: z.number().int().optional(),
  /** ISO date-time of revocation; a revoked token is refused until its record expires. */
  revoked_at: z.string().optional(),
});
export type AccessTokenRecord = z.infer<typeof AccessTokenRecord>;

/** A token as GET /~/oauth/access_tokens/issued lists it (never the token text itself). */
export const IssuedToken = z.object({
  _id: z.string().meta({ description: 'The token id (jti), for revocation.' }),
  app_id: z.string(),
  scopes: z.array(ManagementScope),
  issued_at: z.string(),
  expires_at: z.string().nullable().meta({ description: 'null: never expires.' }),
});
export type IssuedToken = z.infer<typeof IssuedToken>;

/** The spec's "Signed token" answer. */
export interface SignedToken {
  _id: string;
  token: string;
  url?: string;
}

/** RFC 6749 §5.1 success answer of the token URL. */
export interface OAuthTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/** RFC 6749 §5.2 error codes the token URL uses (plus too_many_requests for its rate limit). */
export type OAuthErrorCode = 'invalid_request' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_scope' | 'too_many_requests' | 'server_error';
