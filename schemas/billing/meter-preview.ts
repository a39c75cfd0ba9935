import * as z from 'zod';

/**
 * What a meter will bill, checked before it is saved and on its page afterwards: the ids its
 * subscriptions must carry, which subscriptions match, warnings (a meter that would bill nothing
 * says why), and the usage and amount per subscription of the window in progress.
 */

export const MeterWarningCode = z.enum([
  'no_billable_subscription',
  'no_matching_subscription',
  'subscriptions_without_items',
  'unattributed_usage',
  'no_price',
]);
export type MeterWarningCode = z.infer<typeof MeterWarningCode>;

export const MeterWarning = z.object({
  code: MeterWarningCode,
  message: z.string(),
});
export type MeterWarning = z.infer<typeof MeterWarning>;

export const PreviewLine = z.object({
  /** The subscription billed; null for usage of a company with no matching subscription. */
  subscription_id: z.string().nullable(),
  company_id: z.string().nullable(),
  status: z.enum(['billed', 'unattributed']),
  /** The metric as the query computed it (decimal text), and the quantity after multiplier and rounding. */
  metric: z.string(),
  quantity: z.number(),
  /** The amount at the catalog price, as if this window were the first of the period (decimal text). */
  amount: z.string().nullable(),
  currency: z.string().nullable(),
  price_id: z.string().nullable(),
});
export type PreviewLine = z.infer<typeof PreviewLine>;

export const MeterPreview = z.object({
  /** Ids a subscription item must carry as plan_id, price_id or subscription_item_id; empty: any active subscription. */
  billed_ids: z.array(z.string()),
  /** The query names {{subscription_id}} / {{company_id}}: evaluated once per matching subscription. */
  per_subscription: z.boolean(),
  subscriptions: z.object({
    /** Active or trialing subscriptions of the app. */
    billable: z.number().int(),
    /** Of those, the ones this meter bills. */
    matching: z.number().int(),
    /** The first matching subscription ids (at most 20). */
    matching_ids: z.array(z.string()),
    /** Of the matching ones, those sent without items whose metadata.plan_id / price_id names the plan. */
    matching_by_metadata: z.number().int(),
  }),
  window: z.object({ start: z.string(), end: z.string(), complete: z.boolean() }),
  lines: z.array(PreviewLine),
  warnings: z.array(MeterWarning),
});
export type MeterPreview = z.infer<typeof MeterPreview>;
