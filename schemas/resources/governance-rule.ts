import * as z from 'zod';
import { RegexRule } from './regex-rule';

/** user and company rules match cohorts of that kind; regex rules match request fields. */
export const GovernanceRuleType = z.enum(['user', 'company', 'regex']);
export type GovernanceRuleType = z.infer<typeof GovernanceRuleType>;

/** Rule states: 0 disabled (stored, not sent to SDKs as active), 1 enabled. */
export const GovernanceRuleState = z.union([z.literal(0), z.literal(1)], { error: 'must be 0 (disabled) or 1 (enabled)' });

const int32 = z.number().int().min(-2_147_483_648).max(2_147_483_647);

/** Spec: RulesResponseItem — the response an SDK sends back when the rule blocks a request. */
export const RulesResponseItem = z.strictObject({
  status: z.number().int().min(100).max(599).optional(),
  headers: z.record(z.string().min(1).max(256), z.string().max(8192)).optional(),
  body: z.unknown().optional(),
  original_encoded_body: z.string().max(1_000_000).optional(),
});

/** A cohort the rule applies to: `id` of a cohort of the same app (other members are kept as given). */
export const RuleCohortRef = z.looseObject({ id: z.string().min(1).max(128) });

/** Spec: Plan — the billing plans (by provider) the rule applies to. */
export const RulePlan = z.strictObject({
  provider: z.string().min(1).max(64),
  plan_id: z.string().min(1).max(256),
  price_ids: z.array(z.string().min(1).max(256)).max(100),
});

/**
 * What decides who a user or company rule hits (docs/governance.md, Plans and quotas):
 *   cohort        members of its cohorts (and, with `plans`, only companies subscribed to one)
 *   quota         companies on its plans whose usage this billing period reached the quota
 *   balance       companies on its plans whose prepaid balance is used up
 *   subscription  companies whose subscriptions on its plans are all inactive or cancelled
 *   spend_cap     companies whose bill so far this period reached the hard spend cap they set
 *                 themselves (through a customer token); plans, if given, narrow it
 */
export const GovernanceRuleModel = z.enum(['cohort', 'quota', 'balance', 'subscription', 'spend_cap'], {
  error: 'must be cohort, quota, balance, subscription or spend_cap',
});
export type GovernanceRuleModel = z.infer<typeof GovernanceRuleModel>;

/** A quota rule's limit per billing period: of events matching `query`, counted or their `weight` summed (an event without one weighs 1). */
export const RuleQuota = z.strictObject({
  /** Absent: the `quota` metadata of the plan in the catalog. */
  limit: z.number().positive('must be above 0').max(1e15).optional(),
  metric: z.enum(['count', 'weight'], { error: 'must be count or weight' }).optional(),
  /** An events query (search DSL); absent: every event of the company. */
  query: z.record(z.string(), z.unknown()).optional(),
});
export type RuleQuota = z.infer<typeof RuleQuota>;

const fields = {
  priority: int32.optional(),
  model: GovernanceRuleModel.optional(),
  quota: RuleQuota.optional(),
  cohorts: z.array(RuleCohortRef).max(100).optional(),
  variables: z
    .array(z.strictObject({ name: z.string().min(1).max(256), path: z.string().min(1).max(512) }))
    .max(100)
    .optional(),
  /** Whether the rule acts on requests of matching users/companies or on all the others. */
  applied_to: z.enum(['matching', 'not_matching']).optional(),
  response: RulesResponseItem.optional(),
  applied_to_unidentified: z.boolean().optional(),
  regex_config: z.array(RegexRule).max(50).optional(),
  plans: z.array(RulePlan).max(100).optional(),
};

export const GovernanceRuleCreate = z.strictObject({
  name: z.string().min(1).max(256),
  type: GovernanceRuleType,
  state: GovernanceRuleState,
  block: z.boolean(),
  ...fields,
});
export type GovernanceRuleCreate = z.infer<typeof GovernanceRuleCreate>;

export const GovernanceRuleUpdate = z.strictObject({
  name: z.string().min(1).max(256).optional(),
  type: GovernanceRuleType.optional(),
  state: GovernanceRuleState.optional(),
  block: z.boolean().optional(),
  ...fields,
});
export type GovernanceRuleUpdate = z.infer<typeof GovernanceRuleUpdate>;
