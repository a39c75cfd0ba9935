import type { MeterWarningCode } from '../../../schemas/billing/meter-preview';
import type { ProviderName } from '../../../schemas/billing/provider-params';
import type { SearchableIndex } from '../../search/port';
import type { DeliveryChannel } from '../channels/channel-delivery';
import type { ClientOptions } from '../providers/client-options';
import type { ProviderClient } from '../providers/provider-port';
import type { ReportStore, ReportTenant } from '../reports/report-store';
import type { BalanceLedger } from '../balances/balance-ledger';
import type { LateWindowStore } from '../late-events/late-window-store';
import type { ResourceStore } from '../../resources/resource-store';
import type { BalanceProbe } from './balance-probe';
import type { RunStateStore } from './run-state-store';
import type { UsageWindow } from '../../../values/reporting-period';

/** What a billing run takes (dependencies, settings, test hooks) and reports, and its tuning constants. */

/** What a run reads and writes: the stores the composition root builds, the search index, provider clients. */
export interface BillingRunDeps {
  /** Report groups per (meter, window). */
  readonly reports: ReportStore;
  /** Meter cursors, leases and period totals. */
  readonly runState: RunStateStore;
  /** Windows that received late events (re-evaluated). */
  readonly lateWindows: LateWindowStore;
  /** Balances drawn by delivered usage. */
  readonly balances: BalanceLedger;
  /** Which subscriptions of an app have a balance (one probe per app and run). */
  readonly balanceProbe: (tenant: ReportTenant) => BalanceProbe;
  /** Meters, the price catalog and webhook channels (managed resources). */
  readonly resources: ResourceStore;
  readonly index: SearchableIndex;
  /** Apps to bill; default: every app that has a meter (a scan of the resources table for meters). */
  readonly tenants?: () => Promise<ReportTenant[]>;
  /** The client of an account's provider connection (Stripe, Chargebee, Recurly, Zuora), if configured. */
  readonly providerClient?: (tenant: ReportTenant, provider: Exclude<ProviderName, 'webhook'>) => ProviderClient<never> | undefined;
  /** Options of the webhook clients (retry policy, runtime, fetch, private targets). */
  readonly webhookOptions?: ClientOptions;
  /** The grace period observed for a meter that sets none (completeness); default: none, the minimum applies. */
  readonly observedGraceMs?: (tenant: ReportTenant, meterId: string) => Promise<number | undefined>;
  /** Channels by id (default: the channel resources of the app). */
  readonly channels?: (tenant: ReportTenant, ids: readonly string[], now: Date) => Promise<Map<string, DeliveryChannel>>;
}

/** How a run paces itself; every field has a default (below and in the modules named). */
export interface BillingRunSettings {
  /** How far back a new meter's first run starts (default 31 days before the meter was created). */
  readonly backfillMs?: number;
  /** Wait after a window closes before its first evaluation, for every meter (default: the meter's grace period, at least LATE_AFTER_MS + 1 min). */
  readonly settleMs?: number;
  /** Runs a report is sent in before it is marked failed (default MAX_DELIVERY_RUNS). */
  readonly maxDeliveryRuns?: number;
  /** Reports delivered at once per window (default 16). */
  readonly deliveryConcurrency?: number;
  /** Reports per webhook POST (default 500, see webhook-batch.ts); 1 sends one POST per report. */
  readonly webhookBatchSize?: number;
  /** Body bytes per webhook POST (default 100,000, see webhook-batch.ts). */
  readonly webhookBatchBytes?: number;
  /** A chunk of new windows committed together ends once its reports reach this many (default 20,000). */
  readonly reportsPerCommit?: number;
  /** Lease of a meter per run (default 15 min: longer than a Lambda run). */
  readonly leaseMs?: number;
}

/** Test hooks: a clock to fix, and faults that throw to simulate a crash at a point of the run. */
export interface BillingRunHooks {
  /** Wall clock, for evaluated_at (compared with late-event marks) and report timestamps. */
  readonly clock?: () => Date;
  readonly faults?: { afterWindowCommit?: (meterId: string, window: UsageWindow) => void; afterDelivery?: (meterId: string, window: UsageWindow) => void };
}

export interface BillingProgress {
  readonly tenant: ReportTenant;
  readonly meterId: string;
  readonly phase: 'window' | 'correction' | 'redelivery' | 'meter-done' | 'meter-skipped';
  readonly window?: UsageWindow;
  readonly reports?: number;
  readonly detail?: string;
}

export interface BillingRunSummary {
  readonly startedAt: string;
  readonly durationMs: number;
  /** False when the time budget ran out: the next run continues where this one stopped. */
  readonly complete: boolean;
  readonly meters: number;
  readonly windowsEvaluated: number;
  readonly corrections: number;
  readonly reportsWritten: number;
  readonly delivered: number;
  readonly retrying: number;
  readonly failed: number;
  readonly unattributed: number;
  readonly errors: { tenant: ReportTenant; meterId: string; message: string }[];
  /** Meters that bill nothing or leave usage unattributed for a reason of setup (meter-setup-warnings.ts). */
  readonly warnings: { tenant: ReportTenant; meterId: string; meterName: string; code: MeterWarningCode; message: string }[];
  /** Milliseconds spent in the usage aggregation queries (the run's bare search cost). */
  readonly queryMs: number;
}

export interface BillingRunInput {
  readonly now: Date;
  readonly deps: BillingRunDeps;
  readonly settings?: BillingRunSettings;
  readonly hooks?: BillingRunHooks;
  readonly timeBudgetMs?: number;
  readonly onProgress?: (progress: BillingProgress) => void;
}

export const LATE_LOOKBACK_MS = 31 * 86_400_000;
/** A meter's lease: longer than one Lambda run, renewed every chunk of windows. */
export const DEFAULT_LEASE_MS = 15 * 60_000;
/**
 * Usage queries of a meter's next windows in flight while earlier windows are built, committed and
 * delivered. A query waits on the busy event loop several times, so a few at once keep the search
 * backend working; six matches the local index's readers (docs/billing.md, Speed, has the measurements).
 */
export const QUERIES_AHEAD = 6;
/**
 * Committed windows of one meter queued for delivery while later windows are evaluated (each waits on
 * its receiver and its outcome commit; eight keep the run from waiting on them, at a few windows' memory).
 */
export const MAX_INFLIGHT_DELIVERIES = 8;
/** Consecutive new windows of a meter committed in one transaction (2 items each, within DynamoDB's 100; fewer, larger commits cost DynamoDB less). */
export const WINDOWS_PER_COMMIT = 24;
/**
 * A chunk of new windows ends once its reports reach this many (the next chunk is built while one
 * commits, so two are in memory): a few hundred MB at most, whatever the number of subscriptions.
 */
export const MAX_REPORTS_PER_COMMIT = 20_000;
/** Windows whose delivery outcomes are committed in one transaction (2 items each, within DynamoDB's 100; commitOutcomesMany also keeps it under 3 MB). */
export const OUTCOMES_PER_COMMIT = 45;
