import type { PriceTerms } from '../../../schemas/billing/catalog';
import type { PriceSimulation, PriceSimulationRequest, SimulatedSubscription } from '../../../schemas/billing/price-simulation';
import { Decimal } from '../../../values/decimal';
import { appRulesPartition, COHORT_SORT_PREFIX } from '../../resources/keys';
import { cohortMemberInput, CohortUnavailable, forEachCohortMember, type CohortDefinition, type CohortSources } from '../../cohorts/cohort-members';
import type { ResourceStore } from '../../resources/resource-store';
import type { SearchableIndex } from '../../search/port';
import type { FieldIssue } from '../../shared/errors';
import { invalidInput } from '../../shared/invalid-input';
import { billableMeter } from '../completeness/lateness';
import { priceAmount } from '../pricing/price-amount';
import { subscriptionReportKey } from '../reports/report-id';
import { catalogPrice, loadMeterPricing } from '../run/meter-pricing';
import type { ClosedPeriodTotal, PeriodTotal } from '../run/run-state-store';
import { SubscriptionDirectory, type KnownSubscription } from '../run/subscription-directory';

/**
 * A meter's past usage priced under another catalog price: per subscription, each billing period
 * that ended within the range, with the usage the run reported for it (late corrections included),
 * the amount it was billed (its catalog price, as the customer page and invoices price it) and the
 * amount under the price tried. Both are one computation (pricing/price-amount.ts: exact tiers, the
 * period total rounded once to the currency), so simulating a subscription's own price reproduces
 * what it was billed to the cent.
 */

const MAX_RANGE_DAYS = 400;
/** Where the app's cohorts are kept: their sort-key prefix without its `#`. */
const COHORT_PREFIX = COHORT_SORT_PREFIX.slice(0, -1);
const DAY_MS = 86_400_000;

export interface SimulationDeps {
  readonly index: SearchableIndex;
  /** What computing a cohort's members reads (a cohort as the scope). */
  readonly cohortSources: CohortSources;
  readonly resources: ResourceStore;
  /** The run's reported period totals of these report keys, per meter id (run state). */
  readonly reportedTotals: (tenant: SimulationTenant) => { of(reportKeys: readonly string[]): Promise<ReadonlyMap<string, ReadonlyMap<string, PeriodTotal>>> };
  readonly now: () => Date;
}

export interface SimulationTenant {
  readonly orgId: string;
  readonly appId: string;
}

/** The price tried, from the catalog: any status (a draft price need not be live). */
async function triedPrice(resources: ResourceStore, tenant: SimulationTenant, priceId: string): Promise<PriceTerms> {
  const price = await catalogPrice(resources, tenant, priceId);
  if (!price) throw invalidInput('simulation', [{ field: 'price_id', reason: 'is no price of the catalog' }]);
  return price;
}

function rangeOf(request: PriceSimulationRequest, now: Date): { from: Date; to: Date } {
  const from = new Date(request.from);
  const to = new Date(request.to);
  const issues: FieldIssue[] = [];
  if (to.getTime() <= from.getTime()) issues.push({ field: 'to', reason: 'must be after from' });
  if (to.getTime() > now.getTime()) issues.push({ field: 'to', reason: 'is in the future: a simulation prices periods that have ended' });
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) issues.push({ field: 'from', reason: `reaches more than ${MAX_RANGE_DAYS} days before to` });
  if (request.company_id !== undefined && request.plan_id !== undefined)
    issues.push({ field: 'plan_id', reason: 'goes without company_id: one scope at a time' });
  if (issues.length > 0) throw invalidInput('simulation', issues);
  return { from, to };
}

/** At most this many companies a cohort scope holds. */
const MAX_COHORT_COMPANIES = 100_000;

/** The companies a cohort holds now: its members, or for a user cohort its members' companies. */
async function companiesOfCohort(deps: SimulationDeps, tenant: SimulationTenant, cohortId: string, now: Date): Promise<Set<string>> {
  const stored = await deps.resources.find({ partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: COHORT_PREFIX }, cohortId);
  if (!stored) throw invalidInput('simulation', [{ field: 'cohort_id', reason: 'is no cohort of the app' }]);
  const cohort = stored as unknown as CohortDefinition;
  const input = await cohortMemberInput(deps.cohortSources, { org_id: tenant.orgId, app_id: tenant.appId }, now, MAX_COHORT_COMPANIES);
  const companies = new Set<string>();
  try {
    await forEachCohortMember(input, cohort, cohort.cohort_type === 'user' ? ['company_id'] : [], (id, source) => {
      const company = cohort.cohort_type === 'company' ? id : source['company_id'];
      if (typeof company === 'string' && company !== '') companies.add(company);
    });
  } catch (error) {
    if (error instanceof CohortUnavailable) throw invalidInput('simulation', [{ field: 'cohort_id', reason: `cannot be computed: ${error.message}` }]);
    throw error;
  }
  return companies;
}

const onPlan = (subscription: KnownSubscription, planId: string) => subscription.items.some((item) => item.plan_id === planId);

export async function simulatePrice(deps: SimulationDeps, tenant: SimulationTenant, request: PriceSimulationRequest): Promise<PriceSimulation> {
  const now = deps.now();
  const { from, to } = rangeOf(request, now);
  const meter = await billableMeter(deps.resources, tenant, request.billing_meter_id);
  const [pricing, tried] = await Promise.all([
    loadMeterPricing(deps.resources, tenant, meter.catalogPlanId),
    triedPrice(deps.resources, tenant, request.price_id),
  ]);
  if (!pricing)
    throw invalidInput('simulation', [
      { field: 'billing_meter_id', reason: 'names a meter without a catalog plan and price: nothing was billed to compare with' },
    ]);
  const scope = { org_id: tenant.orgId, app_id: tenant.appId };
  const directory = await SubscriptionDirectory.load(deps.index, scope, now, request.company_id ? { term: { company_id: request.company_id } } : undefined);
  const cohortCompanies = request.cohort_id === undefined ? undefined : await companiesOfCohort(deps, tenant, request.cohort_id, now);
  const subscriptions = [...directory.subscriptions.values()].filter(
    (s) =>
      (request.company_id === undefined || s.companyId === request.company_id) &&
      (request.plan_id === undefined || onPlan(s, request.plan_id)) &&
      (cohortCompanies === undefined || cohortCompanies.has(s.companyId)),
  );
  const totals = (await deps.reportedTotals(tenant).of(subscriptions.map((s) => subscriptionReportKey(s.subscriptionId)))).get(meter.id);

  const rows: SimulatedSubscription[] = [];
  const otherCurrency: string[] = [];
  for (const subscription of subscriptions) {
    const total = totals?.get(subscriptionReportKey(subscription.subscriptionId));
    if (!total) continue;
    const closed: ClosedPeriodTotal[] = [...(Date.parse(total.periodEnd) <= now.getTime() ? [total] : []), ...(total.earlier ?? [])];
    const inRange = closed.filter((p) => Date.parse(p.periodStart) >= from.getTime() && Date.parse(p.periodEnd) <= to.getTime());
    if (inRange.length === 0) continue;
    const current = pricing.priceFor(subscription);
    if (!current) continue;
    if (current.currency !== tried.currency) {
      otherCurrency.push(subscription.subscriptionId);
      continue;
    }
    const periods = inRange
      .map((p) => ({
        period_start: p.periodStart,
        period_end: p.periodEnd,
        usage: p.usage,
        current_amount: priceAmount(current, BigInt(p.usage)).amount.toString(),
        simulated_amount: priceAmount(tried, BigInt(p.usage)).amount.toString(),
      }))
      .sort((a, b) => a.period_start.localeCompare(b.period_start));
    const currentAmount = Decimal.sum(periods.map((p) => Decimal.from(p.current_amount)));
    const simulatedAmount = Decimal.sum(periods.map((p) => Decimal.from(p.simulated_amount)));
    rows.push({
      subscription_id: subscription.subscriptionId,
      company_id: subscription.companyId,
      periods,
      usage: periods.reduce((sum, p) => sum + p.usage, 0),
      current_amount: currentAmount.toString(),
      simulated_amount: simulatedAmount.toString(),
      difference: simulatedAmount.minus(currentAmount).toString(),
    });
  }
  const size = (text: string) => {
    const value = Decimal.from(text);
    return value.isNegative() ? value.negated() : value;
  };
  rows.sort((a, b) => size(b.difference).compare(size(a.difference)) || a.subscription_id.localeCompare(b.subscription_id));
  const sum = (pick: (row: SimulatedSubscription) => string) => Decimal.sum(rows.map((row) => Decimal.from(pick(row))));
  return {
    billing_meter_id: meter.id,
    price_id: request.price_id,
    currency: tried.currency,
    from: from.toISOString(),
    to: to.toISOString(),
    subscriptions: rows,
    totals: {
      usage: rows.reduce((total, row) => total + row.usage, 0),
      current_amount: sum((row) => row.current_amount).toString(),
      simulated_amount: sum((row) => row.simulated_amount).toString(),
      difference: sum((row) => row.difference).toString(),
    },
    other_currency: otherCurrency,
  };
}
