import * as z from 'zod';
import type { MetricsAnswer } from '../billing/reports/report-metrics';
import type { ReportExplanation } from '../billing/reports/report-explain';
import { BillingReport } from '../../schemas/billing/report';

/**
 * Answers of the billing report reads (functions/billing/reports), declared there as interfaces:
 * documented here, with compile-time checks that schema and interface describe the same values.
 */

const CreditFigures = z.object({ current_balance: z.number(), pending_activity: z.number(), available_balance: z.number() });

const MetricBucket = z.object({
  start: z.string().meta({ description: 'Bucket start, ISO 8601 in the requested time zone.' }),
  metric: z.number().nullable().meta({ description: 'The aggregator over meter_usage of the reports in the bucket; null when none.' }),
  amounts: z.record(z.string(), z.number()).meta({ description: 'Billed amount per currency.' }),
  ending_balance: CreditFigures,
});

export const ReportMetrics = z.object({
  buckets: z.array(MetricBucket),
  aggregator: z.string(),
  interval: z.string(),
  time_zone: z.string(),
  group_by: z.string().optional(),
  series: z
    .array(z.object({ key: z.string().nullable(), buckets: z.array(MetricBucket) }))
    .optional()
    .meta({ description: 'One series per group_by value.' }),
  other_series_count: z.int().optional().meta({ description: 'Series left out beyond the first 100.' }),
});

export const ReportExplain = z.object({
  report: BillingReport,
  recomputed_metric: z.string().meta({ description: 'The raw metric of the window now, as decimal text.' }),
  recomputed_usage: z.int().meta({ description: 'The whole quantity after usage_multiplier and rounding.' }),
  matches: z.boolean().meta({ description: "Both equal the report's meter_metric_exact and meter_usage (false after late events not yet re-billed)." }),
  query: z.record(z.string(), z.unknown()).meta({ description: 'The exact search body sent to the events index.' }),
  range: z.object({ from: z.string(), to: z.string(), time_zone: z.literal('UTC') }),
  company_usage_included: z.boolean(),
  sample_event_ids: z.array(z.string()).meta({ description: 'Up to 20 ids of matching events.' }),
  event_count: z.int(),
});

type Writable<T> = T extends readonly (infer E)[] ? Writable<E>[] : T extends object ? { -readonly [K in keyof T]: Writable<T[K]> } : T;
type Same<A, B> = [Writable<A>] extends [Writable<B>] ? ([Writable<B>] extends [Writable<A>] ? true : false) : false;
function sameShape<T extends true>(): T | undefined {
  return undefined;
}
sameShape<Same<z.infer<typeof ReportMetrics>, MetricsAnswer>>();
sameShape<Same<z.infer<typeof ReportExplain>, ReportExplanation>>();
