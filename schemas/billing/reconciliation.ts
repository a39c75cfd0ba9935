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

/**
 * One drift correction: the difference sent to the provider as one more usage event, so that what
 * it holds equals what was reported. Versioned per subscription and period like a report's
 * corrections, with an idempotency key of its own.
 */
export const ReconciliationCorrection = z.object({
  subscription_id: z.string(),
  customer: z.string(),
  period_start: Instant,
  period_end: Instant,
  /** 1 for the period's first correction of this subscription, then 2, 3, … */
  correction_version: z.number().int().positive(),
  /** What was sent: reported − provider (negative when the provider held too much). */
  sent: z.number(),
  idempotency_key: z.string(),
  /** sent: the provider took it; duplicate: it already had it (a retried action); failed: see reason. */
  outcome: z.enum(['sent', 'duplicate', 'failed']),
  reason: z.string().optional(),
  /** The provider's HTTP attempts. */
  attempts: z.number().int().nonnegative(),
  at: Instant,
});
export type ReconciliationCorrection = z.infer<typeof ReconciliationCorrection>;

export const Reconciliation = z.object({
  billing_meter_id: z.string(),
  /** `webhook`: what the meter's receiver acknowledged, as the delivery records say. */
  provider: z.enum(['stripe', 'chargebee', 'recurly', 'zuora', 'webhook']),
  checked_at: Instant,
  counts: z.object({ matched: Count, drift: Count, unknown: Count }),
  /** Subscriptions whose period differs (at most the first 500). */
  drift: z.array(ReconciliationDrift),
  /** Subscriptions the provider could not say anything about, and why (at most the first 50). */
  unknown: z.array(z.object({ subscription_id: z.string(), reason: z.string() })),
  /** Drift corrections sent so far, newest first (at most 200). */
  corrections: z.array(ReconciliationCorrection).optional(),
});
export type Reconciliation = z.infer<typeof Reconciliation>;

export const DriftCorrectionRequest = z.object({
  /** The subscriptions to correct; all those with drift when left out. */
  subscription_ids: z.array(z.string().min(1).max(255)).min(1).max(500).optional(),
});
export type DriftCorrectionRequest = z.infer<typeof DriftCorrectionRequest>;

export const DriftCorrectionOutcome = z.object({
  /** What this action sent. */
  corrections: z.array(ReconciliationCorrection),
  /** The comparison made after sending. */
  reconciliation: Reconciliation,
});
export type DriftCorrectionOutcome = z.infer<typeof DriftCorrectionOutcome>;
