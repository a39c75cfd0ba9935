import * as z from 'zod';
import { ManagementScope } from './scopes';

/** Claims of a Management API token (a compact HS256 JWT). */
export const ManagementTokenClaims = z.object({
  iss: z.literal('usage-analytics'),
  /** Who the token was issued to: an org user id, or "bootstrap". */
  sub: z.string(),
  org_id: z.string(),
  /** The app the token works on (`~` paths resolve to this org and app). */
  app_id: z.string(),
  scopes: z.array(ManagementScope),
  iat: z.number().int(),
  exp: z.number().int().optional(),
  /** Token id, for revocation. */
  jti: z.string(),
});
export type ManagementTokenClaims = z.infer<typeof ManagementTokenClaims>;
