import { activeMeters } from '../../billing/run/billing-run';
import type { RunMeter } from '../../billing/run/run-meter';
import { BILLABLE_STATUSES, SubscriptionDirectory, type KnownSubscription } from '../../billing/run/subscription-directory';
import type { ResourceStore } from '../../resources/resource-store';
import type { SearchableIndex } from '../../search/port';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { customerPeriod, type CustomerPeriod } from './customer-period';
import type { QuantityAsk } from './window-quantities';

/**
 * Which lines a customer's usage has, as the billing run assigns usage: its subscriptions (one, when
 * a token or request narrows to it), the period each is shown for, and per meter and subscription the
 * events the run bills to it. The usage page measures these lines; a statement lists their events.
 */

export interface CustomerLines {
  /** The company's subscriptions (narrowed to the one asked for). */
  readonly own: KnownSubscription[];
  /** Those with a period shown (billable ones), and each one's period. */
  readonly billable: KnownSubscription[];
  readonly periods: ReadonlyMap<string, CustomerPeriod>;
  readonly asks: QuantityAsk[];
}

export function customerLines(
  directory: SubscriptionDirectory,
  meters: readonly RunMeter[],
  input: { readonly companyId: string; readonly subscriptionId?: string; readonly periodStart?: Date; readonly now: Date },
): CustomerLines {
  const { companyId } = input;
  const own = [...directory.subscriptions.values()].filter(
    (s) => s.companyId === companyId && (input.subscriptionId === undefined || s.subscriptionId === input.subscriptionId),
  );
  if (input.subscriptionId !== undefined && own.length === 0) throw new NotFoundError(`The company ${companyId} has no subscription ${input.subscriptionId}`);
  const periods = new Map<string, CustomerPeriod>();
  for (const s of own) {
    const period = BILLABLE_STATUSES.has(s.status) ? customerPeriod(s, input.now, input.periodStart) : undefined;
    if (period) periods.set(s.subscriptionId, period);
  }
  if (input.periodStart !== undefined && periods.size === 0 && own.some((s) => BILLABLE_STATUSES.has(s.status)))
    throw new ValidationError('Invalid period_start: no billing period of the customer starts then', [
      { field: 'period_start', reason: "is neither a subscription's period start nor the first of a UTC month" },
    ]);
  const billable = own.filter((s) => periods.has(s.subscriptionId));
  const asks: QuantityAsk[] = [];
  for (const meter of meters) {
    const chosen = directory.forCompany(companyId, meter.billedIds);
    // A per-subscription (placeholder) meter is evaluated only for the subscriptions carrying its ids.
    const evaluated = meter.perSubscription ? new Set(directory.billableFor(meter.billedIds).map((s) => s.subscriptionId)) : undefined;
    for (const subscription of billable) {
      if (evaluated && !evaluated.has(subscription.subscriptionId)) continue;
      asks.push({
        meter,
        subscription,
        companyAttributed: chosen?.subscriptionId === subscription.subscriptionId,
        period: periods.get(subscription.subscriptionId)!,
      });
    }
  }
  return { own, billable, periods, asks };
}

/** The meters the billing run bills (those it cannot are left out: the run reports them, the customer does not). */
export async function billableMeters(resources: ResourceStore, tenant: { readonly orgId: string; readonly appId: string }): Promise<RunMeter[]> {
  const all = await activeMeters({ resources }, tenant);
  return all.filter((meter): meter is RunMeter => !('error' in meter));
}

/** The company's subscriptions, loaded with the meters: what customerLines needs. */
export async function loadCustomerLines(
  deps: { readonly index: SearchableIndex; readonly resources: ResourceStore },
  input: {
    readonly tenant: { readonly orgId: string; readonly appId: string };
    readonly companyId: string;
    readonly subscriptionId?: string;
    readonly periodStart?: Date;
    readonly now: Date;
  },
): Promise<CustomerLines> {
  const scope = { org_id: input.tenant.orgId, app_id: input.tenant.appId };
  const [directory, meters] = await Promise.all([
    SubscriptionDirectory.load(deps.index, scope, input.now, { term: { company_id: input.companyId } }),
    billableMeters(deps.resources, input.tenant),
  ]);
  return customerLines(directory, meters, input);
}
