import * as z from 'zod';
import { PeriodStatus } from './completeness';

/**
 * Signed customer statements: one closed billing period of one subscription, its amounts per meter
 * and a digest of the events behind each meter's usage, signed with the app's Ed25519 key. A change
 * of what the statement says (a void, a replacement, a late event) makes a new version.
 */

/** Events listed in one meter's download at most: beyond, the line carries its count and no list. */
export const MAX_STATEMENT_EVENTS = 100_000;
/** Lines of one page of a meter's event list. */
export const STATEMENT_EVENTS_PAGE = 10_000;

const IsoDateTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' });

export const StatementMeterRule = z.object({
  /** How a window's events give its raw usage: the sum of `quantity`, the count of non-empty ones, or the count of distinct ones. */
  metric: z.enum(['sum', 'value_count', 'cardinality']),
  field: z.string(),
  /** Each window's raw usage times this, then rounded with `rounding`; the windows' results add up to `usage`. */
  multiplier: z.number(),
  rounding: z.string(),
  window_minutes: z.number(),
});

export const StatementMeter = z.object({
  billing_meter_id: z.string(),
  name: z.string(),
  rule: StatementMeterRule,
  /** The billed quantity from the listed events (per window, multiplied and rounded, then added up). */
  usage: z.number(),
  /** What the billing run has reported for the period (null: not among the last periods it holds). */
  reported_usage: z.number().nullable(),
  currency: z.string().nullable(),
  /** The catalog price of `usage`, rounded to the currency (decimal text); null when the provider prices it. */
  amount: z.string().nullable(),
  event_count: z.number().int().nonnegative(),
  /** SHA-256 (hex) of the meter's event list as downloaded (every page's `lines`, in order); null when not listed (over the cap). */
  events_digest: z.string().nullable(),
});
export type StatementMeter = z.infer<typeof StatementMeter>;

export const StatementSignature = z.object({
  algorithm: z.literal('Ed25519'),
  key_id: z.string(),
  /** base64url signature over the statement without `signature`, as canonical JSON (sorted keys, no spaces). */
  value: z.string(),
});

export const CustomerStatement = z.object({
  org_id: z.string(),
  app_id: z.string(),
  company_id: z.string(),
  subscription_id: z.string(),
  period: z.object({ start: z.string(), end: z.string(), status: PeriodStatus }),
  /** 1 for the first statement of the period; each change of its content adds one. */
  version: z.number().int().positive(),
  issued_at: z.string(),
  /** What differs from the version before (empty for version 1). */
  changes: z.array(z.string()),
  meters: z.array(StatementMeter),
  totals: z.array(z.object({ currency: z.string(), amount: z.string() })),
  signature: StatementSignature,
});
export type CustomerStatement = z.infer<typeof CustomerStatement>;

export const CustomerStatementQuery = z.strictObject({
  subscription_id: z.string().min(1, 'must not be empty').meta({ description: 'The subscription (one of the customer’s).' }),
  period_start: IsoDateTime.meta({ description: 'The start of a billing period of the subscription that has ended.' }),
  version: z.coerce
    .number()
    .int('must be a whole number')
    .positive('must be 1 or more')
    .optional()
    .meta({ description: 'An earlier version, as issued; default the current one (issued now when the period’s content changed).' }),
});

export const StatementEventsQuery = z.strictObject({
  subscription_id: CustomerStatementQuery.shape.subscription_id,
  period_start: CustomerStatementQuery.shape.period_start,
  billing_meter_id: z.string().min(1, 'must not be empty').meta({ description: 'One meter of the statement.' }),
  after: z.string().min(1, 'must not be empty').optional().meta({ description: 'The `next` of the page before.' }),
});

export const StatementEventsPage = z.object({
  billing_meter_id: z.string(),
  /** CSV text: the header on the first page, then one line per event (transaction_id,time,window_start,name,quantity), each ending in a newline. */
  lines: z.string(),
  rows: z.number().int().nonnegative(),
  /** Pass as `after` for the next page; absent on the last. */
  next: z.string().optional(),
});

export const StatementKey = z.object({
  key_id: z.string(),
  algorithm: z.literal('Ed25519'),
  /** The raw 32-byte public key, base64url. */
  public_key: z.string(),
  public_key_pem: z.string(),
});
export type StatementKey = z.infer<typeof StatementKey>;

export const StatementVerificationInput = z.strictObject({
  statement: z.looseObject({ org_id: z.string(), app_id: z.string() }).meta({ description: 'A statement as downloaded.' }),
  /** SHA-256 (hex) of each downloaded event list, by meter id: checked against the statement's digests. */
  event_digests: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in lower-case hex')).optional(),
});

export const StatementVerification = z.object({
  /** The signature holds and nothing was altered (and every digest given matches). */
  valid: z.boolean(),
  signature: z.enum(['valid', 'invalid']),
  key_id: z.string(),
  version: z.number().nullable(),
  /** The newest version issued for the period (null: none is on record). */
  latest_version: z.number().nullable(),
  superseded: z.boolean(),
  events: z.array(z.object({ billing_meter_id: z.string(), matches: z.boolean() })),
  problems: z.array(z.string()),
});
export type StatementVerification = z.infer<typeof StatementVerification>;
