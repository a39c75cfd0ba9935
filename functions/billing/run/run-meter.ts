import { PROVIDER_PARAMS_FIELD, PROVIDER_PARAMS_SCHEMAS, type ProviderName } from '../../../schemas/billing/provider-params';
import type { RoundingMode } from '../../../values/decimal';
import { reportingPeriodMs } from '../../../values/reporting-period';

/**
 * A stored billing meter as the billing run uses it: its query, its metric, its reporting period,
 * its provider and params, and the plan/price ids that attribute company usage to a subscription.
 */

export type MeterMetric =
  | { readonly type: 'sum'; readonly field: string; readonly missing?: number }
  | { readonly type: 'value_count'; readonly field: string }
  | { readonly type: 'cardinality'; readonly field: string };

export interface RunMeter {
  readonly id: string;
  readonly name: string;
  readonly provider: ProviderName;
  /** The provider's params (`billing_plan.params.<provider>_params`), as stored. */
  readonly params: Record<string, unknown>;
  /** The meter's search body without its aggregations. */
  readonly body: Record<string, unknown>;
  readonly metric: MeterMetric;
  /** The aggregation as the es_query named it (reports' usage.aggregator). */
  readonly aggregator: string;
  /** True when the query names `{{company_id}}` / `{{subscription_id}}`: evaluated once per subscription. */
  readonly perSubscription: boolean;
  readonly periodMs: number;
  /** The grace period the meter's plan sets (`grace_period_minutes`), if it sets one. */
  readonly graceMs?: number;
  readonly multiplier: number;
  readonly rounding: RoundingMode;
  /** Plan and price ids the meter bills (see attributionIds). */
  readonly billedIds: ReadonlySet<string>;
  /** Catalog plan of webhook / custom plans (for amounts). */
  readonly catalogPlanId?: string;
  readonly createdAt: Date;
}

/** The default metric: the weighted event count (sampled events weigh 1 / sample rate; actions have no weight and count 1). */
export const WEIGHTED_COUNT: MeterMetric = { type: 'sum', field: 'weight', missing: 1 };
const DEFAULT_PERIOD = '1h';
const PLACEHOLDER = /\{\{(company_id|subscription_id)\}\}/;
/** Provider-param fields that name a plan or price the subscription's items may carry. */
const ID_FIELDS = ['plan_id', 'price_id', 'item_price_id', 'add_on_id', 'add_on_code', 'charge_number', 'subscription_item_id', 'product_id'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The run's view of a stored meter, or a reason it cannot be billed (reported in the run summary, never thrown). */
export function runMeterOf(stored: Record<string, unknown>): RunMeter | { error: string; id: string } {
  const id = String(stored['_id'] ?? stored['id'] ?? '');
  try {
    const plan = isObject(stored['billing_plan']) ? stored['billing_plan'] : {};
    const provider = plan['provider_slug'] as ProviderName;
    if (!(provider in PROVIDER_PARAMS_FIELD)) throw new Error(`unknown provider ${String(provider)}`);
    const allParams = isObject(plan['params']) ? plan['params'] : {};
    const rawParams = allParams[PROVIDER_PARAMS_FIELD[provider]];
    const parsed = PROVIDER_PARAMS_SCHEMAS[provider].safeParse(rawParams ?? {});
    if (!parsed.success)
      throw new Error(
        `billing_plan.params.${PROVIDER_PARAMS_FIELD[provider]} is not usable: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
      );
    const params = parsed.data as Record<string, unknown>;
    const text = typeof stored['es_query'] === 'string' ? stored['es_query'] : JSON.stringify(stored['es_query'] ?? {});
    const query = JSON.parse(text) as Record<string, unknown>;
    const { aggs, aggregations, size: _size, from: _from, sort: _sort, ...body } = query;
    const { metric, aggregator } = metricOf(isObject(aggs) ? aggs : isObject(aggregations) ? aggregations : undefined);
    const reporting = isObject(params['reporting']) ? params['reporting'] : {};
    const period =
      typeof reporting['reporting_period'] === 'string'
        ? reporting['reporting_period']
        : typeof allParams['reporting_period'] === 'string'
          ? allParams['reporting_period']
          : DEFAULT_PERIOD;
    const customPlan = isObject(params['custom_plan']) ? params['custom_plan'] : undefined;
    return {
      id,
      name: String(stored['name'] ?? id),
      provider,
      params,
      body,
      metric,
      aggregator,
      perSubscription: PLACEHOLDER.test(text),
      periodMs: reportingPeriodMs(period),
      ...(typeof allParams['grace_period_minutes'] === 'number' ? { graceMs: allParams['grace_period_minutes'] * 60_000 } : {}),
      multiplier: typeof allParams['usage_multiplier'] === 'number' ? allParams['usage_multiplier'] : 1,
      rounding: (allParams['usage_rounding_mode'] as RoundingMode | undefined) ?? 'nearest',
      billedIds: attributionIds(params),
      ...(customPlan && typeof customPlan['plan_id'] === 'string' ? { catalogPlanId: customPlan['plan_id'] } : {}),
      createdAt: new Date(String(stored['created_at'] ?? new Date(0).toISOString())),
    };
  } catch (error) {
    return { id, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The ids a subscription item must carry (as plan_id, price_id or subscription_item_id) for company
 * usage to go to it: `custom_plan.plan_id` and every plan/price-like field of the provider params
 * (plan_id, price_id, item_price_id, add_on_id, add_on_code, charge_number, subscription_item_id,
 * product_id), one level deep. An empty set means "any active subscription of the company".
 */
export function attributionIds(params: Record<string, unknown>): Set<string> {
  const ids = new Set<string>();
  const collect = (object: Record<string, unknown>) => {
    for (const field of ID_FIELDS) {
      const value = object[field];
      if (typeof value === 'string' && value !== '') ids.add(field === 'add_on_id' && value.startsWith('code-') ? value.slice(5) : value);
    }
  };
  collect(params);
  for (const value of Object.values(params)) if (isObject(value)) collect(value);
  return ids;
}

/** The meter's own single metric aggregation (sum, value_count, cardinality), else the weighted count. */
function metricOf(aggs: Record<string, unknown> | undefined): { metric: MeterMetric; aggregator: string } {
  for (const definition of Object.values(aggs ?? {})) {
    if (!isObject(definition)) continue;
    for (const type of ['sum', 'value_count', 'cardinality'] as const) {
      const spec = definition[type];
      if (isObject(spec) && typeof spec['field'] === 'string') {
        const missing = typeof spec['missing'] === 'number' ? spec['missing'] : undefined;
        return {
          metric: type === 'sum' ? { type, field: spec['field'], ...(missing !== undefined ? { missing } : {}) } : { type, field: spec['field'] },
          aggregator: type,
        };
      }
    }
  }
  return { metric: WEIGHTED_COUNT, aggregator: 'sum' };
}

/** The query with placeholders filled for one subscription (values JSON-escaped). */
export function substitutePlaceholders(body: Record<string, unknown>, values: { companyId: string; subscriptionId: string }): Record<string, unknown> {
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(/\{\{company_id\}\}/g, values.companyId).replace(/\{\{subscription_id\}\}/g, values.subscriptionId);
    if (Array.isArray(value)) return value.map(fill);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  return fill(body) as Record<string, unknown>;
}
