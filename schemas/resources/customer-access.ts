import * as z from 'zod';
import { TimeZoneName } from '../time-zone';
import { SharedTimeRange, SharedWorkspace, MAX_SHARED_TIME_RANGES } from './shared-view';

/**
 * Customer access: the API company's backend mints, server to server, a short-lived signed token for
 * one of its customers (a company). The token binds a value to every dynamic field of the app's
 * template workspaces, opens the customer's usage and bill, and lets the customer set a spend cap.
 * Minting stores nothing; revoking a customer stores one record (tokens issued before it stop working).
 */

/** A customer token lives an hour by default and a week at most: it is minted per page load, not handed out. */
export const DEFAULT_CUSTOMER_TOKEN_SECONDS = 3600;
export const MAX_CUSTOMER_TOKEN_SECONDS = 7 * 86_400;
/** Template workspaces one token may name (a usage page, not a catalogue). */
export const MAX_CUSTOMER_TEMPLATES = 50;
/** Dynamic values one token binds besides company_id and subscription_id. */
export const MAX_CUSTOMER_VALUES = 20;

const Identifier = z.string().min(1).max(256);
/** A field name a template may make dynamic: `user_id`, `request.route`, `metadata.plan` … */
const DynamicFieldName = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, 'must be a field name (letters, digits, _ . -)');

/** POST /~/customer_tokens. */
export const CustomerTokenCreate = z.strictObject({
  /** The customer: only events, usage and bills of this company are reachable. */
  company_id: Identifier,
  /**
   * Narrows the customer to one of its subscriptions (usage, bill, template data, and the
   * `subscription_id` dynamic field); it must be a subscription of `company_id` (400 otherwise).
   */
  subscription_id: Identifier.optional(),
  /** Values of the templates' other dynamic fields (`user_id`, a metadata field …), bound as required filters. */
  values: z
    .record(DynamicFieldName, z.string().min(1).max(256))
    .refine((values) => Object.keys(values).length <= MAX_CUSTOMER_VALUES, `at most ${MAX_CUSTOMER_VALUES} values`)
    .optional(),
  /** Template workspaces the token opens; default every template workspace of the app. */
  templates: z.array(Identifier).min(1).max(MAX_CUSTOMER_TEMPLATES).optional(),
  /** Ranges the customer may pick on templates with `dynamic_time`; the first is the default. Default: each template's own range. */
  time_ranges: z.array(SharedTimeRange).min(1).max(MAX_SHARED_TIME_RANGES).optional(),
  /** The time zone ranges and buckets are read in (TZ database name); default UTC. */
  time_zone: TimeZoneName.optional(),
  /** Seconds the token lives (60 to 7 days); default an hour. */
  expires_in: z.int().min(60).max(MAX_CUSTOMER_TOKEN_SECONDS).optional(),
});
export type CustomerTokenCreate = z.infer<typeof CustomerTokenCreate>;

/** Claims of a customer token (`ct1.`, HMAC-SHA256 under a key derived from the management signing key). */
export const CustomerClaims = z.strictObject({
  typ: z.literal('customer'),
  org_id: z.string(),
  app_id: z.string(),
  company_id: z.string(),
  subscription_id: z.string().optional(),
  values: z.record(z.string(), z.string()),
  templates: z.array(z.string()).optional(),
  time_ranges: z.array(SharedTimeRange).optional(),
  time_zone: z.string(),
  /** Issued at, in milliseconds: a revocation refuses every token issued before it. */
  iat_ms: z.int(),
  /** Expiry, in seconds since the epoch. */
  exp: z.int(),
});
export type CustomerClaims = z.infer<typeof CustomerClaims>;

/** The answer to a mint: the token and the pages that use it. */
export const CustomerToken = z.object({
  token: z.string(),
  company_id: z.string(),
  subscription_id: z.string().optional(),
  expires_at: z.string(),
  /** The usage page (usage, bill so far and estimate, balance), for an iframe; theme it with query parameters (docs/customer-portal.md). */
  usage_url: z.string(),
  /** The template workspaces, for an iframe. */
  templates_url: z.string(),
});
export type CustomerToken = z.infer<typeof CustomerToken>;

/** A customer whose tokens were revoked: every token issued before `revoked_at` answers 401. */
export const CustomerRevocation = z.object({
  company_id: z.string(),
  revoked_at: z.string(),
  revoked_by: z.string(),
});
export type CustomerRevocation = z.infer<typeof CustomerRevocation>;

/** A template workspace as the customer sees it: its chart, and which fields the token binds. */
export const CustomerTemplate = SharedWorkspace.extend({
  dynamic_fields: z.array(z.string()),
  dynamic_time: z.boolean(),
  /** The ranges the customer may pick (only the workspace's own unless the template's time is dynamic). */
  time_ranges: z.array(SharedTimeRange),
});
export type CustomerTemplate = z.infer<typeof CustomerTemplate>;

/** GET /public/customers/{token}. */
export const CustomerView = z.object({
  company_id: z.string(),
  subscription_id: z.string().optional(),
  /** Every dynamic value the token binds (company_id and subscription_id included). */
  values: z.record(z.string(), z.string()),
  time_zone: z.string(),
  expires_at: z.string(),
  templates: z.array(CustomerTemplate),
});
export type CustomerView = z.infer<typeof CustomerView>;

/** GET /public/customers/{token}/workspaces/{workspaceId}/data. */
export const CustomerDataQuery = z.strictObject({
  range: z
    .string()
    .regex(/^\d{1,2}$/, 'must be the index of one of the time ranges the template allows')
    .optional()
    .meta({ description: "Index of one of the template's time_ranges; default 0." }),
});

/** GET /public/customers/{token}/usage. */
export const CustomerUsageQuery = z.strictObject({
  period_start: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date-time' })
    .optional()
    .meta({ description: "Another period than the current one: a subscription's period starting then, or the UTC month starting then." }),
});

/** Routes that take no query parameters refuse any (a parameter the server ignored would mislead). */
export const NoQuery = z.strictObject({});
