import { randomUUID } from 'node:crypto';
import { ScanCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ProviderName, WebhookParams } from '../../../schemas/billing/provider-params';
import type { BillingReport } from '../../../schemas/billing/report';
import { appRulesPartition } from '../../governance/keys';
import { METER_PREFIX } from '../../resources/billing-meters';
import { ResourceStore } from '../../resources/resource-store';
import type { SearchableIndex } from '../../search/port';
import { BalanceLedger } from '../balances/balance-ledger';
import { channelWebhookClient, readDeliveryChannels } from '../channels/channel-reader';
import type { DeliveryChannel } from '../channels/channel-delivery';
import { LATE_AFTER_MS, LateWindowStore } from '../late-events/late-window-store';
import type { ClientOptions } from '../providers/client-options';
import type { ProviderClient } from '../providers/provider-port';
import { reportKeyOf, ReportStore, type PreparedOutcomes, type ReportTenant, type WindowReports } from '../reports/report-store';
import { closedWindows, windowContaining, type UsageWindow } from '../schedule/reporting-period';
import { BalanceProbe, deliverReports, drawBalances, isOpen, MAX_DELIVERY_RUNS, type DeliveryDeps } from './deliver-reports';
import { loadMeterPricing, type MeterPricing } from './meter-pricing';
import { runMeterOf, type RunMeter } from './run-meter';
import { RunStateStore, type MeterCursor, type PeriodTotal } from './run-state-store';
import { SubscriptionDirectory } from './subscription-directory';
import { DEFAULT_WEBHOOK_BATCH_SIZE } from './webhook-batch';
import { busyWindows, placeholderUsage, windowUsage, type WindowUsage } from './usage-query';
import { attribute, buildWindowReports } from './window-reports';

/**
 * The billing run: for every app with active meters, for every meter, evaluate each closed window
 * once (grouped aggregation → attribution → reports → ONE commit of reports, totals and cursor),
 * deliver the new reports, re-evaluate windows touched by late events, and resend reports still
 * pending or retrying from earlier runs. A crash anywhere leaves either the previous state or the
 * committed window: the next run recomputes the uncommitted window, or resends the committed one
 * with the same idempotency keys.
 */

export interface BillingRunDeps {
  readonly documents: DynamoDBDocumentClient;
  readonly billingTable: string;
  readonly resourcesTable: string;
  readonly index: SearchableIndex;
  /** Apps to bill; default: every app that has a meter (a scan of the resources table for meters). */
  readonly tenants?: () => Promise<ReportTenant[]>;
  /** The client of an account's provider connection (Stripe, Chargebee, Recurly, Zuora), if configured. */
  readonly providerClient?: (tenant: ReportTenant, provider: Exclude<ProviderName, 'webhook'>) => ProviderClient<never> | undefined;
  /** Options of the webhook clients (retry policy, runtime, fetch). */
  readonly webhookOptions?: ClientOptions;
  /** Channels by id (default: the channel resources of the app). */
  readonly channels?: (tenant: ReportTenant, ids: readonly string[], now: Date) => Promise<Map<string, DeliveryChannel>>;
  /** Wall clock, for evaluated_at (compared with late-event marks) and report timestamps. */
  readonly clock?: () => Date;
  /** Test hooks that throw to simulate a crash at a point of the run. */
  readonly faults?: { afterWindowCommit?: (meterId: string, window: UsageWindow) => void; afterDelivery?: (meterId: string, window: UsageWindow) => void };
  /** How far back a new meter's first run starts (default 31 days before the meter was created). */
  readonly backfillMs?: number;
  /** Wait after a window closes before its first evaluation (default LATE_AFTER_MS + 1 min). */
  readonly settleMs?: number;
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
  /** Milliseconds spent in the usage aggregation queries (the run's bare search cost). */
  readonly queryMs: number;
}

export interface BillingRunInput {
  readonly now: Date;
  readonly deps: BillingRunDeps;
  readonly timeBudgetMs?: number;
  readonly onProgress?: (progress: BillingProgress) => void;
}

const LATE_LOOKBACK_MS = 31 * 86_400_000;
/** A meter's lease: longer than one Lambda run, renewed every chunk of windows. */
const DEFAULT_LEASE_MS = 15 * 60_000;
/**
 * Usage queries of a meter's next windows running at once while earlier windows are built, committed
 * and delivered. A query waits on the event loop several times (DuckDB: extract, prepare, run, one
 * per result chunk), which the run keeps busy, so in the run a query takes ~150 ms where alone it
 * takes ~25 ms. With three in flight the queries were the run's bottleneck (the bench's run used
 * 1.4 of 2 cores, 185 s); with six (the local index has six readers) it used 1.6 cores and took 150 s.
 */
const QUERIES_AHEAD = 6;
/**
 * Committed windows of one meter queued for delivery while later windows are evaluated (each waits on
 * its receiver and its outcome commit; eight keep the run from waiting on them, at a few windows' memory).
 */
const MAX_INFLIGHT_DELIVERIES = 8;
/** Consecutive new windows of a meter committed in one transaction (2 items each, within DynamoDB's 100; fewer, larger commits cost DynamoDB less). */
const WINDOWS_PER_COMMIT = 24;
/**
 * A chunk of new windows ends once its reports reach this many (the next chunk is built while one
 * commits, so two are in memory): a few hundred MB at most, whatever the number of subscriptions.
 */
const MAX_REPORTS_PER_COMMIT = 20_000;
/** Windows whose delivery outcomes are committed in one transaction (2 items each, within DynamoDB's 100; commitOutcomesMany also keeps it under 3 MB). */
const OUTCOMES_PER_COMMIT = 45;

export async function runBilling(input: BillingRunInput): Promise<BillingRunSummary> {
  const { deps, now } = input;
  const clock = deps.clock ?? (() => new Date());
  const started = clock();
  const deadline = started.getTime() + (input.timeBudgetMs ?? Number.POSITIVE_INFINITY);
  const counters = { meters: 0, windowsEvaluated: 0, corrections: 0, reportsWritten: 0, delivered: 0, retrying: 0, failed: 0, unattributed: 0, queryMs: 0 };
  const errors: BillingRunSummary['errors'] = [];
  let complete = true;
  const tenants = await (deps.tenants ?? (() => tenantsWithMeters(deps.documents, deps.resourcesTable)))();
  for (const tenant of tenants) {
    let meters: Awaited<ReturnType<typeof activeMeters>>;
    let directory: SubscriptionDirectory;
    try {
      meters = await activeMeters(deps, tenant);
      if (meters.length === 0) continue;
      directory = await SubscriptionDirectory.load(deps.index, { org_id: tenant.orgId, app_id: tenant.appId }, now);
    } catch (error) {
      // One app's trouble (its search data, its meters) must not stop the others' billing.
      errors.push({ tenant, meterId: '*', message: error instanceof Error ? error.message : String(error) });
      continue;
    }
    const balances = new BalanceProbe(deps.documents, deps.billingTable, tenant);
    for (const meter of meters) {
      if ('error' in meter) {
        errors.push({ tenant, meterId: meter.id, message: meter.error });
        continue;
      }
      counters.meters += 1;
      try {
        const finished = await new MeterRun(deps, input, tenant, meter, directory, balances, counters, deadline, clock).run();
        if (!finished) complete = false;
      } catch (error) {
        errors.push({ tenant, meterId: meter.id, message: error instanceof Error ? error.message : String(error) });
      }
      if (clock().getTime() >= deadline) {
        complete = false;
        break;
      }
    }
    if (!complete) break;
  }
  return { startedAt: started.toISOString(), durationMs: clock().getTime() - started.getTime(), complete, ...counters, errors };
}

interface WindowToBuild {
  readonly window: UsageWindow;
  readonly previous: WindowReports | undefined;
  readonly usage: Promise<{ startedAt: Date; usage: WindowUsage }>;
}

/** Windows built and not yet committed: their reports, and the period totals after them. */
interface BuiltWindows {
  readonly groups: readonly { window: UsageWindow; previous: WindowReports | undefined; reports: BillingReport[]; evaluatedAt: Date }[];
  readonly totals: Map<string, PeriodTotal>;
  readonly changed: number;
  readonly unattributed: number;
}

type Counters = { -readonly [K in 'meters' | 'windowsEvaluated' | 'corrections' | 'reportsWritten' | 'delivered' | 'retrying' | 'failed' | 'unattributed' | 'queryMs']: number };

class MeterRun {
  private readonly reports: ReportStore;
  private readonly state: RunStateStore;
  private readonly holder = randomUUID();
  private cursor: MeterCursor | undefined;
  private pricing: MeterPricing | undefined;
  private delivery: Promise<DeliveryDeps> | undefined;
  /** Clean-up writes (old generations) that need not delay the next window; awaited before the meter ends. */
  private readonly cleanups: Promise<unknown>[] = [];
  private readonly background = (work: Promise<unknown>) => {
    this.cleanups.push(work);
  };
  private drawChain: Promise<unknown> = Promise.resolve();
  private readonly outcomeQueue: { prepared: PreparedOutcomes; resolve: (result: WindowReports | 'committed' | 'conflict') => void; reject: (error: unknown) => void }[] = [];
  private outcomeInFlight = false;
  /** When this run last took or renewed the meter's lease. */
  private leaseTakenAt = 0;
  /** Windows delivered in this run (not retried again by the same run). */
  private readonly handled = new Set<number>();

  constructor(
    private readonly deps: BillingRunDeps,
    private readonly input: BillingRunInput,
    private readonly tenant: ReportTenant,
    private readonly meter: RunMeter,
    private readonly directory: SubscriptionDirectory,
    private readonly balances: BalanceProbe,
    private readonly counters: Counters,
    private readonly deadline: number,
    private readonly clock: () => Date,
  ) {
    this.reports = new ReportStore(deps.documents, deps.billingTable);
    this.state = new RunStateStore(deps.documents, deps.billingTable);
  }

  /** False when the time budget ran out or another run holds the meter. */
  async run(): Promise<boolean> {
    const { tenant, meter, deps } = this;
    if (!(await this.takeLease())) {
      this.progress({ phase: 'meter-skipped', detail: 'another run holds the meter' });
      return true;
    }
    try {
      this.cursor = await this.state.readCursor(tenant, meter.id);
      this.pricing = await loadMeterPricing(deps.documents, deps.resourcesTable, tenant, meter.catalogPlanId);
      if (!(await this.newWindows())) return false;
      if (!(await this.lateCorrections())) return false;
      if (!(await this.redeliveries())) return false;
      this.progress({ phase: 'meter-done' });
      return true;
    } finally {
      const settled = await Promise.allSettled(this.cleanups);
      await this.state.releaseLease(tenant, meter.id, this.holder);
      // A failed clean-up leaves an unreferenced generation behind (never read); report it, it is not a billing error.
      const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failure) this.progress({ phase: 'meter-done', detail: `clean-up of an old generation failed: ${String(failure.reason)}` });
    }
  }

  private async takeLease(): Promise<boolean> {
    const at = this.clock();
    if (!(await this.state.acquireLease(this.tenant, this.meter.id, this.holder, at, this.deps.leaseMs ?? DEFAULT_LEASE_MS))) return false;
    this.leaseTakenAt = at.getTime();
    return true;
  }

  /**
   * Renews the lease once a third of it has passed (a write per chunk of windows would cost more
   * than the chunk's own commit): it never has less than two thirds of its time left.
   */
  private async renewLease(): Promise<boolean> {
    const leaseMs = this.deps.leaseMs ?? DEFAULT_LEASE_MS;
    return this.clock().getTime() - this.leaseTakenAt < leaseMs / 3 ? true : this.takeLease();
  }

  private outOfTime(): boolean {
    return this.clock().getTime() >= this.deadline;
  }

  private async newWindows(): Promise<boolean> {
    const { meter, input } = this;
    const start = this.cursor?.nextWindowStart ?? windowContaining(new Date(meter.createdAt.getTime() - (this.deps.backfillMs ?? LATE_LOOKBACK_MS)), meter.periodMs).start;
    const closed = closedWindows({ from: start, now: input.now, periodMs: meter.periodMs, settleMs: this.deps.settleMs ?? LATE_AFTER_MS + 60_000, limit: 1_000_000 });
    if (closed.length === 0) return true;
    const last = closed[closed.length - 1]!;
    const busy = new Set((await this.timed(() => busyWindows(this.deps.index, this.scope(), meter, { from: closed[0]!.start, to: last.end }, input.now))).map((d) => d.getTime()));
    const toEvaluate = closed.filter((window) => busy.has(window.start.getTime()));
    // Pipelined: later windows' queries run while earlier ones are built; a chunk is built while the
    // chunk before it commits; up to MAX_INFLIGHT windows deliver while later ones are evaluated. Each
    // window is committed before its delivery starts, and commits (cursor, totals) stay one after the
    // other, in window order, so crash safety is unchanged.
    const inflight: Promise<void>[] = [];
    // Queries run ahead (QUERIES_AHEAD at a time) while earlier windows are built and committed.
    const usages = new Map<number, Promise<{ startedAt: Date; usage: WindowUsage }>>();
    let fetched = 0;
    const prefetch = (upTo: number) => {
      while (fetched < Math.min(upTo, toEvaluate.length)) {
        const window = toEvaluate[fetched]!;
        const previousFetch = usages.get(fetched - QUERIES_AHEAD)?.catch(() => undefined);
        usages.set(fetched, (previousFetch ?? Promise.resolve()).then(() => this.fetchUsage(window)));
        fetched += 1;
      }
    };
    let finished = true;
    let offset = 0;
    // The chunk being committed (its windows then queued for delivery), and the totals it leaves.
    let committing: Promise<void> | undefined;
    let totals: ReadonlyMap<string, PeriodTotal> = this.cursor?.totals ?? new Map();
    const commitAndDeliver = async (built: BuiltWindows, chunk: readonly UsageWindow[]) => {
      const committed = await this.commitBuilt(built, this.nextAfter(chunk[chunk.length - 1]!));
      if (committed === 'conflict') throw new Error(`windows from ${chunk[0]!.start.toISOString()} were committed by another run`);
      for (const group of committed) {
        this.counters.windowsEvaluated += 1;
        this.progress({ phase: 'window', window: group.window, reports: group.reports.length });
        inflight.push(this.deliver(group, 'built'));
        if (inflight.length >= MAX_INFLIGHT_DELIVERIES) await inflight.shift();
      }
    };
    let commitFailure: unknown;
    try {
      while (offset < toEvaluate.length) {
        // Renewing the lease each chunk keeps a long catch-up run from being taken over mid-way.
        if (this.outOfTime() || !(await this.renewLease())) {
          finished = false;
          break;
        }
        prefetch(offset + 2 * WINDOWS_PER_COMMIT);
        const items = toEvaluate.slice(offset, offset + WINDOWS_PER_COMMIT).map((window, i) => ({ window, previous: undefined, usage: usages.get(offset + i)! }));
        // Built on the totals the previous chunk leaves (a copy: that chunk's commit still writes its own).
        // A chunk ends early at MAX_REPORTS_PER_COMMIT reports (two chunks are in memory at once).
        const built = await this.buildMany(items, new Map(totals), this.deps.reportsPerCommit ?? MAX_REPORTS_PER_COMMIT);
        const chunk = built.groups.map((group) => group.window);
        // Usage already built is let go (the look-ahead chains only on windows after these).
        for (let i = offset; i < offset + chunk.length; i += 1) usages.delete(i);
        offset += chunk.length;
        totals = built.totals;
        await committing;
        committing = commitAndDeliver(built, chunk);
      }
      await committing;
    } catch (error) {
      commitFailure = error;
    } finally {
      for (const pending of usages.values()) pending.catch(() => undefined);
      // A chunk still committing (the loop failed while building the next one) settles before deliveries are awaited.
      if (committing) await committing.catch(() => undefined);
      const settled = await Promise.allSettled(inflight);
      const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (commitFailure !== undefined) throw commitFailure;
      if (failure) throw failure.reason;
    }
    if (!finished) return false;
    // Trailing empty windows: only the cursor moves.
    if (!this.cursor || this.cursor.nextWindowStart < last.end) await this.moveCursor(last.end);
    return true;
  }

  /** The cursor never moves back: a correction of an old window keeps it where it is. */
  private nextAfter(window: UsageWindow): Date {
    const current = this.cursor?.nextWindowStart;
    return current && current > window.end ? current : window.end;
  }

  private async lateCorrections(): Promise<boolean> {
    const { tenant, meter } = this;
    const cursorAt = this.cursor?.nextWindowStart;
    if (!cursorAt) return true;
    const marks = await new LateWindowStore(this.deps.documents, this.deps.billingTable).marksBetween(tenant.orgId, tenant.appId, new Date(this.input.now.getTime() - LATE_LOOKBACK_MS), cursorAt);
    const candidates = new Map<number, Date>();
    for (const mark of marks) {
      for (let t = windowContaining(mark.hourStart, meter.periodMs).start.getTime(); t < mark.hourStart.getTime() + 3_600_000 && t + meter.periodMs <= cursorAt.getTime(); t += meter.periodMs) {
        candidates.set(t, new Date(Math.max(candidates.get(t)?.getTime() ?? 0, mark.lastIndexedAt.getTime())));
      }
    }
    for (const [start, lastIndexedAt] of [...candidates.entries()].sort((a, b) => a[0] - b[0])) {
      if (this.outOfTime()) return false;
      const header = await this.reports.readHeader(tenant, meter.id, new Date(start));
      if (header && header.evaluatedAt >= lastIndexedAt) continue;
      const window = { start: new Date(start), end: new Date(start + meter.periodMs) };
      const previous = header ? await this.reports.readWindow(tenant, meter.id, window.start) : undefined;
      // A version still on its way (pending, retrying) must reach the provider before a correction
      // supersedes it, or its quantity would be lost or counted twice; this window waits for a later run.
      if (previous?.reports.some(isOpen)) continue;
      const committed = await this.evaluate(window, previous, this.nextAfter(window));
      if (committed === 'conflict') throw new Error(`window ${window.start.toISOString()} changed during its re-evaluation`);
      this.counters.corrections += 1;
      this.progress({ phase: 'correction', window, reports: committed.reports.length });
      await this.deliver(committed, 'built');
    }
    return true;
  }

  private async redeliveries(): Promise<boolean> {
    const open = await this.reports.openWindows(this.tenant, this.meter.id);
    for (const start of open) {
      if (this.handled.has(start.getTime())) continue;
      if (this.outOfTime()) return false;
      const group = await this.reports.readWindow(this.tenant, this.meter.id, start);
      if (!group) continue;
      this.progress({ phase: 'redelivery', window: group.window, reports: group.reports.filter(isOpen).length });
      await this.deliver(group, 'stored');
    }
    return true;
  }

  /** Computes a window's reports and commits them with the totals and the cursor, all or nothing. */
  private async evaluate(window: UsageWindow, previous: WindowReports | undefined, nextWindowStart: Date): Promise<WindowReports | 'conflict'> {
    const committed = await this.evaluateMany([{ window, previous, usage: this.fetchUsage(window) }], nextWindowStart);
    return committed === 'conflict' ? committed : committed[0]!;
  }

  /**
   * Several windows of the meter in order, committed in ONE transaction (their headers, the totals
   * generation and the cursor): a crash commits all of them or none.
   */
  private async evaluateMany(items: readonly WindowToBuild[], nextWindowStart: Date): Promise<WindowReports[] | 'conflict'> {
    return this.commitBuilt(await this.buildMany(items, new Map(this.cursor?.totals ?? [])), nextWindowStart);
  }

  /**
   * The windows' reports, on `totals` (updated in place: the period totals after these windows). Stops
   * after the window that brings the reports to `maxReports` (at least one window is built).
   */
  private async buildMany(items: readonly WindowToBuild[], totals: Map<string, PeriodTotal>, maxReports = Number.POSITIVE_INFINITY): Promise<BuiltWindows> {
    const { tenant, meter } = this;
    const groups: BuiltWindows['groups'][number][] = [];
    let reports = 0;
    let changed = 0;
    let unattributed = 0;
    for (const item of items) {
      // evaluated_at is when the query started: events indexed after it are caught by late marks.
      const { startedAt, usage } = await item.usage;
      const now = this.clock();
      const built = buildWindowReports({
        tenant, meter, window: item.window,
        usage: attribute(usage, this.directory, meter),
        previous: new Map((item.previous?.reports ?? []).map((report) => [reportKeyOf(report), report])),
        totals, pricing: this.pricing, directory: this.directory, now,
      });
      changed += built.changed;
      const stamp = now.toISOString();
      unattributed += built.reports.filter((r) => r.status === 'unattributed' && r.updated_at === stamp).length;
      groups.push({ window: item.window, previous: item.previous, reports: built.reports, evaluatedAt: startedAt });
      reports += built.reports.length;
      if (reports >= maxReports) break;
    }
    return { groups, totals, changed, unattributed };
  }

  /** Commits built windows after the cursor this run holds (the previous commit must have finished). */
  private async commitBuilt(built: BuiltWindows, nextWindowStart: Date): Promise<WindowReports[] | 'conflict'> {
    const { tenant, meter } = this;
    const { groups, totals, changed, unattributed } = built;
    let written: { generation: string; shards: number } | undefined;
    const now = this.clock();
    const committed = await this.reports.commitWindows(groups.map((g) => ({ tenant, meterId: meter.id, window: g.window, reports: g.reports, previous: g.previous, evaluatedAt: g.evaluatedAt, now })), {
      // Totals shards are written alongside the report shards; the cursor in the transaction points at them.
      extraItems: async () => {
        written = await this.state.writeTotals(tenant, meter.id, totals);
        return [this.state.cursorPut(tenant, meter.id, { nextWindowStart, totalsGeneration: written.generation, totalsShards: written.shards }, this.cursor, now)];
      },
      background: this.background,
    });
    if (committed === 'conflict') {
      if (written) await this.state.deleteTotals(tenant, meter.id, written.generation, written.shards);
      return committed;
    }
    this.background(this.state.deleteTotals(tenant, meter.id, this.cursor?.totalsGeneration ?? null, this.cursor?.totalsShards ?? 0));
    if (!written) throw new Error('totals were not written');
    this.cursor = { nextWindowStart, revision: (this.cursor?.revision ?? 0) + 1, totalsGeneration: written.generation, totalsShards: written.shards, totals };
    this.counters.reportsWritten += changed;
    this.counters.unattributed += unattributed;
    for (const group of committed) this.deps.faults?.afterWindowCommit?.(meter.id, group.window);
    return committed;
  }

  private async fetchUsage(window: UsageWindow): Promise<{ startedAt: Date; usage: WindowUsage }> {
    const startedAt = this.clock();
    return { startedAt, usage: await this.timed(() => this.usageOf(window)) };
  }

  private async usageOf(window: UsageWindow): Promise<WindowUsage> {
    const { meter, directory, deps, input } = this;
    if (!meter.perSubscription) return windowUsage(deps.index, this.scope(), meter, window, input.now, directory);
    // Placeholder meters: one query per billable subscription per window (cost grows with subscriptions).
    const bySubscription = new Map<string, import('../money/decimal').Decimal>();
    for (const subscription of directory.billableFor(meter.billedIds)) {
      const value = await placeholderUsage(deps.index, this.scope(), meter, window, { companyId: subscription.companyId, subscriptionId: subscription.subscriptionId }, input.now);
      if (!value.isZero()) bySubscription.set(subscription.subscriptionId, value);
    }
    return { bySubscription, byCompany: new Map() };
  }

  private async moveCursor(nextWindowStart: Date): Promise<void> {
    const item = this.state.cursorPut(this.tenant, this.meter.id, { nextWindowStart, totalsGeneration: this.cursor?.totalsGeneration ?? null, totalsShards: this.cursor?.totalsShards ?? 0 }, this.cursor, this.clock());
    await this.deps.documents.send(new TransactWriteCommand({ TransactItems: [item] }));
    this.cursor = { ...(this.cursor ?? { totalsGeneration: null, totalsShards: 0, totals: new Map() }), nextWindowStart, revision: (this.cursor?.revision ?? 0) + 1 };
  }

  /**
   * Delivers the group's open reports and records the outcomes (a second, header-only commit of the
   * group). `built`: the reports were built by this run (their idempotency keys are current); `stored`: read back.
   */
  private async deliver(group: WindowReports, origin: 'built' | 'stored'): Promise<void> {
    const { window } = group;
    this.handled.add(window.start.getTime());
    if (!group.reports.some(isOpen)) return;
    const prepared = await this.deliverAndPrepare(group, origin);
    const committed = await this.commitOutcome(prepared);
    // Lost to a concurrent writer: the outcomes are at the providers (idempotent); the next run resends and records them.
    if (committed === 'conflict') this.progress({ phase: 'redelivery', window, detail: 'outcome write lost a race; the next run records it' });
  }

  /**
   * Sends the group's open reports and encodes the outcome commit at once: what then waits for its
   * turn in the outcome queue is a header item of a few KB. Delivered copies of the reports are never
   * made: the overlay is written from what delivery set on each report.
   */
  private async deliverAndPrepare(group: WindowReports, origin: 'built' | 'stored'): Promise<PreparedOutcomes> {
    const delivery = await this.deliveryDeps();
    // Balance draws one window after the other (balances move in window order); sending runs concurrently.
    const drawn = this.drawChain.then(() => drawBalances(delivery, group.reports));
    this.drawChain = drawn.catch(() => undefined);
    const result = await deliverReports(delivery, await drawn, { keysBuiltThisRun: origin === 'built' });
    this.counters.delivered += result.delivered;
    this.counters.failed += result.failed;
    this.counters.retrying += result.retrying;
    this.deps.faults?.afterDelivery?.(this.meter.id, group.window);
    // Outcomes are an overlay on the group's header (no shard rewrite), committed with other windows' outcomes.
    return this.reports.prepareOutcomes({ tenant: this.tenant, previous: group, delivered: result.outcomes, now: this.clock(), background: this.background }, { keepGroup: false });
  }

  /**
   * Outcome commits queue while one is in flight and the queue goes in as ONE transaction (each group
   * still conditioned on its own revision): deliveries finish close together, so this saves writes.
   */
  private commitOutcome(prepared: PreparedOutcomes): Promise<WindowReports | 'committed' | 'conflict'> {
    return new Promise((resolve, reject) => {
      this.outcomeQueue.push({ prepared, resolve, reject });
      this.pumpOutcomes();
    });
  }

  private pumpOutcomes(): void {
    if (this.outcomeInFlight || this.outcomeQueue.length === 0) return;
    const batch = this.outcomeQueue.splice(0, OUTCOMES_PER_COMMIT);
    this.outcomeInFlight = true;
    this.reports.commitPreparedOutcomes(batch.map((entry) => entry.prepared)).then(
      (results) => batch.forEach((entry, i) => entry.resolve(results[i]!)),
      (error: unknown) => batch.forEach((entry) => entry.reject(error)),
    ).finally(() => {
      this.outcomeInFlight = false;
      this.pumpOutcomes();
    });
  }

  private deliveryDeps(): Promise<DeliveryDeps> {
    this.delivery ??= this.makeDeliveryDeps();
    return this.delivery;
  }

  private async makeDeliveryDeps(): Promise<DeliveryDeps> {
    const { deps, tenant, meter } = this;
    const channelClients = new Map<string, { channel: DeliveryChannel; client: ProviderClient<WebhookParams> }>();
    if (meter.provider === 'webhook') {
      const ids = (meter.params['channel_ids'] as string[] | undefined) ?? [];
      const read = deps.channels ?? ((t, list, at) => readDeliveryChannels({ documents: deps.documents, resourcesTable: deps.resourcesTable }, t.orgId, t.appId, list, at));
      for (const channel of (await read(tenant, ids, this.clock())).values()) {
        if (channel.status === 'active' && channel.secrets.length > 0) channelClients.set(channel.id, { channel, client: channelWebhookClient(channel, deps.webhookOptions) });
      }
    }
    return {
      tenant, meter, directory: this.directory,
      providerClient: (provider) => deps.providerClient?.(tenant, provider),
      channelClients,
      ledger: new BalanceLedger(deps.documents, deps.billingTable),
      balances: this.balances,
      concurrency: deps.deliveryConcurrency ?? 16,
      webhookBatchSize: deps.webhookBatchSize ?? DEFAULT_WEBHOOK_BATCH_SIZE,
      ...(deps.webhookBatchBytes !== undefined ? { webhookBatchBytes: deps.webhookBatchBytes } : {}),
      webhookOptions: deps.webhookOptions,
      maxDeliveryRuns: deps.maxDeliveryRuns ?? MAX_DELIVERY_RUNS,
      now: this.clock,
    };
  }

  private scope() {
    return { org_id: this.tenant.orgId, app_id: this.tenant.appId };
  }

  private async timed<T>(fn: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
      return await fn();
    } finally {
      this.counters.queryMs += Date.now() - started;
    }
  }

  private progress(progress: Omit<BillingProgress, 'tenant' | 'meterId'>): void {
    this.input.onProgress?.({ tenant: this.tenant, meterId: this.meter.id, ...progress });
  }
}

async function activeMeters(deps: BillingRunDeps, tenant: ReportTenant): Promise<(RunMeter | { id: string; error: string })[]> {
  const store = new ResourceStore(deps.documents, deps.resourcesTable);
  const meters: (RunMeter | { id: string; error: string })[] = [];
  let beforeId: string | undefined;
  do {
    const page = await store.list({ partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: METER_PREFIX }, { take: 1000, ...(beforeId ? { beforeId } : {}) });
    for (const item of page.items) {
      if ((item.document['status'] ?? 'active') !== 'active') continue;
      meters.push(runMeterOf({ ...item.document, _id: item.document['_id'] ?? item.id }));
    }
    beforeId = page.nextBeforeId;
  } while (beforeId);
  // Oldest meter first: a stable order across runs.
  return meters.reverse();
}

/** Apps that have a meter: a scan of the resources table for meter items (keys only). */
export async function tenantsWithMeters(documents: DynamoDBDocumentClient, resourcesTable: string): Promise<ReportTenant[]> {
  const found = new Map<string, ReportTenant>();
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(new ScanCommand({
      TableName: resourcesTable,
      FilterExpression: 'begins_with(sk, :meter)',
      ExpressionAttributeValues: { ':meter': `${METER_PREFIX}#` },
      ProjectionExpression: 'pk',
      ExclusiveStartKey: startKey,
    }));
    for (const item of page.Items ?? []) {
      const match = /^ORG#([^#]+)#APP#([^#]+)$/.exec(String(item['pk']));
      if (match) found.set(String(item['pk']), { orgId: match[1]!, appId: match[2]! });
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return [...found.values()];
}
