import * as z from 'zod';
import { ManagementScope } from './scopes';

/** A console session as the resources table keeps it (functions/console-sessions/session-store.ts). */
export const StoredConsoleSession = z.object({
  id: z.string(),
  org_id: z.string(),
  app_id: z.string(),
  sub: z.string(),
  scopes: z.array(ManagementScope),
  created_at: z.string(),
  /** Epoch seconds: the absolute end (also the table's TTL). */
  expires_at: z.number().int(),
  /** Epoch seconds: the end unless refreshed before (each refresh moves it). */
  idle_expires_at: z.number().int(),
  revoked_at: z.string().optional(),
  /** SHA-256 of the cookie's current secret, and of the one it replaced. */
  secret_hash: z.string(),
  previous_hash: z.string().optional(),
  /** Epoch ms of the last rotation. */
  rotated_at: z.number().int(),
});
export type StoredConsoleSession = z.infer<typeof StoredConsoleSession>;
export type ConsoleSession = Omit<StoredConsoleSession, 'secret_hash' | 'previous_hash' | 'rotated_at'>;

/** Body of POST /oauth/console_session: the console's sign-in. */
export const ConsoleSignIn = z.object({
  org_id: z.string().min(1, 'is required'),
  username: z.string().min(1, 'is required'),
  password: z.string().min(1, 'is required'),
  /** The app `~` paths resolve to; omitted = the org's first app. */
  app_id: z.string().min(1).optional(),
});
