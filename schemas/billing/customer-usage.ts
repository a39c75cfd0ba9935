import * as z from 'zod';
import { PeriodStatus } from './completeness';

/**
 * GET /public/customers/{token}/usage: one customer's usage and bill for the current billing period,
 * computed from its events as the billing run will bill them (per reporting window, then the meter's
 * multiplier and rounding, then the catalog price's tiers and rounding to the currency).
 */

/** One day's usage of a meter (UTC days; the windows starting that day). */
export const UsageDay = z.object({ date: z.string(), usage: z.number() });

export const CustomerMeterUsage = z.object({
  billing_meter_id: z.string(),
  name: z.string(),
  subscription_id: z.string(),
  /** Billed quantity so far this period (each reporting window rounded as the run rounds it). */
  usage: z.number(),
  /** The quantity the period ends with if usage goes on at the rate so far (the usage itself once the period has ended). */
  estimated_usage: z.number(),
  /** Null when the meter's plan is priced by the provider (Stripe, Chargebee …), not by the catalog. */
  price_id: z.string().nullable(),
  currency: z.string().nullable(),
  /** The price of `usage`, rounded to the currency's minor unit (decimal text). */
  amount: z.string().nullable(),
  /** The price of `estimated_usage`. */
  estimated_amount: z.string().nullable(),
  /** How the price of `estimated_usage` is made up: per tier, units × unit price + flat price. */
  estimate_lines: z.array(z.object({ tier: z.number().optional(), units: z.number(), unit_price: z.string(), flat_price: z.string(), amount: z.string() })),
  daily: z.array(UsageDay),
});
export type CustomerMeterUsage = z.infer<typeof CustomerMeterUsage>;

export const BillingPeriod = z.object({
  start: z.string(),
  end: z.string(),
  /** True once the period has ended: the estimate is then the bill itself. */
  closed: z.boolean(),
  /** open (running), in_grace (ended; its last windows wait for late events before they are reported), final (all of it reported). */
  status: PeriodStatus,
});

export const CustomerSubscription = z.object({
  subscription_id: z.string(),
  status: z.string(),
  /** The subscription's current period (its current_period_start/end), else the UTC calendar month. */
  period: BillingPeriod,
  /** The prepaid balance, when the subscription has one (decimal text). */
  balance: z
    .object({
      /** What it holds now. */
      available: z.string(),
      /** What it holds once the rest of the period's estimated bill is drawn (the run draws each reported amount, and has drawn the billed part). */
      after_estimate: z.string(),
    })
    .optional(),
});

/** A closed period's bill as the billing run reported it (its usage totals, late corrections included), priced at the catalog price. */
export const CustomerInvoice = z.object({
  subscription_id: z.string(),
  period_start: z.string(),
  period_end: z.string(),
  status: PeriodStatus,
  /** Corrections from events that arrived after the period was final (each changed the reported usage, and so this bill). */
  late_corrections: z.number().int().nonnegative(),
  meters: z.array(
    z.object({
      billing_meter_id: z.string(),
      name: z.string(),
      usage: z.number(),
      /** Of `usage`, what late events after final added (negative: took away). */
      late_usage: z.number(),
      currency: z.string().nullable(),
      amount: z.string().nullable(),
    }),
  ),
  /** Per currency, the amounts of its meters (decimal text). */
  totals: z.array(z.object({ currency: z.string(), amount: z.string() })),
});
export type CustomerInvoice = z.infer<typeof CustomerInvoice>;

export const CustomerUsage = z.object({
  company_id: z.string(),
  generated_at: z.string(),
  subscriptions: z.array(CustomerSubscription),
  meters: z.array(CustomerMeterUsage),
  /** Per currency: the amount so far and the estimated bill, over every meter (decimal text). */
  totals: z.array(z.object({ currency: z.string(), amount: z.string(), estimated_amount: z.string() })),
  /** The last closed periods' bills as reported by the billing run (up to four per subscription), newest first. */
  invoices: z.array(CustomerInvoice),
});
export type CustomerUsage = z.infer<typeof CustomerUsage>;
