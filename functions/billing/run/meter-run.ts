import { randomUUID } from 'node:crypto';
import { closedWindows, windowContaining, type UsageWindow } from '../../../values/reporting-period';
import { TaskLane } from '../../shared/concurrency';
import { MIN_SETTLE_MS, settleMsOf } from './settle-time';
import { reportKeyOf, type PreparedOutcomes, type ReportTenant, type WindowReports } from '../reports/report-store';
import {
  type BillingProgress,
  type BillingRunDeps,
  DEFAULT_LEASE_MS,
  LATE_LOOKBACK_MS,
  MAX_REPORTS_PER_COMMIT,
  OUTCOMES_PER_COMMIT,
} from './billing-run-types';
import { drawBalances } from './balance-draws';
import { deliverReports, isOpen, type DeliveryDeps } from './deliver-reports';
import { deliveryDepsFor } from './meter-delivery-deps';
import { loadMeterPricing, type MeterPricing } from './meter-pricing';
import { OutcomeCommitQueue } from './outcome-commit-queue';
import type { RunMeter } from './run-meter';
import type { MeterCursor, PeriodTotal } from './run-state-store';
import { busyWindows, meterWindowUsage } from './usage-query';
import { attribute, buildWindowReports } from './window-reports';
import { runWindowPipeline, type WindowPipelineSteps } from './window-pipeline';
import type { BuiltWindows, MeterRunContext, WindowToBuild } from './meter-run-types';
import type { WindowUsage } from './window-usage';

/**
 * One meter of one app in a billing run: its lease, its new windows (window-pipeline.ts), late-event
 * corrections, redeliveries, and the outcome commits of what it delivered.
 */
export class MeterRun implements WindowPipelineSteps {
  private readonly holder = randomUUID();
  private cursor: MeterCursor | undefined;
  private settleMs = MIN_SETTLE_MS;
  private pricing: MeterPricing | undefined;
  private delivery: Promise<DeliveryDeps> | undefined;
  /** Clean-up writes (old generations) that need not delay the next window; awaited before the meter ends. */
  private readonly cleanups: Promise<unknown>[] = [];
  private readonly background = (work: Promise<unknown>) => {
    this.cleanups.push(work);
  };
  /** Balance draws, one window after the other (balances move in window order); sending runs concurrently. */
  private readonly draws = new TaskLane(1);
  private readonly outcomes: OutcomeCommitQueue;
  /** Each delivered window's outcome commit, settled (recordOutcomes awaits them); the first failure. */
  private readonly outcomeCommits: Promise<void>[] = [];
  private outcomeFailure: { error: unknown } | undefined;
  /** When this run last took or renewed the meter's lease. */
  private leaseTakenAt = 0;
  /** Windows delivered in this run (not retried again by the same run). */
  private readonly handled = new Set<number>();

  constructor(private readonly context: MeterRunContext) {
    this.outcomes = new OutcomeCommitQueue((batch) => context.deps.reports.commitPreparedOutcomes(batch), OUTCOMES_PER_COMMIT);
  }

  private get deps(): BillingRunDeps {
    return this.context.deps;
  }
  private get tenant(): ReportTenant {
    return this.context.tenant;
  }
  private get meter(): RunMeter {
    return this.context.meter;
  }
  private get leaseMs(): number {
    return this.context.settings.leaseMs ?? DEFAULT_LEASE_MS;
  }
  private clock(): Date {
    return this.context.clock();
  }

  /** False when the time budget ran out or another run holds the meter. */
  async run(): Promise<boolean> {
    const { tenant, meter, deps } = this;
    if (!(await this.takeLease())) {
      this.progress({ phase: 'meter-skipped', detail: 'another run holds the meter' });
      return true;
    }
    try {
      [this.cursor, this.settleMs] = await Promise.all([
        deps.runState.readCursor(tenant, meter.id),
        settleMsOf(this.context.settings, meter, deps.observedGraceMs, tenant),
      ]);
      this.pricing = await loadMeterPricing(deps.resources, tenant, meter.catalogPlanId);
      if (!(await this.newWindows())) return false;
      // Corrections read stored headers: the outcomes of the windows just delivered are recorded first.
      await this.recordOutcomes();
      if (!(await this.lateCorrections())) return false;
      if (!(await this.redeliveries())) return false;
      await this.recordOutcomes();
      this.progress({ phase: 'meter-done' });
      return true;
    } finally {
      // A run stopped early (time, lease, an error) still records what it delivered, or the next run would resend it.
      await this.outcomes.flush().catch(() => undefined);
      const settled = await Promise.allSettled(this.cleanups);
      await deps.runState.releaseLease(tenant, meter.id, this.holder);
      // A failed clean-up leaves an unreferenced generation behind (never read); report it, it is not a billing error.
      const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failure) this.progress({ phase: 'meter-done', detail: `clean-up of an old generation failed: ${String(failure.reason)}` });
    }
  }

  private async takeLease(): Promise<boolean> {
    const at = this.clock();
    if (!(await this.deps.runState.acquireLease(this.tenant, this.meter.id, this.holder, at, this.leaseMs))) return false;
    this.leaseTakenAt = at.getTime();
    return true;
  }

  /**
   * Renews the lease once a third of it has passed (a write per chunk of windows would cost more
   * than the chunk's own commit): it never has less than two thirds of its time left.
   */
  private async renewLease(): Promise<boolean> {
    return this.clock().getTime() - this.leaseTakenAt < this.leaseMs / 3 ? true : this.takeLease();
  }

  private outOfTime(): boolean {
    return this.clock().getTime() >= this.context.deadline;
  }

  private async newWindows(): Promise<boolean> {
    const { meter } = this;
    const { input, settings } = this.context;
    const start =
      this.cursor?.nextWindowStart ?? windowContaining(new Date(meter.createdAt.getTime() - (settings.backfillMs ?? LATE_LOOKBACK_MS)), meter.periodMs).start;
    const closed = closedWindows({
      from: start,
      now: input.now,
      periodMs: meter.periodMs,
      settleMs: this.settleMs,
      limit: 1_000_000,
    });
    if (closed.length === 0) return true;
    const last = closed[closed.length - 1]!;
    const busy = new Set(
      (await this.timed(() => busyWindows(this.deps.index, this.scope(), meter, { from: closed[0]!.start, to: last.end }, input.now))).map((d) => d.getTime()),
    );
    const toEvaluate = closed.filter((window) => busy.has(window.start.getTime()));
    if (!(await runWindowPipeline(this, toEvaluate, this.cursor?.totals ?? new Map(), settings.reportsPerCommit ?? MAX_REPORTS_PER_COMMIT))) return false;
    // Trailing empty windows: only the cursor moves.
    if (!this.cursor || this.cursor.nextWindowStart < last.end) await this.moveCursor(last.end);
    return true;
  }

  /** Renewing the lease each chunk keeps a long catch-up run from being taken over mid-way. */
  async mayContinue(): Promise<boolean> {
    return !this.outOfTime() && (await this.renewLease());
  }

  committed(group: WindowReports): void {
    this.context.counters.windowsEvaluated += 1;
    this.progress({ phase: 'window', window: group.window, reports: group.reports.length });
  }

  /** The cursor never moves back: a correction of an old window keeps it where it is. */
  nextAfter(window: UsageWindow): Date {
    const current = this.cursor?.nextWindowStart;
    return current && current > window.end ? current : window.end;
  }

  private async lateCorrections(): Promise<boolean> {
    const { tenant, meter } = this;
    const cursorAt = this.cursor?.nextWindowStart;
    if (!cursorAt) return true;
    const marks = await this.deps.lateWindows.marksBetween(tenant.orgId, tenant.appId, new Date(this.context.input.now.getTime() - LATE_LOOKBACK_MS), cursorAt);
    const candidates = new Map<number, Date>();
    for (const mark of marks) {
      for (
        let t = windowContaining(mark.hourStart, meter.periodMs).start.getTime();
        t < mark.hourStart.getTime() + 3_600_000 && t + meter.periodMs <= cursorAt.getTime();
        t += meter.periodMs
      ) {
        candidates.set(t, new Date(Math.max(candidates.get(t)?.getTime() ?? 0, mark.lastIndexedAt.getTime())));
      }
    }
    for (const [start, lastIndexedAt] of [...candidates.entries()].sort((a, b) => a[0] - b[0])) {
      if (this.outOfTime()) return false;
      const header = await this.deps.reports.readHeader(tenant, meter.id, new Date(start));
      if (header && header.evaluatedAt >= lastIndexedAt) continue;
      const window = { start: new Date(start), end: new Date(start + meter.periodMs) };
      const previous = header ? await this.deps.reports.readWindow(tenant, meter.id, window.start) : undefined;
      // A version still on its way (pending, retrying) must reach the provider before a correction
      // supersedes it, or its quantity would be lost or counted twice; this window waits for a later run.
      if (previous?.reports.some(isOpen)) continue;
      const committed = await this.evaluate(window, previous, this.nextAfter(window));
      if (committed === 'conflict') throw new Error(`window ${window.start.toISOString()} changed during its re-evaluation`);
      this.context.counters.corrections += 1;
      this.progress({ phase: 'correction', window, reports: committed.reports.length });
      await this.deliver(committed);
    }
    return true;
  }

  private async redeliveries(): Promise<boolean> {
    const open = await this.deps.reports.openWindows(this.tenant, this.meter.id);
    for (const start of open) {
      if (this.handled.has(start.getTime())) continue;
      if (this.outOfTime()) return false;
      const group = await this.deps.reports.readWindow(this.tenant, this.meter.id, start);
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
  async buildMany(items: readonly WindowToBuild[], totals: Map<string, PeriodTotal>, maxReports = Number.POSITIVE_INFINITY): Promise<BuiltWindows> {
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
        tenant,
        meter,
        window: item.window,
        usage: attribute(usage, this.context.directory, meter),
        previous: new Map((item.previous?.reports ?? []).map((report) => [reportKeyOf(report), report])),
        totals,
        pricing: this.pricing,
        directory: this.context.directory,
        now,
        ...(this.cursor ? { finalThrough: this.cursor.nextWindowStart } : {}),
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
  async commitBuilt(built: BuiltWindows, nextWindowStart: Date): Promise<WindowReports[] | 'conflict'> {
    const { tenant, meter } = this;
    const { groups, totals, changed, unattributed } = built;
    let written: { generation: string; shards: number } | undefined;
    const now = this.clock();
    const committed = await this.deps.reports.commitWindows(
      groups.map((g) => ({ tenant, meterId: meter.id, window: g.window, reports: g.reports, previous: g.previous, evaluatedAt: g.evaluatedAt, now })),
      {
        // Totals shards are written alongside the report shards; the cursor in the transaction points at them.
        extraItems: async () => {
          written = await this.deps.runState.writeTotals(tenant, meter.id, totals);
          return [
            this.deps.runState.cursorPut(
              tenant,
              meter.id,
              { nextWindowStart, totalsGeneration: written.generation, totalsShards: written.shards },
              this.cursor,
              now,
            ),
          ];
        },
        background: this.background,
      },
    );
    if (committed === 'conflict') {
      if (written) await this.deps.runState.deleteTotals(tenant, meter.id, written.generation, written.shards);
      return committed;
    }
    this.background(this.deps.runState.deleteTotals(tenant, meter.id, this.cursor?.totalsGeneration ?? null, this.cursor?.totalsShards ?? 0));
    if (!written) throw new Error('totals were not written');
    this.cursor = { nextWindowStart, revision: (this.cursor?.revision ?? 0) + 1, totalsGeneration: written.generation, totalsShards: written.shards, totals };
    this.context.counters.reportsWritten += changed;
    this.context.counters.unattributed += unattributed;
    for (const group of committed) this.context.hooks.faults?.afterWindowCommit?.(meter.id, group.window);
    return committed;
  }

  async fetchUsage(window: UsageWindow): Promise<{ startedAt: Date; usage: WindowUsage }> {
    const startedAt = this.clock();
    return { startedAt, usage: await this.timed(() => this.usageOf(window)) };
  }

  private usageOf(window: UsageWindow): Promise<WindowUsage> {
    return meterWindowUsage(this.deps.index, this.scope(), this.meter, window, this.context.input.now, this.context.directory);
  }

  private async moveCursor(nextWindowStart: Date): Promise<void> {
    await this.deps.runState.moveCursor(
      this.tenant,
      this.meter.id,
      { nextWindowStart, totalsGeneration: this.cursor?.totalsGeneration ?? null, totalsShards: this.cursor?.totalsShards ?? 0 },
      this.cursor,
      this.clock(),
    );
    this.cursor = {
      ...(this.cursor ?? { totalsGeneration: null, totalsShards: 0, totals: new Map() }),
      nextWindowStart,
      revision: (this.cursor?.revision ?? 0) + 1,
    };
  }

  /**
   * Delivers the group's open reports and queues their outcomes (a second, header-only commit of the
   * group, made with other windows' by recordOutcomes). `built`: the reports were built by this run (their idempotency keys are current); `stored`: read back.
   */
  async deliver(group: WindowReports, origin: 'built' | 'stored' = 'built'): Promise<void> {
    const { window } = group;
    this.handled.add(window.start.getTime());
    if (!group.reports.some(isOpen)) return;
    const prepared = await this.deliverAndPrepare(group, origin);
    // Recorded with other windows' outcomes (recordOutcomes); a failed commit is kept for it to throw.
    this.outcomeCommits.push(
      this.outcomes.add(prepared).then(
        (committed) => {
          // Lost to a concurrent writer: the outcomes are at the providers (idempotent); the next run resends and records them.
          if (committed === 'conflict') this.progress({ phase: 'redelivery', window, detail: 'outcome write lost a race; the next run records it' });
        },
        (error: unknown) => {
          this.outcomeFailure ??= { error };
        },
      ),
    );
  }

  /** Commits the outcomes of every window delivered so far; throws if one of their commits failed. */
  private async recordOutcomes(): Promise<void> {
    await this.outcomes.flush();
    await Promise.all(this.outcomeCommits.splice(0));
    if (this.outcomeFailure) throw this.outcomeFailure.error;
  }

  /**
   * Sends the group's open reports and encodes the outcome commit at once: what then waits for its
   * turn in the outcome queue is a header item of a few KB. Delivered copies of the reports are never
   * made: the overlay is written from what delivery set on each report.
   */
  private async deliverAndPrepare(group: WindowReports, origin: 'built' | 'stored'): Promise<PreparedOutcomes> {
    const delivery = await this.deliveryDeps();
    const drawn = await this.draws.run(() => drawBalances(delivery, group.reports));
    const result = await deliverReports(delivery, drawn, { keysBuiltThisRun: origin === 'built' });
    const { counters, hooks } = this.context;
    counters.delivered += result.delivered;
    counters.failed += result.failed;
    counters.retrying += result.retrying;
    hooks.faults?.afterDelivery?.(this.meter.id, group.window);
    // Outcomes are an overlay on the group's header (no shard rewrite), committed with other windows' outcomes.
    return this.deps.reports.prepareOutcomes(
      { tenant: this.tenant, previous: group, delivered: result.outcomes, now: this.clock(), background: this.background },
      { keepGroup: false },
    );
  }

  private deliveryDeps(): Promise<DeliveryDeps> {
    this.delivery ??= deliveryDepsFor(this.context);
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
      this.context.counters.queryMs += Date.now() - started;
    }
  }

  private progress(progress: Omit<BillingProgress, 'tenant' | 'meterId'>): void {
    this.context.input.onProgress?.({ tenant: this.tenant, meterId: this.meter.id, ...progress });
  }
}
