import * as z from 'zod';
import { ManagementScope } from './scopes';

/** An organisation's subscription state; only `active` (or a missing field) lets its tokens work. */
export const SubscriptionStatus = z.enum(['active', 'inactive', 'cancelled']);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

/** `admin` stands for every scope, present and future. */
export const UserScope = z.union([ManagementScope, z.literal('admin')]);
export type UserScope = z.infer<typeof UserScope>;

export const Username = z.string().regex(/^[A-Za-z0-9._@+-]{1,128}$/, 'use 1 to 128 letters, digits or . _ @ + -');

export const MIN_PASSWORD_LENGTH = 12;

/** Subject of the local bootstrap token: a user of that name would share its tokens (and their revocation). */
export const BOOTSTRAP_SUBJECT = 'bootstrap';

/** Body of POST /~/organizations/users. */
export const CreateOrgUser = z
  .object({
    username: Username.refine((name) => name !== BOOTSTRAP_SUBJECT, { message: `"${BOOTSTRAP_SUBJECT}" is reserved for the local bootstrap token` }).meta({
      not: { const: BOOTSTRAP_SUBJECT },
    }),
    password: z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(1024, 'must be at most 1024 characters'),
    scopes: z.array(UserScope).min(1, 'name at least one scope (or admin)'),
  })
  .strict();
export type CreateOrgUser = z.infer<typeof CreateOrgUser>;

/** An org user as stored (ORG#<org> / USER#<username>); the hash never leaves the store. */
export const StoredOrgUser = z.object({
  org_id: z.string(),
  username: Username,
  password_hash: z.string(),
  scopes: z.array(UserScope),
  created_at: z.string(),
});
export type StoredOrgUser = z.infer<typeof StoredOrgUser>;

/** An org user as the API shows it. */
export type OrgUser = Omit<StoredOrgUser, 'password_hash'>;
