import * as z from 'zod';
import { ReportingPeriod } from '../billing/reporting-period';

/** Meter states: active meters are billed by the billing run; inactive ones are kept but skipped. */
export const BillingMeterStatus = z.enum(['active', 'inactive']);

export const BillingProvider = z.enum(['webhook', 'stripe', 'chargebee', 'recurly', 'zuora']);
export type BillingProvider = z.infer<typeof BillingProvider>;

const reporting = z.looseObject({ reporting_period: ReportingPeriod.optional() });

/**
 * A provider's plan/price parameters follow that provider's own model (spec: not enumerated): any
 * object, with the common optional `reporting.reporting_period`.
 */
const ProviderParams = z.looseObject({ reporting: reporting.optional() });

/** Spec: BillingWebhookParams. */
export const WebhookParams = z.strictObject({
  channel_ids: z.array(z.string().min(1).max(256)).max(100),
  custom_plan: z.looseObject({ plan_id: z.string().min(1).max(256) }),
  reporting: z.strictObject({ report_when: z.array(z.string().min(1).max(64)).max(20), reporting_period: ReportingPeriod.optional() }).optional(),
});

/** Spec: BillingParams. */
export const BillingParams = z.strictObject({
  /** How fractional usage (after the multiplier) becomes a whole quantity. */
  usage_rounding_mode: z.enum(['up', 'down', 'nearest']).optional(),
  /** Positive; at least 1e-130, the least a DynamoDB number holds. */
  usage_multiplier: z.number().min(1e-130, 'must be positive (at least 1e-130)').max(1e12).optional(),
  /**
   * Minutes after a reporting window closes before its first report, so late events are in it. Left
   * out: chosen from how late the meter's events arrive (6 to 60 minutes). At least 6: the marks
   * that send later events as corrections need 5.
   */
  grace_period_minutes: z.number().int().min(6).max(1440).optional(),
  webhook_params: WebhookParams.optional(),
  stripe_params: ProviderParams.optional(),
  chargebee_params: ProviderParams.optional(),
  recurly_params: ProviderParams.optional(),
  zuora_params: ProviderParams.optional(),
});

/** Spec: BillingPlan. */
export const BillingPlan = z.strictObject({
  provider_slug: BillingProvider,
  friendly_name: z.string().max(256).optional(),
  params: BillingParams.optional(),
});
export type BillingPlan = z.infer<typeof BillingPlan>;

/** Lower-case letters, digits, `-` and `_`: slugs appear in URLs and provider metadata. */
const Slug = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, { message: 'must be lower-case letters, digits, - or _' });

/**
 * `es_query`: an events search body (object), the same as a JSON string, or base64 of that JSON.
 * It may contain `{{company_id}}` and `{{subscription_id}}` placeholders (billing fills them per customer).
 */
const EsQueryInput = z.union([z.record(z.string(), z.unknown()), z.string().min(1).max(1_000_000)], {
  error: 'must be a search body object, its JSON text, or base64 of that JSON',
});

export const BillingMeterCreate = z.strictObject({
  name: z.string().min(1).max(256),
  slug: Slug,
  es_query: EsQueryInput,
  url_query: z.string().max(16_384).default(''),
  status: BillingMeterStatus.default('active'),
  billing_plan: BillingPlan,
});
export type BillingMeterCreate = z.infer<typeof BillingMeterCreate>;

export const BillingMeterUpdate = z.strictObject({
  name: z.string().min(1).max(256).optional(),
  slug: Slug.optional(),
  es_query: EsQueryInput.optional(),
  url_query: z.string().max(16_384).optional(),
  status: BillingMeterStatus.optional(),
  billing_plan: BillingPlan.optional(),
});
export type BillingMeterUpdate = z.infer<typeof BillingMeterUpdate>;
