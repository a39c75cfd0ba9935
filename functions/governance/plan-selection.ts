import type { StoredRule } from '../../schemas/governance';
import type { SpendCapStanding } from '../../schemas/resources/spend-cap';
import { Decimal } from '../../values/decimal';
import type { SearchableIndex, TenantScope } from '../search/port';
import { modelOf } from './rule-model';
import { currentBillingPeriod, type BillingPeriod } from '../../values/billing-period';
import { measureInOwnWindows } from '../cohorts/member-measures';
import { ACTIVE_SUBSCRIPTION_STATUSES, type PlanSubscription, type SubscriptionFacts } from '../cohorts/subscription-periods';

/**
 * Which companies a rule with `plans`, or with a billing `model`, selects, each with the values its
 * response may use (`{{quota_limit}}`, …). Subscriptions, balances and catalog quotas come from
 * billing through `BillingFacts` (this layer sits below billing); usage is counted in the index with
 * one grouped query per distinct billing period.
 */

export interface BillingFacts extends SubscriptionFacts {
  /** The subscription's available prepaid balance as decimal text; undefined when it has no balance. */
  availableBalance(scope: TenantScope, subscriptionId: string): Promise<string | undefined>;
  /** The `quota` metadata of the catalog plan with this id and provider, when it has a usable one. */
  planQuota(scope: TenantScope, provider: string, planId: string): Promise<number | undefined>;
  /** Every customer's own spend cap and its bill so far this period (spend_cap rules and alerts). */
  spendCaps(scope: TenantScope, now: Date): Promise<readonly SpendCapStanding[]>;
}

/** Whether membership of the rule depends on subscriptions (and so on this module). */
export const selectsByPlans = (rule: StoredRule): boolean => rule.plans.length > 0 || modelOf(rule) !== 'cohort';

/** Company id → the values the rule's response may use for it. */
export type PlanSelection = Map<string, Record<string, string>>;

export interface PlanSelectionInput {
  readonly index: SearchableIndex;
  readonly scope: TenantScope;
  readonly timeZone: string;
  readonly now: Date;
  readonly facts: BillingFacts;
}

/** The selection of every rule that selects by plans, by rule id; rules that cannot select say why. */
export async function selectByPlans(
  input: PlanSelectionInput,
  rules: readonly StoredRule[],
): Promise<{ selections: Map<string, PlanSelection>; problems: { rule_id: string; reason: string }[] }> {
  const selections = new Map<string, PlanSelection>();
  const problems: { rule_id: string; reason: string }[] = [];
  const planned = rules.filter((rule) => rule.type !== 'regex' && selectsByPlans(rule));
  if (planned.length === 0) return { selections, problems };
  const subscriptions = await input.facts.subscriptions(input.scope, input.now);
  // Customers' spend caps are read once per refresh, however many spend_cap rules read them.
  let caps: Promise<readonly SpendCapStanding[]> | undefined;
  // A view of the facts (their prototype kept: some are class instances, whose methods a spread would drop).
  const facts: BillingFacts = Object.assign(Object.create(input.facts) as BillingFacts, {
    spendCaps: () => (caps ??= input.facts.spendCaps(input.scope, input.now)),
  });
  for (const rule of planned) {
    if (rule.plans.length === 0 && modelOf(rule) !== 'spend_cap') {
      problems.push({ rule_id: rule._id, reason: `a ${modelOf(rule)} rule needs plans; it selects nobody` });
      selections.set(rule._id, new Map());
      continue;
    }
    const onPlans = subscriptions.filter((s) => onePlanOf(rule, s) !== undefined);
    try {
      selections.set(rule._id, await selectFor({ ...input, facts }, rule, onPlans));
    } catch (error) {
      problems.push({ rule_id: rule._id, reason: error instanceof Error ? error.message : String(error) });
      selections.set(rule._id, new Map());
    }
  }
  return { selections, problems };
}

/** The first of the rule's plans the subscription has an item of (a plan without price_ids takes any price). */
export function onePlanOf(rule: Pick<StoredRule, 'plans'>, subscription: PlanSubscription): StoredRule['plans'][number] | undefined {
  return rule.plans.find((plan) =>
    subscription.items.some((item) => item.plan_id === plan.plan_id && (plan.price_ids.length === 0 || plan.price_ids.includes(item.price_id ?? ''))),
  );
}

async function selectFor(input: PlanSelectionInput, rule: StoredRule, onPlans: readonly PlanSubscription[]): Promise<PlanSelection> {
  const active = onPlans.filter((s) => ACTIVE_SUBSCRIPTION_STATUSES.has(s.status));
  switch (modelOf(rule)) {
    case 'cohort':
      return everyCompany(active, (s) => ({ subscription_id: s.subscriptionId, plan_id: onePlanOf(rule, s)!.plan_id }));
    case 'subscription': {
      // Blocked when the company has a subscription on the plans and none of them is active.
      const served = new Set(active.map((s) => s.companyId));
      return everyCompany(
        onPlans.filter((s) => !served.has(s.companyId)),
        (s) => ({ subscription_id: s.subscriptionId, subscription_status: s.status, plan_id: onePlanOf(rule, s)!.plan_id }),
      );
    }
    case 'balance':
      return exhaustedBalances(input, rule, active);
    case 'quota':
      return overQuota(input, rule, active);
    case 'spend_cap':
      return cappedCompanies(input, rule, active);
  }
}

/**
 * Companies whose bill so far this period reached the hard cap they set themselves; with plans,
 * only those with an active subscription on one of them.
 */
async function cappedCompanies(input: PlanSelectionInput, rule: StoredRule, active: readonly PlanSubscription[]): Promise<PlanSelection> {
  const onPlans = rule.plans.length === 0 ? undefined : new Set(active.map((s) => s.companyId));
  const selection: PlanSelection = new Map();
  for (const cap of await input.facts.spendCaps(input.scope, input.now)) {
    if (!cap.capped || (onPlans && !onPlans.has(cap.company_id))) continue;
    selection.set(cap.company_id, {
      spend_cap_budget: cap.budget,
      spend_cap_spent: cap.spent,
      spend_cap_currency: cap.currency,
      spend_cap_reset: cap.period_end ?? '',
    });
  }
  return selection;
}

function everyCompany(subscriptions: readonly PlanSubscription[], values: (s: PlanSubscription) => Record<string, string>): PlanSelection {
  const selection: PlanSelection = new Map();
  for (const s of subscriptions) if (!selection.has(s.companyId)) selection.set(s.companyId, values(s));
  return selection;
}

/**
 * Companies whose prepaid subscriptions on the plans have all run out (available balance ≤ 0). A
 * subscription with no balance at all is not prepaid, and never blocked by this rule.
 */
async function exhaustedBalances(input: PlanSelectionInput, rule: StoredRule, active: readonly PlanSubscription[]): Promise<PlanSelection> {
  const byCompany = new Map<string, { exhausted: { s: PlanSubscription; balance: string }[]; funded: boolean }>();
  for (const s of active) {
    const balance = await input.facts.availableBalance(input.scope, s.subscriptionId);
    if (balance === undefined) continue;
    const entry = byCompany.get(s.companyId) ?? { exhausted: [], funded: false };
    if (Decimal.from(balance).compare(0) > 0) entry.funded = true;
    else entry.exhausted.push({ s, balance });
    byCompany.set(s.companyId, entry);
  }
  const selection: PlanSelection = new Map();
  for (const [companyId, { exhausted, funded }] of byCompany) {
    const first = exhausted[0];
    if (funded || !first) continue;
    selection.set(companyId, { subscription_id: first.s.subscriptionId, balance: first.balance, plan_id: onePlanOf(rule, first.s)!.plan_id });
  }
  return selection;
}

interface QuotaCheck {
  readonly subscription: PlanSubscription;
  readonly period: BillingPeriod;
  readonly limit: number;
}

/**
 * Companies that used their quota this billing period: usage ≥ limit, so the call that reaches the
 * limit is served and the next ones are blocked. A company with several subscriptions on the plans
 * is blocked only when each of them is over its quota.
 */
async function overQuota(input: PlanSelectionInput, rule: StoredRule, active: readonly PlanSubscription[]): Promise<PlanSelection> {
  const over = new Map<string, Record<string, string>>();
  const underQuota = new Set<string>();
  for (const { subscription, period, limit, used } of await quotaUsage(input, rule, active)) {
    const { companyId } = subscription;
    if (used < limit) {
      underQuota.add(companyId);
      continue;
    }
    if (!over.has(companyId))
      over.set(companyId, {
        subscription_id: subscription.subscriptionId,
        plan_id: onePlanOf(rule, subscription)!.plan_id,
        quota_limit: String(limit),
        quota_used: String(used),
        quota_period_start: period.start.toISOString(),
        quota_reset: period.end.toISOString(),
        quota_reset_http: period.end.toUTCString(),
      });
  }
  for (const companyId of underQuota) over.delete(companyId);
  return over;
}

export interface QuotaUsage extends QuotaCheck {
  readonly used: number;
}

/**
 * Each active subscription on the quota rule's plans with its quota (the rule's, else its catalog
 * plan's), its current billing period and the usage in it (billing alerts read the same figures).
 */
export async function quotaUsage(input: PlanSelectionInput, rule: StoredRule, active: readonly PlanSubscription[]): Promise<QuotaUsage[]> {
  const checks: QuotaCheck[] = [];
  const catalog = new Map<string, Promise<number | undefined>>();
  for (const subscription of active) {
    const plan = onePlanOf(rule, subscription);
    if (!plan) continue;
    let limit = rule.quota?.limit;
    if (limit === undefined) {
      const key = `${plan.provider}\n${plan.plan_id}`;
      if (!catalog.has(key)) catalog.set(key, input.facts.planQuota(input.scope, plan.provider, plan.plan_id));
      limit = await catalog.get(key);
    }
    if (limit === undefined) throw new Error(`no quota: the rule has no quota.limit and the catalog plan ${plan.plan_id} has no quota metadata`);
    checks.push({ subscription, period: currentBillingPeriod(subscription.periodStart, subscription.periodEnd, input.now), limit });
  }
  // Each subscription's usage in its own period (count, or sum of weight); a period not begun has none.
  const usage = await measureInOwnWindows(
    input,
    { entity: 'company', query: servedCalls(rule.quota?.query), measure: rule.quota?.metric === 'weight' ? 'sum_weight' : 'count' },
    checks.filter((check) => check.period.start.getTime() <= input.now.getTime()).map((check) => ({ id: check.subscription.companyId, window: check.period })),
  );
  return checks.map((check) => ({ ...check, used: usage(check.subscription.companyId, check.period)?.value ?? 0 }));
}

/**
 * The quota's events without the calls a rule blocked (the SDKs log those with `blocked_by`): a
 * refused call used nothing, and counting it would keep a company that calls while blocked over the
 * quota of the next period too.
 */
function servedCalls(query: Record<string, unknown> | undefined): Record<string, unknown> {
  return { bool: { ...(query ? { filter: [query] } : {}), must_not: [{ exists: { field: 'blocked_by' } }] } };
}
