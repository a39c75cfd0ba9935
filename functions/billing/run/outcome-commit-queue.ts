import { TaskLane } from '../../shared/concurrency';
import type { PreparedOutcomes, WindowReports } from '../reports/report-store';

export type OutcomeCommitResult = WindowReports | 'committed' | 'conflict';

interface Waiting {
  readonly prepared: PreparedOutcomes;
  readonly resolve: (result: OutcomeCommitResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Delivery outcomes of windows, committed one batch at a time: while a commit is in flight the
 * next outcomes wait, and what waits goes in as ONE transaction (each group still conditioned on
 * its own revision). Deliveries finish close together, so this saves writes.
 */
export class OutcomeCommitQueue {
  private readonly waiting: Waiting[] = [];
  private readonly lane = new TaskLane(1);
  /** A commit is queued on the lane and has not yet taken its batch. */
  private queued = false;

  constructor(
    private readonly commit: (batch: readonly PreparedOutcomes[]) => Promise<OutcomeCommitResult[]>,
    private readonly maxPerCommit: number,
  ) {}

  /** Resolves with this window's result once the batch it went in with is committed. */
  add(prepared: PreparedOutcomes): Promise<OutcomeCommitResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ prepared, resolve, reject });
      this.queueCommit();
    });
  }

  private queueCommit(): void {
    if (this.queued) return;
    this.queued = true;
    void this.lane.run(() => this.commitWaiting());
  }

  private async commitWaiting(): Promise<void> {
    this.queued = false;
    const batch = this.waiting.splice(0, this.maxPerCommit);
    if (batch.length === 0) return;
    // More than one transaction's worth waited: the rest goes in the next commit.
    if (this.waiting.length > 0) this.queueCommit();
    try {
      const results = await this.commit(batch.map((entry) => entry.prepared));
      batch.forEach((entry, i) => entry.resolve(results[i]!));
    } catch (error) {
      batch.forEach((entry) => entry.reject(error));
    }
  }
}
