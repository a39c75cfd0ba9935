import * as z from 'zod';
import { TimeZoneName } from '../time-zone';
import { PageTake } from '../page-take';
import { EmailPeriod } from './email-template';
import { THRESHOLD_OPERATORS } from '../../values/threshold-comparison';

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
  time_zone: TimeZoneName.optional(),
  locked_by: z.string().max(256).optional(),
  week_starts_on: z.number().int().min(0).max(6).optional(),
  notification_rule: NotificationRule.optional(),
};

/**
 * `criteria`: a search DSL query or search body over users or companies (checked per cohort_type);
 * a body may also hold `events` (CohortEvents): conditions on what each member did.
 */
const Criteria = z.record(z.string(), z.unknown());

/**
 * Where a behavioural condition looks, relative to the membership's "now":
 * - `{last, unit}`: the last N minutes, hours or days;
 * - `{calendar, periods_ago}`: a calendar day, week, month, quarter or year in the cohort's time
 *   zone (else the app's), weeks starting on its `week_starts_on`; 0 (the default) is the current
 *   period up to now, 1 the whole period before, …;
 * - `{billing_period: "current"}`: the member's current subscription billing period (a user's:
 *   its company's); a member without an active subscription has none, so did not perform.
 */
export const CohortEventWindow = z.union([
  z.strictObject({ last: z.number().int().min(1).max(100_000), unit: z.enum(['minutes', 'hours', 'days']) }),
  z.strictObject({ calendar: z.enum(['day', 'week', 'month', 'quarter', 'year']), periods_ago: z.number().int().min(0).max(1000).optional() }),
  z.strictObject({ billing_period: z.literal('current') }),
]);
export type CohortEventWindow = z.infer<typeof CohortEventWindow>;

/**
 * A behavioural condition: the member `performed` (default) or did not perform events matching
 * `query` (any events DSL query: a virtual event type, a route template, …; default all events)
 * in the window, measured as a count, a sum of `weight` (1 where absent, as billing counts) or a
 * count of distinct values of `field`, compared with `value` (default: count ≥ 1). Performed means
 * at least one matching event and the comparison holds; not performed is exactly the opposite.
 */
export const CohortEventCondition = z.strictObject({
  performed: z.boolean().optional(),
  query: z.record(z.string(), z.unknown()).optional(),
  measure: z.enum(['count', 'sum_weight', 'distinct']).optional(),
  /** The field whose distinct values are counted (`distinct` only). */
  field: z.string().min(1).max(256).optional(),
  operator: z.enum(THRESHOLD_OPERATORS).optional(),
  value: z.number().finite().optional(),
  window: CohortEventWindow,
});
export type CohortEventCondition = z.infer<typeof CohortEventCondition>;

/** `criteria.events`: conditions that must all hold (`match: all`, the default) or any one. */
export const CohortEvents = z.strictObject({
  match: z.enum(['all', 'any']).optional(),
  conditions: z.array(CohortEventCondition).min(1).max(10),
});
export type CohortEvents = z.infer<typeof CohortEvents>;

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

/** Paging of a member list, and the one member to look for (is this user in the cohort now?). */
const memberPaging = {
  take: PageTake.default(25),
  /** The `next_after` of the page before. */
  after: z.string().min(1).max(512).optional(),
  member_id: z.string().min(1).max(512).optional(),
};

/** GET /~/cohorts/{cohortId}/members: query parameters. */
export const CohortMembersQuery = z.object(memberPaging);
export type CohortMembersQuery = z.infer<typeof CohortMembersQuery>;

/** POST /~/cohorts/members/preview: criteria not saved yet, counted as a cohort would be. */
export const CohortMembersPreview = z.strictObject({
  cohort_type: CohortType,
  criteria: Criteria,
  time_zone: optionalFields.time_zone,
  week_starts_on: optionalFields.week_starts_on,
  ...memberPaging,
});
export type CohortMembersPreview = z.infer<typeof CohortMembersPreview>;

/** Who is in a cohort now, computed at the request (profile criteria and behaviour), in id order. */
export const CohortMembers = z.object({
  cohort_type: CohortType,
  /** Members in all (up to 100,000: see `cut`). */
  total: z.number().int(),
  /** More members than are counted: `total` is the cap. */
  cut: z.boolean(),
  members: z.array(z.object({ id: z.string() })),
  next_after: z.string().optional(),
});
export type CohortMembers = z.infer<typeof CohortMembers>;
