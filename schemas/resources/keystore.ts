import * as z from 'zod';

/**
 * Encrypted keys of the secure proxy (client-side encryption). The proxy encrypts event bodies with
 * a data key per calendar month; it stores that data key here only wrapped (encrypted) by a master
 * key the customer keeps. The service never sees a plaintext key and cannot decrypt anything.
 */

const MAX_WRAPPED_KEY_CHARS = 8192;

/** Base64 (standard or URL alphabet, padding optional) of at least 16 bytes: 22 characters or more. */
const WrappedKey = z
  .string()
  .max(MAX_WRAPPED_KEY_CHARS)
  .regex(/^[A-Za-z0-9+/_-]+={0,2}$/, { message: 'must be base64 of the wrapped key', abort: true })
  .regex(/^[A-Za-z0-9+/_-]{22}/, { message: 'must decode to at least 16 bytes', abort: true })
  .refine((value) => Buffer.from(value, 'base64').length >= 16, { message: 'must decode to at least 16 bytes' });

/** The calendar month (UTC) whose data the key encrypts, `YYYY-MM`. */
export const KeyMonth = z.string().regex(/^[0-9]{4}-(0[1-9]|1[0-2])$/, { message: 'must be a month YYYY-MM' });

export const EncryptedKeyCreate = z.strictObject({
  month: KeyMonth,
  encrypted_key: WrappedKey,
  /** What the key is for; one key per type and month. */
  type: z
    .string()
    .regex(/^[a-z0-9_]{1,64}$/, { message: 'must be 1-64 lower-case letters, digits or _' })
    .default('data_key'),
  /** Which of the customer's master keys wrapped it (for rotation); never a key itself. */
  master_key_id: z.string().min(1).max(256).optional(),
});
export type EncryptedKeyCreate = z.infer<typeof EncryptedKeyCreate>;

/** Create takes one key or a list of keys ("Create New Encrypted key/s"). */
export const EncryptedKeyCreateList = z.array(EncryptedKeyCreate).min(1).max(100);
export const EncryptedKeyCreateBody = z.union([EncryptedKeyCreate, EncryptedKeyCreateList]);

/** Update: re-wrap (a new encrypted_key after rotating the master key). Month and type identify the key and stay. */
export const EncryptedKeyUpdate = z.strictObject({
  encrypted_key: WrappedKey.optional(),
  master_key_id: z.string().min(1).max(256).optional(),
  month: KeyMonth.optional(),
  type: z.string().optional(),
});
export type EncryptedKeyUpdate = z.infer<typeof EncryptedKeyUpdate>;

const MonthOrDateTime = z.string().meta({
  anyOf: [
    { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' },
    { type: 'string', format: 'date-time' },
  ],
});

/** GET /~/keystore query: keys whose month lies in [from, to] (date-times or months), of one type. */
export const EncryptedKeyListQuery = z.object({
  from: MonthOrDateTime.optional(),
  to: MonthOrDateTime.optional(),
  type: z.string().optional(),
});

/** The stored document. `fingerprint` (SHA-256 of the wrapped bytes, 16 hex) tells keys apart without the material. */
export const EncryptedKeyDocument = z.object({
  _id: z.string(),
  org_id: z.string(),
  app_id: z.string(),
  /** Who stored it (a token of a service, with no user, stores none). */
  auth_user_id: z.string().optional(),
  type: z.string(),
  month: KeyMonth,
  encrypted_key: z.string(),
  master_key_id: z.string().optional(),
  fingerprint: z.string(),
  created_at: z.string(),
  modified_at: z.string(),
});
export type EncryptedKeyDocument = z.infer<typeof EncryptedKeyDocument>;

/** What lists and create/update answers show: everything but the wrapped key material. */
export const EncryptedKeySummary = EncryptedKeyDocument.omit({ encrypted_key: true });
export type EncryptedKeySummary = z.infer<typeof EncryptedKeySummary>;
