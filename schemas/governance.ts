import * as z from 'zod';
import { PageTake } from './page-take';

/**
 * Governance as the SDKs consume it (moesif-nodejs `governanceRulesManager`):
 *   GET /v1/rules  → SdkRule[]            the app's enabled rules
 *   GET /v1/config → user_rules / company_rules: entity id → RuleAssignment[], the rules whose
 *                    cohorts the entity belongs to, with the values of the rule's variables.
 * The SDK replaces `{{name}}` (or `{{name|default}}`) in the rule's response headers and body with
 * `values[name]`.
 */

/** A stored rule, read leniently: the management API validated it on write (functions/management). */
export const StoredRule = z.object({
  _id: z.string(),
  name: z.string().optional(),
  type: z.string(),
  state: z.number().optional(),
  block: z.boolean().default(false),
  priority: z.number().optional(),
  cohorts: z.array(z.looseObject({ id: z.string() })).default([]),
  variables: z.array(z.object({ name: z.string(), path: z.string() })).default([]),
  applied_to: z.string().optional(),
  applied_to_unidentified: z.boolean().optional(),
  regex_config: z.array(z.unknown()).default([]),
  response: z.looseObject({}).optional(),
  /** Read leniently: a value the management API would now refuse leaves the rule a cohort rule. */
  model: z.string().optional(),
  plans: z.array(z.object({ provider: z.string(), plan_id: z.string(), price_ids: z.array(z.string()).default([]) })).default([]),
  quota: z.object({ limit: z.number().optional(), metric: z.string().optional(), query: z.record(z.string(), z.unknown()).optional() }).optional(),
});
export type StoredRule = z.infer<typeof StoredRule>;

/** Rules with this state are kept but not served to SDKs (0 disabled; every other state is enabled). */
export const DISABLED_RULE_STATE = 0;

/** One rule of GET /v1/rules, exactly the members the SDKs read. */
export const SdkRule = z.object({
  _id: z.string(),
  name: z.string(),
  type: z.string(),
  block: z.boolean(),
  applied_to: z.string(),
  applied_to_unidentified: z.boolean(),
  variables: z.array(z.object({ name: z.string(), path: z.string() })),
  regex_config: z.array(z.unknown()),
  response: z.looseObject({}),
});
export type SdkRule = z.infer<typeof SdkRule>;

/** A rule that applies to one user or company, and the values of that rule's variables for it. */
export const RuleAssignment = z.object({
  rules: z.string(),
  values: z.record(z.string(), z.string()),
});
export type RuleAssignment = z.infer<typeof RuleAssignment>;

/** Sample rate (0–100) per user_id / company_id. */
export const SampleRates = z.record(z.string(), z.number().int().min(0).max(100));
export type SampleRates = z.infer<typeof SampleRates>;

/**
 * What cohort membership assigns, keyed by user_id / company_id: the app's user and company rules,
 * and the sample rates of cohorts that have a `sample_rate` (GET /v1/config's user_sample_rate /
 * company_sample_rate, under the app's own per-id settings). The sample-rate maps default to empty so
 * snapshots stored before they existed still read.
 */
export const RuleAssignments = z.object({
  user_rules: z.record(z.string(), z.array(RuleAssignment)),
  company_rules: z.record(z.string(), z.array(RuleAssignment)),
  user_sample_rate: SampleRates.default({}),
  company_sample_rate: SampleRates.default({}),
});
export type RuleAssignments = z.infer<typeof RuleAssignments>;

/** A stored cohort, as far as membership needs it; `criteria` is a JSON string of a search query. */
export const StoredCohort = z.object({
  _id: z.string().optional(),
  cohort_type: z.enum(['user', 'company']),
  criteria: z.string(),
  /** Members' sample rate (set by a cohort update, removed by DELETE …/sample_rate); range checked where used. */
  sample_rate: z.number().optional(),
  /** Decides between sampled cohorts sharing a member: the larger wins (see computeSampleRates). */
  priority: z.number().optional(),
  /** Where calendar windows of behavioural conditions are reckoned (else the app's time zone). */
  time_zone: z.string().optional(),
  week_starts_on: z.number().int().min(0).max(6).optional(),
});
export type StoredCohort = z.infer<typeof StoredCohort>;

/**
 * GET /~/governance/rules/{id}/members: who the rule hits now, as the last refresh computed it (what
 * SDKs apply), each with the values its response is filled with. Sorted by id, `take` per page.
 */
export const RuleMember = z.object({
  kind: z.enum(['user', 'company']),
  id: z.string(),
  values: z.record(z.string(), z.string()),
});
export const RuleMembers = z.object({
  rule_id: z.string(),
  /** Members in all, past this page too. */
  total: z.number().int(),
  members: z.array(RuleMember),
  /** The `after` of the next page, when there is one. */
  next_after: z.string().optional(),
});
export type RuleMembers = z.infer<typeof RuleMembers>;
export const RuleMembersQuery = z.object({
  take: PageTake.default(100),
  after: z.string().min(1).max(512).optional(),
});
export type RuleMembersQuery = z.infer<typeof RuleMembersQuery>;
