import * as z from 'zod';
import { DateTime } from '../collector';

/**
 * Pricing a meter's past usage under another catalog price: the billing periods that ended within
 * [from, to), for one company's subscriptions, every subscription on one catalog plan, the companies
 * of one cohort (a user cohort: its members' companies), or all the meter bills. The price may be one no subscription is on yet (an inactive, draft price).
 */
export const PriceSimulationRequest = z
  .strictObject({
    billing_meter_id: z.string().min(1).max(128),
    price_id: z.string().min(1).max(128),
    from: DateTime,
    to: DateTime,
    company_id: z.string().min(1).max(255).optional(),
    plan_id: z.string().min(1).max(128).optional(),
    cohort_id: z.string().min(1).max(128).optional(),
  })
  .meta({ description: 'What to simulate: a meter, the price to try, a past range, and optionally one company, one catalog plan or one cohort.' });
export type PriceSimulationRequest = z.infer<typeof PriceSimulationRequest>;

const Amount = z.string().meta({ description: 'Decimal text, rounded to the currency as the run rounds a period total.' });

/** One subscription's periods in the range: its usage as reported, its amount as billed, and the amount under the price tried. */
export const SimulatedSubscription = z.object({
  subscription_id: z.string(),
  company_id: z.string(),
  periods: z.array(z.object({ period_start: z.string(), period_end: z.string(), usage: z.number(), current_amount: Amount, simulated_amount: Amount })),
  usage: z.number(),
  current_amount: Amount,
  simulated_amount: Amount,
  difference: Amount,
});
export type SimulatedSubscription = z.infer<typeof SimulatedSubscription>;

export const PriceSimulation = z.object({
  billing_meter_id: z.string(),
  price_id: z.string(),
  currency: z.string(),
  from: z.string(),
  to: z.string(),
  /** Newest first by the size of the difference, largest first. */
  subscriptions: z.array(SimulatedSubscription),
  totals: z.object({ usage: z.number(), current_amount: Amount, simulated_amount: Amount, difference: Amount }),
  /** Subscriptions of the scope with periods in the range whose current price is in another currency: left out, as amounts in two currencies do not add up. */
  other_currency: z.array(z.string()),
});
export type PriceSimulation = z.infer<typeof PriceSimulation>;
