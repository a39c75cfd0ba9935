import type { CustomerUsage } from '../../../schemas/billing/customer-usage';
import type { SpendCap, SpendCapStanding } from '../../../schemas/resources/spend-cap';
import { Decimal } from '../../../values/decimal';
import type { ReportTenant } from '../../billing/reports/report-store';
import { mapWithConcurrency } from '../../shared/concurrency';
import { customerUsage, type CustomerUsageDeps } from '../usage/customer-usage';
import type { SpendCapStore } from './spend-cap-store';

/** Customers' usage computed at once when every cap of an app is checked. */
const CAPS_IN_FLIGHT = 4;

/** Where a customer stands against its cap: its bill so far this period in the cap's currency. */
export function standingOf(cap: SpendCap, usage: CustomerUsage): SpendCapStanding {
  const spent = Decimal.from(usage.totals.find((total) => total.currency === cap.currency)?.amount ?? '0');
  const budget = Decimal.from(cap.budget);
  const usedPercent = Math.round((Number(spent.toString()) / Number(budget.toString())) * 10_000) / 100;
  const ends = usage.subscriptions.filter((s) => !s.period.closed).map((s) => s.period.end);
  return {
    ...cap,
    spent: spent.toString(),
    used_percent: usedPercent,
    period_end: ends.length === 0 ? null : ends.sort()[0]!,
    warning: cap.warn_at_percent !== undefined && usedPercent >= cap.warn_at_percent,
    capped: cap.hard_cap && spent.compare(budget) >= 0,
  };
}

export interface SpendCapDeps extends CustomerUsageDeps {
  readonly caps: SpendCapStore;
}

/** Every capped customer of an app and where it stands now (what alerts and governance read). */
export async function spendCapStandings(deps: SpendCapDeps, tenant: ReportTenant, now: Date): Promise<SpendCapStanding[]> {
  const caps = await deps.caps.all(tenant.orgId, tenant.appId);
  return mapWithConcurrency(caps, CAPS_IN_FLIGHT, async (cap) => standingOf(cap, await customerUsage(deps, { tenant, companyId: cap.company_id, now })));
}
