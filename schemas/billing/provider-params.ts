import * as z from 'zod';
import { ReportingPeriod } from './reporting-period';

/**
 * Provider parameters of a billing meter (`billing_plan.params.<provider>_params`): the identifiers
 * each provider's usage call needs, beyond the subscription itself. Unknown fields are kept (objects
 * are loose) because accounts copy more of their provider's model here than the usage call reads.
 */

const Id = z.string().min(1).max(255);

/** `reporting_period` as the billing run reads it (`5m`, `1h`, `1d`). */
export const ProviderReporting = z.looseObject({
  reporting_period: ReportingPeriod.optional(),
});

/** Stripe Billing Meters: the meter's `event_name` and, if the meter overrides them, its payload keys. */
export const StripeParams = z.looseObject({
  event_name: z.string().min(1).max(100),
  /** The meter's `customer_mapping.event_payload_key` (Stripe's default `stripe_customer_id`). */
  customer_payload_key: z.string().min(1).max(100).default('stripe_customer_id'),
  /** The meter's `value_settings.event_payload_key` (Stripe's default `value`). */
  value_payload_key: z.string().min(1).max(100).default('value'),
  price_id: Id.optional(),
  subscription_item_id: Id.optional(),
  reporting: ProviderReporting.optional(),
});
export type StripeParams = z.infer<typeof StripeParams>;

/** Chargebee (Product Catalog 2.0): usage is recorded against a metered item price of the subscription. */
export const ChargebeeParams = z.looseObject({
  item_price_id: Id,
  reporting: ProviderReporting.optional(),
});
export type ChargebeeParams = z.infer<typeof ChargebeeParams>;

/** Recurly: usage is logged on a usage-based add-on of the subscription (its id, or `code-<add-on code>`). */
export const RecurlyParams = z.looseObject({
  add_on_id: Id,
  reporting: ProviderReporting.optional(),
});
export type RecurlyParams = z.infer<typeof RecurlyParams>;

/** Zuora: a usage record names the customer account, the unit of measure and optionally the charge. */
export const ZuoraParams = z.looseObject({
  /** UOM configured in Zuora's billing settings (e.g. `Each`, `API Calls`). */
  unit_of_measure: z.string().min(1).max(100),
  /** Rate plan charge number (`C-00000007`); without it Zuora bills every charge of the subscription with this UOM. */
  charge_number: z.string().min(1).max(50).optional(),
  /** Overrides the account number (default: the subscription's company id). */
  account_number: z.string().min(1).max(50).optional(),
  reporting: ProviderReporting.optional(),
});
export type ZuoraParams = z.infer<typeof ZuoraParams>;

/** The service's own signed webhook channel (custom plans of the service's catalog). */
export const WebhookParams = z.looseObject({
  channel_ids: z.array(Id).min(1).max(20),
  custom_plan: z.looseObject({ plan_id: Id }),
  reporting: ProviderReporting.extend({
    /** Occasions on which a report is delivered, as configured by the account (e.g. `period_closed`). */
    report_when: z.array(z.string().min(1).max(100)).max(20),
  }).optional(),
});
export type WebhookParams = z.infer<typeof WebhookParams>;

export const PROVIDERS = ['stripe', 'chargebee', 'recurly', 'zuora', 'webhook'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** The params field of `billing_plan.params` for each provider. */
export const PROVIDER_PARAMS_FIELD = {
  stripe: 'stripe_params',
  chargebee: 'chargebee_params',
  recurly: 'recurly_params',
  zuora: 'zuora_params',
  webhook: 'webhook_params',
} as const satisfies Record<ProviderName, string>;

export const PROVIDER_PARAMS_SCHEMAS = {
  stripe: StripeParams,
  chargebee: ChargebeeParams,
  recurly: RecurlyParams,
  zuora: ZuoraParams,
  webhook: WebhookParams,
} as const satisfies Record<ProviderName, z.ZodType>;

/** Provider params as one tagged value, so a client can only be handed its own provider's params. */
export type ProviderParams =
  | { provider: 'stripe'; params: StripeParams }
  | { provider: 'chargebee'; params: ChargebeeParams }
  | { provider: 'recurly'; params: RecurlyParams }
  | { provider: 'zuora'; params: ZuoraParams }
  | { provider: 'webhook'; params: WebhookParams };
