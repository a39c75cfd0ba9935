import { TaskLane } from '../../shared/concurrency';
import type { UsageWindow } from '../../../values/reporting-period';
import type { WindowReports } from '../reports/report-store';
import { MAX_INFLIGHT_DELIVERIES, MAX_REPORTS_PER_COMMIT, QUERIES_AHEAD, WINDOWS_PER_COMMIT } from './billing-run-types';
import type { PeriodTotal } from './run-state-store';
import type { WindowUsage } from './window-usage';
import type { BuiltWindows, WindowToBuild } from './meter-run-types';

/** What the pipeline asks of its meter's run (MeterRun implements it). */
export interface WindowPipelineSteps {
  /** Runs a window's usage query, noting when it started (the window's evaluated_at). */
  fetchUsage(window: UsageWindow): Promise<{ startedAt: Date; usage: WindowUsage }>;
  /** Builds reports for the windows in order, on `totals`; stops after the window that reaches `maxReports`. */
  buildMany(items: readonly WindowToBuild[], totals: Map<string, PeriodTotal>, maxReports: number): Promise<BuiltWindows>;
  /** Commits built windows with the totals and the cursor in one transaction. */
  commitBuilt(built: BuiltWindows, nextWindowStart: Date): Promise<WindowReports[] | 'conflict'>;
  /** The cursor after `window` (it never moves back). */
  nextAfter(window: UsageWindow): Date;
  /** Sends a committed window's reports and records the outcomes. */
  deliver(group: WindowReports): Promise<void>;
  /** Called once per committed window, before its delivery starts. */
  committed(group: WindowReports): void;
  /** False when the run must stop taking windows (time budget spent, lease lost). */
  mayContinue(): Promise<boolean>;
}

/**
 * A meter's new windows, pipelined: usage queries run ahead (QUERIES_AHEAD at a time, in window
 * order) while earlier windows are built; a chunk of windows is built while the chunk before it
 * commits; up to MAX_INFLIGHT_DELIVERIES committed windows deliver while later ones are evaluated.
 * Commits stay one after the other, in window order, and each window is committed before its
 * delivery starts, so a crash anywhere leaves the previous state or the committed windows.
 *
 * Returns false when the run stopped early (the next run continues from the cursor).
 */
export async function runWindowPipeline(
  steps: WindowPipelineSteps,
  windows: readonly UsageWindow[],
  startTotals: ReadonlyMap<string, PeriodTotal>,
  reportsPerCommit: number = MAX_REPORTS_PER_COMMIT,
): Promise<boolean> {
  const queries = new TaskLane(QUERIES_AHEAD);
  const usages = new Map<number, Promise<{ startedAt: Date; usage: WindowUsage }>>();
  let queued = 0;
  // Queries are queued two chunks ahead: enough to keep the lane full, few enough to hold little usage in memory.
  const queueQueries = (upTo: number) => {
    for (; queued < Math.min(upTo, windows.length); queued += 1) {
      const window = windows[queued]!;
      usages.set(
        queued,
        queries.run(() => steps.fetchUsage(window)),
      );
    }
  };

  const deliveries: Promise<void>[] = [];
  const commitAndDeliver = async (built: BuiltWindows, chunk: readonly UsageWindow[]) => {
    const committed = await steps.commitBuilt(built, steps.nextAfter(chunk[chunk.length - 1]!));
    if (committed === 'conflict') throw new Error(`windows from ${chunk[0]!.start.toISOString()} were committed by another run`);
    for (const group of committed) {
      steps.committed(group);
      deliveries.push(steps.deliver(group));
      if (deliveries.length >= MAX_INFLIGHT_DELIVERIES) await deliveries.shift();
    }
  };

  let finished = true;
  let offset = 0;
  let totals: ReadonlyMap<string, PeriodTotal> = startTotals;
  // The chunk being committed (its windows then queued for delivery).
  let committing: Promise<void> | undefined;
  let failure: unknown;
  try {
    while (offset < windows.length) {
      if (!(await steps.mayContinue())) {
        finished = false;
        break;
      }
      queueQueries(offset + 2 * WINDOWS_PER_COMMIT);
      const items = windows.slice(offset, offset + WINDOWS_PER_COMMIT).map((window, i) => ({ window, previous: undefined, usage: usages.get(offset + i)! }));
      // Built on the totals the previous chunk leaves (a copy: that chunk's commit still writes its own).
      const built = await steps.buildMany(items, new Map(totals), reportsPerCommit);
      const chunk = built.groups.map((group) => group.window);
      for (let i = offset; i < offset + chunk.length; i += 1) usages.delete(i);
      offset += chunk.length;
      totals = built.totals;
      await committing;
      committing = commitAndDeliver(built, chunk);
    }
    await committing;
  } catch (error) {
    failure = error;
  }
  // Queries no window will build are let go (their failures are nobody's to report).
  for (const pending of usages.values()) pending.catch(() => undefined);
  // A chunk still committing (the loop failed while building the next one) settles before deliveries are awaited.
  if (committing) await committing.catch(() => undefined);
  const settled = await Promise.allSettled(deliveries);
  const deliveryFailure = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure !== undefined) throw failure;
  if (deliveryFailure) throw deliveryFailure.reason;
  return finished;
}
