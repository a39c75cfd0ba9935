import type { BillingReport } from '../../../schemas/billing/report';
import { Decimal } from '../../../values/decimal';
import { mapWithConcurrency } from '../../shared/concurrency';
import { creditBalanceJson } from '../balances/balance-json';
import { type DeliveryDeps, isOpen } from './deliver-reports';

/**
 * Draws the open reports' amounts from balances (once per report version); call before delivering,
 * one window after the other, so balances move in window order.
 */
export async function drawBalances(deps: DeliveryDeps, reports: readonly BillingReport[]): Promise<BillingReport[]> {
  // Most subscriptions have no balance, and once their company was probed that is known without a wait.
  const toDraw = reports.filter(
    (report) =>
      isOpen(report) &&
      deps.ledger &&
      report.company_id !== null &&
      report.subscription_id !== null &&
      deps.balances.mayHave(report.company_id, report.subscription_id),
  );
  if (toDraw.length === 0) return [...reports];
  const drawn = new Map(
    await mapWithConcurrency(
      toDraw,
      deps.concurrency,
      async (report) => [report, await drawBalance(deps, report, report.versions[report.versions.length - 1]?.amount_exact)] as const,
    ),
  );
  return reports.map((report) => drawn.get(report) ?? report);
}

async function drawBalance(deps: DeliveryDeps, report: BillingReport, amountExact: string | undefined): Promise<BillingReport> {
  if (!deps.ledger || amountExact === undefined || report.subscription_id === null || report.company_id === null) return report;
  if (!(await deps.balances.has(report.company_id, report.subscription_id))) return report;
  const result = await deps.ledger.drawUsage(deps.tenant, {
    companyId: report.company_id,
    subscriptionId: report.subscription_id,
    reportKey: report._id,
    reportVersion: report.report_version,
    amount: Decimal.from(amountExact),
  });
  return {
    ...report,
    beginning_balance: creditBalanceJson(result.beginning),
    ending_balance: creditBalanceJson(result.ending),
    balance_changes: [...(report.balance_changes ?? []), ...result.balanceChanges.map((change) => ({ amount: change.amount.toNumber() }))],
  };
}
