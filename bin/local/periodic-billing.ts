import { readFile } from 'node:fs/promises';
import { runBilling, type BillingProgress, type BillingRunDeps, type BillingRunSummary } from '../../functions/billing/run/billing-run';
import { startScheduledTask } from './scheduled-task';

/**
 * The local runtime's stand-in for the EventBridge schedule of the billing run: one run every
 * `intervalMs` (a slow run delays the next instead of overlapping it), plus `runOnce` on demand
 * (`npm run billing -- --now`). Runs never overlap within the process; across processes the
 * per-meter lease keeps them apart.
 */
export interface LocalBilling {
  runOnce(options?: { now?: Date; timeBudgetMs?: number; onProgress?: (progress: BillingProgress) => void }): Promise<BillingRunSummary>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

export function startLocalBilling(deps: BillingRunDeps, intervalMs: number, log: (line: string) => void): LocalBilling {
  const run: LocalBilling['runOnce'] = (options = {}) =>
    runBilling({
      now: options.now ?? new Date(),
      deps,
      ...(options.timeBudgetMs ? { timeBudgetMs: options.timeBudgetMs } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
  const task = startScheduledTask(() => run(), intervalMs, {
    onResult: (summary) => {
      if (summary.windowsEvaluated + summary.corrections + summary.delivered + summary.failed > 0) {
        log(`billing run: ${summaryLine(summary)}`);
        // Said with the runs that evaluated windows, not every minute.
        summary.warnings.forEach((w) => log(`  ${warningLine(w)}`));
      }
      summary.errors.forEach((e) => log(`billing of meter ${e.meterId} (${e.tenant.orgId}/${e.tenant.appId}) failed: ${e.message}`));
    },
    onError: (error) => log(`billing run failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  return { runOnce: (options = {}) => task.runExclusive(() => run(options)), stop: () => task.stop() };
}

export function summaryLine(s: BillingRunSummary): string {
  return `${s.meters} meters, ${s.windowsEvaluated} windows, ${s.corrections} corrections, ${s.reportsWritten} reports written, ${s.delivered} delivered, ${s.retrying} retrying, ${s.failed} failed, ${s.unattributed} unattributed, ${s.errors.length} errors, ${s.warnings.length} warnings in ${s.durationMs} ms (queries ${s.queryMs} ms)${s.complete ? '' : ' — time budget reached, continues next run'}`;
}

export function warningLine(w: BillingRunSummary['warnings'][number]): string {
  return `meter "${w.meterName}" (${w.meterId}): ${w.message}`;
}

/** Local provider connections: `<data dir>/billing-providers.json` (same document as the AWS secret); none when absent. */
export async function localProviderDocument(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}
