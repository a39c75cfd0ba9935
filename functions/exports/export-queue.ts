import { isServiceError } from '../shared/errors';
import { FINISHED, type ExportRef } from './export-jobs';
import { runExport, type ExportRunDeps, type ExportRunLimits } from './export-runner';

export interface ExportQueueSummary {
  /** Jobs a runner worked on (to completion or until the deadline). */
  readonly ran: number;
  /** Jobs whose files were deleted (expired, cancelled or failed) and which left the queue. */
  readonly cleared: number;
  readonly errors: readonly { ref: ExportRef; message: string }[];
}

/**
 * One pass over the export queue: runs queued jobs and continues running ones whose runner is gone
 * (lease expired), deletes the parts of expired, cancelled and failed jobs and takes them off the
 * queue. Locally a timer (and every new job) calls it; on AWS a scheduled Lambda does, every minute.
 */
export async function processExportQueue(deps: ExportRunDeps, limits: ExportRunLimits = {}): Promise<ExportQueueSummary> {
  let ran = 0;
  let cleared = 0;
  const errors: { ref: ExportRef; message: string }[] = [];
  for (const ref of await deps.jobs.queued()) {
    if (limits.deadline !== undefined && Date.now() >= limits.deadline) break;
    try {
      const job = await deps.jobs.get(ref).catch((error: unknown) => {
        // A job the app purge removed leaves only its queue item.
        if (isServiceError(error) && (error.status === 404 || error.status === 410)) return undefined;
        throw error;
      });
      const now = deps.now();
      const expired = job?.status === 'completed' && job.expires_at !== null && Date.parse(job.expires_at) <= now.getTime();
      if (!job || expired || (FINISHED.has(job.status) && job.status !== 'completed')) {
        await deps.files.deleteAll(ref);
        if (job && expired) await deps.jobs.update(ref, (current) => ({ ...current, status: 'expired', parts: [], lease_until: null }));
        await deps.jobs.dequeue(ref);
        cleared += 1;
        continue;
      }
      if (job.status === 'completed') continue;
      ran += 1;
      await runExport(deps, ref, limits);
    } catch (error) {
      errors.push({ ref, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return { ran, cleared, errors };
}
