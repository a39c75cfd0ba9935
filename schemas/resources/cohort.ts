import * as z from 'zod';
import { EmailPeriod } from './email-template';

/**
 * Spec: NotificationRule. When members enter (`send_on_addition`) or leave (`send_on_removal`) the
 * cohort, the cohort's `channels` are told, at most once per `period` (a count and a unit, `1h`;
 * none: at every membership refresh), with each member's `fields` (profile paths).
 */
export const NotificationRule = z.strictObject({
  send_on_addition: z.boolean(),
  send_on_removal: z.boolean(),
  period: EmailPeriod.optional(),
  fields: z.array(z.string().min(1).max(256)).max(100).optional(),
});
export type NotificationRule = z.infer<typeof NotificationRule>;

export const CohortType = z.enum(['user', 'company']);
export type CohortType = z.infer<typeof CohortType>;

const int32 = z.number().int().min(-2_147_483_648).max(2_147_483_647);

/** Optional fields shared by create and update. `time_zone` is also checked against the TZ database. */
const optionalFields = {
  /** Where notifications go: webhook channel ids (`/~/billing/channels`) and email addresses. */
  channels: z.array(z.string().min(1).max(256)).max(100).optional(),
  priority: int32.optional(),
  url_query: z.string().max(16_384).optional(),
  from: z.string().max(64).optional(),
  to: z.string().max(64).optional(),
  time_zone: z.string().min(1).max(64).optional(),
  locked_by: z.string().max(256).optional(),
  week_starts_on: z.number().int().min(0).max(6).optional(),
  notification_rule: NotificationRule.optional(),
};

/** `criteria`: a search DSL query or search body over users or companies (checked per cohort_type). */
const Criteria = z.record(z.string(), z.unknown());

export const CohortCreate = z.strictObject({
  cohort_name: z.string().min(1).max(256),
  cohort_type: CohortType,
  criteria: Criteria,
  ...optionalFields,
});
export type CohortCreate = z.infer<typeof CohortCreate>;

/** Update: cohort_type is required (and must equal the stored one); sample_rate only here. */
export const CohortUpdate = z.strictObject({
  cohort_type: CohortType,
  cohort_name: z.string().min(1).max(256).optional(),
  criteria: Criteria.optional(),
  sample_rate: z.number().int().min(0).max(100).optional(),
  ...optionalFields,
});
export type CohortUpdate = z.infer<typeof CohortUpdate>;
