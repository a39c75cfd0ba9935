import { PlanSelect, PriceChecklist } from '../../../components/catalog-pickers';
import { Field } from '../../../components/field';
import type { GovernanceRuleInput, StoredGovernanceRule } from '../api/governance-rules';

export type RuleModel = NonNullable<GovernanceRuleInput['model']>;
interface PlanRow {
  /** The catalog plan's provider (its quota metadata is looked up by provider and id). */
  readonly provider: string;
  readonly planId: string;
  /** None: any price of the plan. */
  readonly priceIds: readonly string[];
}

/** The editor's state for plans and billing models. */
export interface BillingFields {
  readonly model: RuleModel;
  readonly plans: PlanRow[];
  readonly quotaLimit: string;
  readonly quotaMetric: 'count' | 'weight';
  /** An events query as JSON text; empty: every event of the company. */
  readonly quotaQuery: string;
  /** Send no response, so SDKs get the model's default (429 with limit and reset headers, or 402). */
  readonly defaultResponse: boolean;
}

export function billingFieldsOf(rule: StoredGovernanceRule | undefined): BillingFields {
  return {
    model: rule?.model ?? 'cohort',
    plans: (rule?.plans ?? []).map((plan) => ({ provider: plan.provider, planId: plan.plan_id, priceIds: plan.price_ids })),
    quotaLimit: rule?.quota?.limit === undefined ? '' : String(rule.quota.limit),
    quotaMetric: rule?.quota?.metric ?? 'count',
    quotaQuery: rule?.quota?.query === undefined ? '' : JSON.stringify(rule.quota.query, null, 2),
    // A new rule starts with the model's default, which carries X-RateLimit-* and Retry-After for a quota.
    defaultResponse: rule === undefined || ((rule.model ?? 'cohort') !== 'cohort' && Object.keys(rule.response ?? {}).length === 0),
  };
}

/** The rule's plan and quota members from the editor's state; a message (for `quota.query`) when its query is not JSON. */
export function billingInput(fields: BillingFields): Pick<GovernanceRuleInput, 'model' | 'plans' | 'quota'> | string {
  const plans = fields.plans.map((row) => ({
    provider: row.provider.trim(),
    plan_id: row.planId.trim(),
    price_ids: [...row.priceIds],
  }));
  if (fields.model !== 'quota') return { model: fields.model, plans };
  let query: Record<string, unknown> | undefined;
  if (fields.quotaQuery.trim() !== '') {
    try {
      query = JSON.parse(fields.quotaQuery) as Record<string, unknown>;
    } catch (error) {
      return `not valid JSON: ${(error as Error).message}`;
    }
  }
  const limit = fields.quotaLimit.trim() === '' ? undefined : Number(fields.quotaLimit);
  return {
    model: 'quota',
    plans,
    quota: { metric: fields.quotaMetric, ...(limit === undefined ? {} : { limit }), ...(query === undefined ? {} : { query }) },
  };
}

const MODELS: readonly [RuleModel, string][] = [
  ['cohort', 'members of its cohorts (and plans, if any)'],
  ['quota', 'subscribers over their quota this billing period'],
  ['balance', 'subscribers whose prepaid balance is used up'],
  ['subscription', 'subscribers whose subscription is inactive or cancelled'],
  ['spend_cap', 'customers whose bill reached the spend cap they set (plans optional)'],
];

/** Which subscribers a user or company rule hits: its plans, and a billing model with its quota. */
export function RuleBillingFields({
  fields,
  onChange,
  problem,
}: {
  fields: BillingFields;
  onChange: (fields: BillingFields) => void;
  problem: (field: string) => string | undefined;
}) {
  const set = (change: Partial<BillingFields>) => onChange({ ...fields, ...change });
  const setPlan = (index: number, row: PlanRow) => set({ plans: fields.plans.map((plan, i) => (i === index ? row : plan)) });
  return (
    <fieldset>
      <legend>Plans and quotas</legend>
      <Field label="Hits" problem={problem('model')}>
        <select name="rule_model" value={fields.model} onChange={(e) => set({ model: e.target.value as RuleModel })}>
          {MODELS.map(([model, label]) => (
            <option key={model} value={model}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      {fields.plans.map((row, i) => (
        <div className="inline-form" key={i}>
          <Field label={`Plan ${i + 1}`} problem={problem(`plans[${i}].plan_id`) ?? problem(`plans[${i}].provider`)}>
            <PlanSelect
              name={`rule_plan_${i}`}
              value={row.planId}
              emptyLabel="(pick a plan)"
              onChange={(plan) => setPlan(i, { provider: plan?.provider ?? row.provider, planId: plan?.id ?? '', priceIds: [] })}
            />
          </Field>
          <PriceChecklist
            label={`Prices of plan ${i + 1} (none ticked: any)`}
            planId={row.planId}
            selected={row.priceIds}
            onChange={(priceIds) => setPlan(i, { ...row, priceIds })}
          />
          <button type="button" className="secondary" onClick={() => set({ plans: fields.plans.filter((_, j) => j !== i) })}>
            Remove plan {i + 1}
          </button>
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => set({ plans: [...fields.plans, { provider: 'webhook', planId: '', priceIds: [] }] })}>
        Add a plan
      </button>
      {problem('plans') && (
        <p className="field-problem" role="alert">
          {problem('plans')}
        </p>
      )}
      {fields.model === 'quota' && (
        <div className="inline-form">
          <Field label="Quota per billing period (empty: the catalog plan's quota metadata)" problem={problem('quota.limit')}>
            <input name="quota_limit" inputMode="decimal" value={fields.quotaLimit} onChange={(e) => set({ quotaLimit: e.target.value })} size={10} />
          </Field>
          <Field label="Counts" problem={problem('quota.metric')}>
            <select name="quota_metric" value={fields.quotaMetric} onChange={(e) => set({ quotaMetric: e.target.value as 'count' | 'weight' })}>
              <option value="count">events</option>
              <option value="weight">the sum of their weight</option>
            </select>
          </Field>
          <Field label="Of events matching (a search query as JSON; empty: all)" problem={problem('quota.query')}>
            <textarea name="quota_query" value={fields.quotaQuery} onChange={(e) => set({ quotaQuery: e.target.value })} rows={2} />
          </Field>
        </div>
      )}
      {fields.model !== 'cohort' && (
        <label className="toggle">
          <input type="checkbox" name="default_response" checked={fields.defaultResponse} onChange={(e) => set({ defaultResponse: e.target.checked })} /> Answer
          with the model's default ({fields.model === 'quota' ? '429 with the limit and reset time' : '402'})
        </label>
      )}
    </fieldset>
  );
}
