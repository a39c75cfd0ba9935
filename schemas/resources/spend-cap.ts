import * as z from 'zod';

/**
 * A spend cap a customer sets for itself through its customer token: a budget per billing period in
 * one currency, a warning threshold (an alert rule on `spend_cap_used_percent` sends the warning) and
 * optionally a hard cap (a governance rule of model `spend_cap` blocks the customer once its bill so
 * far reaches the budget, until the period ends or the budget is raised).
 */

/** A positive decimal amount (not all zeros). */
const Amount = z.string().regex(/^(?!0*(\.0*)?$)\d{1,12}(\.\d{1,6})?$/, 'must be a decimal amount above 0, such as "250" or "99.50"');

/** PUT /public/customers/{token}/spend_cap. */
export const SpendCapInput = z.strictObject({
  /** The most the customer means to spend per billing period (decimal text in `currency`). */
  budget: Amount,
  /** ISO 4217 code of the budget, kept in lower case as the catalog keeps prices' currencies; only the bill in this currency counts against it. */
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'must be a 3-letter ISO 4217 code')
    .transform((code) => code.toLowerCase()),
  /** Warn when the bill so far passes this percentage of the budget; absent: the alert rule's threshold. */
  warn_at_percent: z.int().min(1).max(100).optional(),
  /** Block the customer's API calls once the bill so far reaches the budget (when the app has a spend_cap governance rule). */
  hard_cap: z.boolean().default(false),
});
export type SpendCapInput = z.output<typeof SpendCapInput>;

/** A stored spend cap. */
export const SpendCap = z.object({
  company_id: z.string(),
  budget: z.string(),
  currency: z.string(),
  warn_at_percent: z.int().optional(),
  hard_cap: z.boolean(),
  updated_at: z.string(),
});
export type SpendCap = z.infer<typeof SpendCap>;

/** A spend cap with where the customer stands against it now (GET answers this). */
export const SpendCapStanding = SpendCap.extend({
  /** The bill so far this period in the cap's currency (decimal text). */
  spent: z.string(),
  /** spent ÷ budget × 100, to two decimals. */
  used_percent: z.number(),
  /** When the current period (of the customer's earliest-ending subscription) ends: the cap applies afresh then. */
  period_end: z.string().nullable(),
  warning: z.boolean(),
  capped: z.boolean(),
});
export type SpendCapStanding = z.infer<typeof SpendCapStanding>;
