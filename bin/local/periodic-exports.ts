import { processExportQueue, type ExportQueueSummary } from '../../functions/exports/export-queue';
import type { ExportRunDeps, ExportRunLimits } from '../../functions/exports/export-runner';

/**
 * The local runtime's stand-in for the scheduled export worker: a pass over the export queue every
 * `intervalMs` (0: no timer), and one at once when a job is created (`kick`). Passes never overlap;
 * a kick during a pass runs another right after it.
 */
export interface LocalExports {
  kick(): void;
  /** One pass now (after any in progress); resolves with its summary. */
  runOnce(): Promise<ExportQueueSummary>;
  stop(): Promise<void>;
}

export function startLocalExports(deps: ExportRunDeps, intervalMs: number, log: (line: string) => void, limits: ExportRunLimits = {}): LocalExports {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  const runOnce = () => {
    const next = chain.then(() => processExportQueue(deps, limits));
    chain = next.then(
      (summary) => summary.errors.forEach((e) => log(`export ${e.ref.id} (${e.ref.orgId}/${e.ref.appId}): ${e.message}`)),
      (error: unknown) => log(`export worker failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    return next;
  };
  const schedule = () => {
    if (stopped || intervalMs <= 0) return;
    timer = setTimeout(
      () =>
        void runOnce()
          .catch(() => undefined)
          .finally(schedule),
      intervalMs,
    );
    // The timer alone must not keep the process alive.
    timer.unref();
  };
  schedule();
  return {
    kick: () => {
      if (!stopped) void runOnce().catch(() => undefined);
    },
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await chain;
    },
  };
}
