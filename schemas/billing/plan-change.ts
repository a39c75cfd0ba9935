import * as z from 'zod';

/** A price change for one subscription, previewed now: what its metered usage would cost this period. */
export const PlanChangePreviewRequest = z
  .strictObject({
    subscription_id: z.string().min(1).max(255),
    price_id: z.string().min(1).max(128),
  })
  .meta({ description: 'The subscription, and the catalog price its metered usage would move to now.' });
export type PlanChangePreviewRequest = z.infer<typeof PlanChangePreviewRequest>;

const Amount = z.string().meta({ description: 'Decimal text, rounded to the currency.' });

export const PlanChangePreview = z.object({
  subscription_id: z.string(),
  company_id: z.string(),
  price_id: z.string(),
  currency: z.string(),
  /** The moment of the change (now), and the period it falls in. */
  changed_at: z.string(),
  period: z.object({ start: z.string(), end: z.string() }),
  meters: z.array(
    z.object({
      billing_meter_id: z.string(),
      name: z.string(),
      /** Usage so far this period, and what the period ends with at the rate so far. */
      usage: z.number(),
      estimated_usage: z.number(),
      /** Kept: the whole estimated usage at the current price. */
      keep_amount: Amount,
      /** Changed now: the usage so far at the current price (tiers from the period start), the rest at the new one (tiers from the change). */
      before_change_amount: Amount,
      after_change_amount: Amount,
      change_amount: Amount,
      difference: Amount,
    }),
  ),
  totals: z.object({ keep_amount: Amount, change_amount: Amount, difference: Amount }),
  /** Meters of the subscription priced in another currency than the new price (left out), or not priced by the catalog. */
  left_out: z.array(z.object({ billing_meter_id: z.string(), reason: z.string() })),
});
export type PlanChangePreview = z.infer<typeof PlanChangePreview>;
