import { GovernanceRuleCreate, GovernanceRuleUpdate } from '../../schemas/resources/governance-rule';
import { appRulesPartition, RULE_SORT_PREFIX } from '../resources/keys';
import { GoneError, NotFoundError, ValidationError, type FieldIssue } from '../shared/errors';
import { byKey, pageAfter } from '../resources/page-after';
import { contextOf, crudOperations, type CrudKind, type ResourceContext } from '../resources/crud-operations';
import { parseQueryParams } from '../shared/invalid-input';
import { RuleMembersQuery, type RuleAssignments, type RuleMembers } from '../../schemas/governance';
import { COHORT_PREFIX } from './cohorts';
import { namedOperations, type ResourceDeps, type ResourceOperationTable } from '../resources/resource-deps';
import type { ResourceStore, StoredDocument } from '../resources/resource-store';
import { catalogPlanQuota } from '../resources/catalog-plan-quota';
import { parseQuery } from '../search/dsl';
import { assertLinearRegexConfig } from './regex-config-safety';

/** `RULE`: the collector's rule store (functions/governance/rule-store.ts) reads `RULE#<id>` items. */
export const RULE_PREFIX = RULE_SORT_PREFIX.slice(0, -1);

/**
 * A rule's cohorts must be live cohorts of the same app whose `cohort_type` is the rule's type;
 * regex rules match request fields only and take no cohorts (user and company rules may add
 * regex_config conditions). Checked on the rule as it will be stored, so an update cannot break it.
 */
async function checkCohorts(store: ResourceStore, ctx: ResourceContext, rule: StoredDocument): Promise<void> {
  const cohorts = Array.isArray(rule.cohorts) ? (rule.cohorts as { id: string }[]) : [];
  const at = { partition: appRulesPartition(ctx.orgId, ctx.appId), prefix: COHORT_PREFIX };
  const issues: FieldIssue[] = [];
  if (rule.type === 'regex' && cohorts.length > 0) issues.push({ field: 'cohorts', reason: 'a regex rule takes no cohorts; use regex_config' });
  else {
    await Promise.all(
      cohorts.map(async (ref, i) => {
        try {
          const cohort = await store.get(at, ref.id, 'cohort');
          if (cohort.cohort_type !== rule.type)
            issues.push({
              field: `cohorts[${i}].id`,
              reason: `is a ${String(cohort.cohort_type)} cohort; a ${String(rule.type)} rule needs ${String(rule.type)} cohorts`,
            });
        } catch (error) {
          if (error instanceof NotFoundError) issues.push({ field: `cohorts[${i}].id`, reason: 'no cohort with this id in this app' });
          else if (error instanceof GoneError) issues.push({ field: `cohorts[${i}].id`, reason: 'the cohort was deleted' });
          else throw error;
        }
      }),
    );
  }
  if (issues.length > 0) {
    issues.sort((a, b) => a.field.localeCompare(b.field));
    throw new ValidationError(`Invalid rule: ${issues.map((i) => `${i.field} ${i.reason}`).join('; ')}`, issues);
  }
}

/**
 * Plans and billing models: a quota, balance or subscription rule is a user or company rule with
 * plans (the subscriptions it reads; a spend_cap rule reads customers' own caps, and plans only narrow it); only a quota rule has a `quota`, whose query must parse and
 * whose limit comes from the rule or from every plan's catalog entry.
 */
async function checkPlans(store: ResourceStore, ctx: ResourceContext, rule: StoredDocument): Promise<void> {
  const model = typeof rule.model === 'string' ? rule.model : 'cohort';
  const plans = Array.isArray(rule.plans) ? (rule.plans as { provider: string; plan_id: string }[]) : [];
  const quota = rule.quota as { limit?: number; query?: unknown } | undefined;
  const issues: FieldIssue[] = [];
  if (rule.type === 'regex' && (plans.length > 0 || model !== 'cohort'))
    issues.push({
      field: plans.length > 0 ? 'plans' : 'model',
      reason: 'a regex rule matches requests only; plans and billing models need a user or company rule',
    });
  else if (model !== 'cohort' && model !== 'spend_cap' && plans.length === 0)
    issues.push({ field: 'plans', reason: `a ${model} rule reads the subscriptions on its plans: name at least one` });
  if (quota !== undefined && model !== 'quota') issues.push({ field: 'quota', reason: 'only a rule with model "quota" has a quota' });
  if (quota?.query !== undefined) {
    try {
      parseQuery(quota.query);
    } catch (error) {
      issues.push({ field: 'quota.query', reason: error instanceof Error ? error.message : String(error) });
    }
  }
  if (model === 'quota' && quota?.limit === undefined && issues.length === 0) {
    const missing: string[] = [];
    for (const plan of plans) if ((await catalogPlanQuota(store, ctx, plan.provider, plan.plan_id)) === undefined) missing.push(plan.plan_id);
    if (missing.length > 0)
      issues.push({ field: 'quota.limit', reason: `required: the catalog has no plan ${missing.join(', ')} of its provider with a quota in its metadata` });
  }
  if (issues.length > 0) throw new ValidationError(`Invalid rule: ${issues.map((i) => `${i.field} ${i.reason}`).join('; ')}`, issues);
}

/** Rules an app may have: every enabled one is served to each SDK in `/v1/rules` and checked on each request. */
export const MAX_GOVERNANCE_RULES_PER_APP = 100;
/** Regex conditions of one rule, all of its regex_config entries together. */
export const MAX_RULE_CONDITIONS = 50;
/** All of an app's rules as JSON: what `/v1/rules` can grow to (every SDK fetches it). */
export const MAX_APP_RULES_BYTES = 1_000_000;

/** The rule's conditions, the app's rule count and their total size, each a 400 naming what is over. */
async function checkLimits(store: ResourceStore, ctx: ResourceContext, rule: StoredDocument): Promise<void> {
  const configs = Array.isArray(rule.regex_config) ? (rule.regex_config as { conditions?: unknown[] }[]) : [];
  const conditions = configs.reduce((sum, config) => sum + (config.conditions?.length ?? 0), 0);
  if (conditions > MAX_RULE_CONDITIONS) {
    throw new ValidationError(`A governance rule may have at most ${MAX_RULE_CONDITIONS} regex conditions in all; this one has ${conditions}`, [
      { field: 'regex_config', reason: `over ${MAX_RULE_CONDITIONS} conditions` },
    ]);
  }
  const page = await store.list({ partition: appRulesPartition(ctx.orgId, ctx.appId), prefix: RULE_PREFIX }, { take: MAX_GOVERNANCE_RULES_PER_APP + 1 });
  const others = page.items.map((item) => item.document).filter((document) => document['_id'] !== rule['_id']);
  if (others.length >= MAX_GOVERNANCE_RULES_PER_APP) {
    throw new ValidationError(`An app may have at most ${MAX_GOVERNANCE_RULES_PER_APP} governance rules`, [
      { field: 'body', reason: `the app has ${MAX_GOVERNANCE_RULES_PER_APP} governance rules already` },
    ]);
  }
  const bytes = [...others, rule].reduce((sum, document) => sum + Buffer.byteLength(JSON.stringify(document)), 0);
  if (bytes > MAX_APP_RULES_BYTES) {
    throw new ValidationError(
      `An app's governance rules may be at most ${MAX_APP_RULES_BYTES} bytes as JSON together (SDKs fetch them all); with this rule they would be ${bytes}`,
      [{ field: 'body', reason: `the app's rules would be over ${MAX_APP_RULES_BYTES} bytes` }],
    );
  }
}

/**
 * Governance rules (`/~/governance/rules`): block or shape traffic of users, companies or requests
 * matching a regex. SDKs fetch the enabled ones (state 1) from the collector, so every change
 * recomputes the app's SDK rules.
 */
export function governanceRuleKind(deps: ResourceDeps): CrudKind<GovernanceRuleCreate, GovernanceRuleUpdate> {
  return {
    noun: 'governance rule',
    prefix: RULE_PREFIX,
    idParam: 'id',
    createSchema: GovernanceRuleCreate,
    updateSchema: GovernanceRuleUpdate,
    toStored: async (input, ctx, system) => {
      const rule = { ...system, ...input };
      await checkLimits(deps.store, ctx, rule);
      await assertLinearRegexConfig(input.regex_config, 'regex_config');
      await checkCohorts(deps.store, ctx, rule);
      await checkPlans(deps.store, ctx, rule);
      return rule;
    },
    applyUpdate: async (current, input, ctx) => {
      const rule: StoredDocument = { ...current, ...input };
      // Moving a rule off the quota model drops its quota rather than refusing the stored one.
      if (input.model !== undefined && input.model !== 'quota' && input.quota === undefined) delete rule.quota;
      await checkLimits(deps.store, ctx, rule);
      await assertLinearRegexConfig(input.regex_config, 'regex_config');
      await checkCohorts(deps.store, ctx, rule);
      await checkPlans(deps.store, ctx, rule);
      return rule;
    },
    onChange: async (ctx) => deps.onGovernanceChange?.(ctx.orgId, ctx.appId),
  };
}

export function governanceRuleOperations(deps: ResourceDeps): ResourceOperationTable {
  return {
    ...namedOperations('governanceRules', crudOperations(governanceRuleKind(deps), deps)),
    /** GET /~/governance/rules/{id}/members: who the rule hits now (the last refresh's membership). */
    'governanceRules.members': async (request, caller) => {
      const ctx = contextOf(request, caller, deps.now?.() ?? new Date());
      const query = parseQueryParams(RuleMembersQuery, request.query);
      const ruleId = request.pathParams.id ?? '';
      // 404 / 410 for a rule that is not (or no longer) there.
      await deps.store.get({ partition: appRulesPartition(ctx.orgId, ctx.appId), prefix: RULE_PREFIX }, ruleId, 'governance rule');
      const membership = (await deps.ruleMembership?.(ctx.orgId, ctx.appId)) ?? { user_rules: {}, company_rules: {} };
      return { status: 200, body: membersOf(ruleId, membership, query) };
    },
  };
}

/** The rule's members in a membership snapshot, companies and users together in id order, one page. */
export function membersOf(ruleId: string, membership: Pick<RuleAssignments, 'user_rules' | 'company_rules'>, page: RuleMembersQuery): RuleMembers {
  const all: RuleMembers['members'] = [];
  for (const [kind, byId] of [
    ['company', membership.company_rules],
    ['user', membership.user_rules],
  ] as const)
    for (const [id, assignments] of Object.entries(byId)) {
      const assignment = assignments.find((a) => a.rules === ruleId);
      if (assignment) all.push({ kind, id, values: assignment.values });
    }
  const key = (m: { kind: string; id: string }) => `${m.kind}:${m.id}`;
  all.sort(byKey(key));
  const { items, ...next } = pageAfter(all, key, page);
  return { rule_id: ruleId, total: all.length, members: items, ...next };
}
