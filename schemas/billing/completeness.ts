import * as z from 'zod';
import { PERIOD_STATUSES } from '../../values/period-status';

/**
 * Completeness before close: how late a meter's events arrive, the grace period its windows wait
 * before their first report, and where its windows and billing periods stand (open, in grace, final).
 */

const Count = z.number().int().nonnegative();
const Instant = z.string().meta({ format: 'date-time' });

/** Whether a period may still move: `open` (running), `in_grace` (ended, not all of it reported yet), `final` (every window reported). */
export const PeriodStatus = z.enum(PERIOD_STATUSES);
export type PeriodStatus = z.infer<typeof PeriodStatus>;

/** Events by how long after their time they arrived. */
export const ArrivalLagHistogram = z.object({
  events: Count,
  /** Events that arrived within `up_to_minutes` of their time (and after the bucket before); null: later than every bound. */
  buckets: z.array(z.object({ up_to_minutes: z.number().nullable(), events: Count })),
});
export type ArrivalLagHistogram = z.infer<typeof ArrivalLagHistogram>;

export const Lateness = z.object({
  billing_meter_id: z.string(),
  measured_at: Instant,
  /** The event times measured: the last 7 days before measured_at. */
  from: Instant,
  to: Instant,
  /** Every event of the app. */
  app: ArrivalLagHistogram,
  /** The meter's events (the app's when its query names one customer's values). */
  meter: ArrivalLagHistogram,
  /** Bucket bounds that 50, 90 and 99 % of the meter's events arrived within; null when later than every bound or none were seen. */
  p50_minutes: z.number().nullable(),
  p90_minutes: z.number().nullable(),
  p99_minutes: z.number().nullable(),
  /** The grace period chosen from it (p99, within 6–60 minutes); null with `reason` when there is too little to choose from. */
  observed_grace_minutes: z.number().nullable(),
  reason: z.string().optional(),
});
export type Lateness = z.infer<typeof Lateness>;

export const MeterCompleteness = z.object({
  billing_meter_id: z.string(),
  /** What the run waits after a window closes before its first report, and where that number comes from. */
  grace: z.object({ minutes: z.number(), source: z.enum(['configured', 'observed', 'minimum']) }),
  lateness: Lateness.nullable(),
  windows: z.object({
    /** Windows ending at or before this are final (reported); null before the first run. */
    final_through: Instant.nullable(),
    /** Windows from final_through to open_from have closed and are in grace. */
    open_from: Instant,
    /** When the oldest window in grace gets its first report (its end plus the grace period), if any is. */
    next_report_at: Instant.nullable(),
  }),
  /** Late events after final: corrections to billing periods whose every window had been reported (the periods the run keeps totals of). */
  late_after_final: z.object({ corrections: Count, usage: z.number() }),
});
export type MeterCompleteness = z.infer<typeof MeterCompleteness>;
