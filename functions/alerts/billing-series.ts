import type { StoredRule } from '../../schemas/governance';
import type { AlertMetricType } from '../../schemas/resources/alert-rule';
import { ACTIVE_SUBSCRIPTION_STATUSES } from '../cohorts/subscription-periods';
import { onePlanOf, quotaUsage, type BillingFacts } from '../governance/plan-selection';
import { modelOf } from '../governance/rule-model';
import type { SearchableIndex, TenantScope } from '../search/port';
import { judge, readSeries, type AlertRuleShape, type SeriesReading } from './alert-metrics';

/**
 * Billing alerts: their series come from subscriptions, not from a search of events.
 *   quota_used_percent  per company on a quota rule's plans: usage this billing period as a
 *                       percentage of the quota (80 and 100 are the usual thresholds)
 *   balance_available   per subscription with a prepaid balance: what is left
 *   spend_cap_used_percent  per company that set itself a spend cap: its bill so far this period as
 *                       a percentage of its budget, judged against the customer's own warning
 *                       threshold (warn_at_percent), else the rule's
 *   reconciliation_drift  per meter and subscription the last reconciliation found drift for: how
 *                       far the provider's usage is from what was reported (absolute)
 */

export const BILLING_METRICS: ReadonlySet<AlertMetricType> = new Set([
  'quota_used_percent',
  'balance_available',
  'spend_cap_used_percent',
  'reconciliation_drift',
]);
export const isBillingMetric = (metric: AlertMetricType) => BILLING_METRICS.has(metric);

export interface BillingSeriesDeps {
  readonly index: SearchableIndex;
  readonly billing: BillingFacts;
  /** The app's enabled governance rules (a quota alert names one). */
  readonly governanceRules: (orgId: string, appId: string) => Promise<StoredRule[]>;
  /** The drift the app's last reconciliations found: `<meter id>/<subscription id>` → |difference|. */
  readonly reconciliationDrift: (scope: TenantScope) => Promise<ReadonlyMap<string, number>>;
}

export type AlertSeriesRule = AlertRuleShape & { readonly quota_rule_id?: string | undefined };

/** Each series' reading for the window ending at `end`: from the events index, or from billing for billing metrics. */
export async function readAlertSeries(
  deps: BillingSeriesDeps,
  scope: TenantScope,
  rule: AlertSeriesRule,
  end: Date,
  now: Date,
): Promise<Map<string, SeriesReading>> {
  if (!isBillingMetric(rule.metric)) return readSeries(deps.index, scope, rule, end, now);
  const condition = rule.condition;
  // Billing metrics have no past to compare with: the management API accepts fixed thresholds only.
  const threshold = condition.type === 'static' ? condition.threshold : null;
  if (rule.metric === 'spend_cap_used_percent') {
    const caps = await deps.billing.spendCaps(scope, now);
    return new Map(
      caps.map((cap) => {
        const own = cap.warn_at_percent ?? threshold;
        // At the threshold counts: a customer warned "at 80 %" hears it when 80 % is reached.
        const breaching = own === null ? null : cap.used_percent >= own;
        return [cap.company_id, { value: cap.used_percent, threshold: own, breaching }];
      }),
    );
  }
  const values =
    rule.metric === 'quota_used_percent'
      ? await quotaPercents(deps, scope, rule, now)
      : rule.metric === 'reconciliation_drift'
        ? await deps.reconciliationDrift(scope)
        : await balances(deps, scope, now);
  return new Map([...values].map(([series, value]) => [series, { value, threshold, breaching: judge(condition, value, threshold) }]));
}

/** A company with several subscriptions on the plans reads as its least used one (it is blocked only when all are over). */
async function quotaPercents(deps: BillingSeriesDeps, scope: TenantScope, rule: AlertSeriesRule, now: Date): Promise<Map<string, number>> {
  const quotaRule = (await deps.governanceRules(scope.org_id, scope.app_id)).find((r) => r._id === rule.quota_rule_id);
  if (!quotaRule || modelOf(quotaRule) !== 'quota') throw new Error(`quota_rule_id ${rule.quota_rule_id ?? ''} is not an enabled quota rule of this app`);
  const active = (await deps.billing.subscriptions(scope, now)).filter((s) => ACTIVE_SUBSCRIPTION_STATUSES.has(s.status) && onePlanOf(quotaRule, s));
  const percents = new Map<string, number>();
  for (const { subscription, limit, used } of await quotaUsage({ index: deps.index, scope, timeZone: 'UTC', now, facts: deps.billing }, quotaRule, active)) {
    const percent = (used / limit) * 100;
    const known = percents.get(subscription.companyId);
    percents.set(subscription.companyId, known === undefined ? percent : Math.min(known, percent));
  }
  return percents;
}

async function balances(deps: BillingSeriesDeps, scope: TenantScope, now: Date): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const subscription of await deps.billing.subscriptions(scope, now)) {
    if (!ACTIVE_SUBSCRIPTION_STATUSES.has(subscription.status)) continue;
    const available = await deps.billing.availableBalance(scope, subscription.subscriptionId);
    if (available !== undefined) found.set(subscription.subscriptionId, Number(available));
  }
  return found;
}
