import type { BillingReport } from '../../../schemas/billing/report';
import type { UsageWindow } from '../../../values/reporting-period';
import type { WindowReports } from '../reports/report-store';
import type { PeriodTotal } from './run-state-store';
import type { WindowUsage } from './window-usage';
import type { BillingRunDeps, BillingRunHooks, BillingRunInput, BillingRunSettings } from './billing-run-types';
import type { BalanceProbe } from './balance-probe';
import type { RunMeter } from './run-meter';
import type { SubscriptionDirectory } from './subscription-directory';
import type { ReportTenant } from '../reports/report-store';

/** What a meter's run is given, and the shapes its windows pass through: queried, built, committed. */

export interface WindowToBuild {
  readonly window: UsageWindow;
  /** The window's committed group, when it is being re-evaluated (a correction). */
  readonly previous: WindowReports | undefined;
  readonly usage: Promise<{ startedAt: Date; usage: WindowUsage }>;
}

/** Windows built and not yet committed: their reports, and the period totals after them. */
export interface BuiltWindows {
  readonly groups: readonly { window: UsageWindow; previous: WindowReports | undefined; reports: BillingReport[]; evaluatedAt: Date }[];
  readonly totals: Map<string, PeriodTotal>;
  /** Reports that are new or changed. */
  readonly changed: number;
  readonly unattributed: number;
}

/** The run's tallies (BillingRunSummary), added to by every meter. */
export type RunCounters = {
  -readonly [K in 'meters' | 'windowsEvaluated' | 'corrections' | 'reportsWritten' | 'delivered' | 'retrying' | 'failed' | 'unattributed' | 'queryMs']: number;
};

/** What one meter's run is given by the billing run. */
export interface MeterRunContext {
  readonly deps: BillingRunDeps;
  readonly settings: BillingRunSettings;
  readonly hooks: BillingRunHooks;
  readonly input: BillingRunInput;
  readonly tenant: ReportTenant;
  readonly meter: RunMeter;
  readonly directory: SubscriptionDirectory;
  readonly balances: BalanceProbe;
  /** The run's tallies, shared by its meters. */
  readonly counters: RunCounters;
  /** Epoch ms after which no new window is started. */
  readonly deadline: number;
  readonly clock: () => Date;
}
