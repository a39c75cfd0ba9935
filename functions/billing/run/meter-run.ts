import { randomUUID } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { BillingReport } from '../../../schemas/billing/report';
import { LATE_AFTER_MS, LateWindowStore } from '../late-events/late-window-store';
import { reportKeyOf, ReportStore, type PreparedOutcomes, type ReportTenant, type WindowReports } from '../reports/report-store';
import { closedWindows, windowContaining, type UsageWindow } from '../../../values/reporting-period';
import { BalanceProbe, deliverReports, drawBalances, isOpen, type DeliveryDeps } from './deliver-reports';
import { loadMeterPricing, type MeterPricing } from './meter-pricing';
import { type RunMeter } from './run-meter';
import { RunStateStore, type MeterCursor, type PeriodTotal } from './run-state-store';
import { deliveryDepsFor } from './meter-delivery-deps';
import { OutcomeCommitQueue } from './outcome-commit-queue';
import { SubscriptionDirectory } from './subscription-directory';
import { busyWindows, placeholderUsage, windowUsage } from './usage-query';
import type { WindowUsage } from './window-usage';
import { attribute, buildWindowReports } from './window-reports';
import { BillingProgress, BillingRunDeps, BillingRunInput, DEFAULT_LEASE_MS, LATE_LOOKBACK_MS, MAX_INFLIGHT_DELIVERIES, MAX_REPORTS_PER_COMMIT, OUTCOMES_PER_COMMIT, QUERIES_AHEAD, WINDOWS_PER_COMMIT } from './billing-run-types';

/** One meter of one app in a billing run: its lease, new windows (queried ahead, built and committed in chunks), late-event corrections, redeliveries and outcome commits. */

export interface WindowToBuild {
  readonly window: UsageWindow;
  readonly previous: WindowReports | undefined;
  readonly usage: Promise<{ startedAt: Date; usage: WindowUsage }>;
}

/** Windows built and not yet committed: their reports, and the period totals after them. */
export interface BuiltWindows {
  readonly groups: readonly { window: UsageWindow; previous: WindowReports | undefined; reports: BillingReport[]; evaluatedAt: Date }[];
  readonly totals: Map<string, PeriodTotal>;
  readonly changed: number;
  readonly unattributed: number;
}

export type Counters = { -readonly [K in 'meters' | 'windowsEvaluated' | 'corrections' | 'reportsWritten' | 'delivered' | 'retrying' | 'failed' | 'unattributed' | 'queryMs']: number };

export class MeterRun {
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
  private readonly outcomes = new OutcomeCommitQueue((batch) => this.reports.commitPreparedOutcomes(batch), OUTCOMES_PER_COMMIT);
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
    const bySubscription = new Map<string, import('../../../values/decimal').Decimal>();
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
    const committed = await this.outcomes.add(prepared);
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

  private deliveryDeps(): Promise<DeliveryDeps> {
    this.delivery ??= deliveryDepsFor(this.deps, this.tenant, this.meter, this.directory, this.balances, this.clock);
    return this.delivery;
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
