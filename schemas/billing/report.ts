import * as z from 'zod';
import { PeriodStatus } from './completeness';
import { ProviderRequestRecord } from './provider-request';
import { CreditBalance } from './balance';

/**
 * A billing report: the usage of one meter for one subscription (or, when unattributed, one company)
 * in one reporting window, and what happened when it was delivered. Spec: "Billing report".
 *
 * Statuses (`status`) and their transitions:
 *   pending      committed by a run, not yet delivered (or a crash happened between delivery and the
 *                outcome write) → the next run (re)sends it with the SAME idempotency key.
 *   success      every destination has this version (a dedupe/replay counts as success).
 *   retrying     not confirmed yet: a 5xx/429/408 answer, or an UNKNOWN outcome (status_code 0: timeout,
 *                connection error — the provider may or may not have it) after the client's own retries.
 *                Later runs resend the SAME version with the SAME key (providers dedupe) until it is
 *                answered: 2xx → success, 4xx → failed.
 *   failed       the provider refused it (4xx other than 408/429, or the target was refused before
 *                sending: `forbidden_target`; provider's code and message in error_code/error_message
 *                and provider_requests), or it was still not confirmed after MAX_DELIVERY_RUNS runs or
 *                UNCONFIRMED_RESEND_MAX_AGE_MS after the version was created (past the shortest provider
 *                dedupe window a resend could double-bill). If any attempt's outcome was unknown,
 *                error_code is `delivery_unconfirmed`: an operator must check the provider. A later
 *                correction of the window carries refused versions (sent with it) but is sent on top of
 *                an unconfirmed one, and the report stays failed/delivery_unconfirmed after the
 *                correction is delivered (never silently success).
 *   unattributed usage of a company with no matching active subscription, or carrying an unknown or
 *                inactive subscription_id: stored (never lost), never sent, success false.
 * A new report whose quantity rounds to 0 is `success` at once (nothing to bill, nothing sent). A
 * meter without a usable destination (no provider connection, unknown channel) counts as a transient
 * failure (`retrying`, error_code `not_configured`), so configuring it in time still delivers.
 * A correction (late events) moves a report back to `pending` with report_version + 1; a window is
 * corrected only when none of its reports is pending or retrying (a version in flight, known or
 * unconfirmed, is settled first).
 */
export const ReportStatus = z.enum(['pending', 'success', 'retrying', 'failed', 'unattributed']);
export type ReportStatus = z.infer<typeof ReportStatus>;

export const ChannelRequests = z.object({
  channel_id: z.string(),
  channel_name: z.string().optional(),
  provider_requests: z.array(ProviderRequestRecord),
});
export type ChannelRequests = z.infer<typeof ChannelRequests>;

/** One version of a report, so every correction can be explained. */
export const ReportVersionEntry = z.object({
  report_version: z.number().int().min(1),
  meter_metric: z.string(),
  meter_usage: z.number().int(),
  /** meter_usage minus the previous version's (the whole usage for version 1). */
  delta: z.number().int(),
  /** What this version charged (a correction: the change of price), exact decimal string, when a price applies. */
  amount_exact: z.string().optional(),
  /** A late correction: made after every window of the report's billing period had been reported (the period was final). */
  after_final: z.boolean().optional(),
  created_at: z.string(),
});
export type ReportVersionEntry = z.infer<typeof ReportVersionEntry>;

export const BillingReport = z.object({
  _id: z.string(),
  org_id: z.string(),
  app_id: z.string(),
  type: z.literal('usage'),
  status: ReportStatus,
  success: z.boolean(),
  usage_start_time: z.string(),
  usage_end_time: z.string(),
  /** Null for an unattributed report keyed by company. */
  subscription_id: z.string().nullable(),
  company_id: z.string().nullable(),
  billing_meter_id: z.string(),
  provider: z.string(),
  /** Raw metric of the window as a number (spec), and exactly as a decimal string. */
  meter_metric: z.number(),
  meter_metric_exact: z.string(),
  /** Whole units after usage_multiplier and usage_rounding_mode. */
  meter_usage: z.number().int(),
  /** Period-to-date total of meter_usage for the subscription, including this window (this version). */
  report_total_usage: z.number().int(),
  report_version: z.number().int().min(1),
  last_success_time: z.string().nullable(),
  /** The idempotency key of the current version (per destination it is idempotencyKey(identity)). */
  idempotency_key: z.string(),
  /** Runs that tried to deliver the current version. */
  delivery_runs: z.number().int().min(0),
  /** Why a `failed` report failed: the provider's code, `forbidden_target`, `not_configured`, or `delivery_unconfirmed`. */
  error_code: z.string().optional(),
  error_message: z.string().optional(),
  provider_requests: z.array(ProviderRequestRecord),
  channel_requests: z.array(ChannelRequests).optional(),
  /** What the window bills over all its versions (sum of versions[].amount_exact), rounded to the currency's minor unit. */
  amount: z.number().optional(),
  amount_exact: z.string().optional(),
  currency: z.string().optional(),
  subscription_period_start: z.string().nullable(),
  subscription_period_end: z.string().nullable(),
  beginning_balance: CreditBalance.optional(),
  ending_balance: CreditBalance.optional(),
  balance_changes: z.array(z.object({ amount: z.number() })).optional(),
  usage: z.object({
    aggregator: z.string(),
    invoice: z.object({ id: z.string(), period_start: z.string().nullable(), period_end: z.string().nullable() }).optional(),
  }),
  /** Where the usage came from: events naming the subscription, company events attributed to it, or both. */
  attribution: z.enum(['subscription_id', 'company', 'both']).optional(),
  /** The catalog price the amount was computed with. */
  price_id: z.string().optional(),
  versions: z.array(ReportVersionEntry),
  created_at: z.string(),
  updated_at: z.string(),
});
export type BillingReport = z.infer<typeof BillingReport>;

/** A report as the API answers it: with its billing period's status at the time of asking (null for an unattributed report, which has no period). */
export const BillingReportAnswer = BillingReport.extend({ period_status: PeriodStatus.nullable() });
export type BillingReportAnswer = z.infer<typeof BillingReportAnswer>;
