import { TaskLane } from '../../shared/concurrency';
import type { PreparedOutcomes, WindowReports } from '../reports/report-store';

export type OutcomeCommitResult = WindowReports | 'committed' | 'conflict';

interface Waiting {
  readonly prepared: PreparedOutcomes;
  readonly resolve: (result: OutcomeCommitResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Delivery outcomes of windows, committed `maxPerCommit` windows to a transaction (each group still
 * conditioned on its own revision), one transaction at a time; `flush` commits what is left. A
 * transaction costs the database about as much for one window as for many, and a run delivers
 * windows by the thousand. Outcomes not yet committed when a run stops are harmless: those reports
 * are still pending in storage, and the next run resends them with the same idempotency keys.
 */
export class OutcomeCommitQueue {
  private readonly waiting: Waiting[] = [];
  private readonly lane = new TaskLane(1);

  constructor(
    private readonly commit: (batch: readonly PreparedOutcomes[]) => Promise<OutcomeCommitResult[]>,
    private readonly maxPerCommit: number,
  ) {}

  /** Resolves with this window's result once the batch it went in with is committed. */
  add(prepared: PreparedOutcomes): Promise<OutcomeCommitResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ prepared, resolve, reject });
      if (this.waiting.length >= this.maxPerCommit) void this.lane.run(() => this.commitBatch());
    });
  }

  /** Commits every outcome added so far; resolves once those commits (and any before them) have finished. */
  flush(): Promise<void> {
    return this.lane.run(async () => {
      while (this.waiting.length > 0) await this.commitBatch();
    });
  }

  private async commitBatch(): Promise<void> {
    const batch = this.waiting.splice(0, this.maxPerCommit);
    if (batch.length === 0) return;
    try {
      const results = await this.commit(batch.map((entry) => entry.prepared));
      batch.forEach((entry, i) => entry.resolve(results[i]!));
    } catch (error) {
      batch.forEach((entry) => entry.reject(error));
    }
  }
}
