import * as z from 'zod';

/**
 * What a provider holds for a meter, compared with what the billing run reported (reconcile out):
 * per subscription and billing period, matched, drift (by how much, since when) or unknown.
 */

const Count = z.number().int().nonnegative();
const Instant = z.string().meta({ format: 'date-time' });

export const ReconciliationDrift = z.object({
  subscription_id: z.string(),
  /** The provider's customer the usage was reported for. */
  customer: z.string(),
  period_start: Instant,
  period_end: Instant,
  /** The period's usage as the run reported it (its period-to-date total, corrections included). */
  reported: z.number(),
  /** The same period's usage as the provider holds it. */
  provider: z.number(),
  /** provider − reported: what the provider holds too much (positive) or too little (negative). */
  difference: z.number(),
  /** When this difference was first seen. */
  since: Instant,
});
export type ReconciliationDrift = z.infer<typeof ReconciliationDrift>;

export const Reconciliation = z.object({
  billing_meter_id: z.string(),
  provider: z.literal('stripe'),
  checked_at: Instant,
  counts: z.object({ matched: Count, drift: Count, unknown: Count }),
  /** Subscriptions whose period differs (at most the first 500). */
  drift: z.array(ReconciliationDrift),
  /** Subscriptions the provider could not say anything about, and why (at most the first 50). */
  unknown: z.array(z.object({ subscription_id: z.string(), reason: z.string() })),
});
export type Reconciliation = z.infer<typeof Reconciliation>;
