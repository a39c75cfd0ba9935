import type { PreparedOutcomes, WindowReports } from '../reports/report-store';

export type OutcomeCommitResult = WindowReports | 'committed' | 'conflict';

/**
 * Delivery outcomes of windows, committed one batch at a time: while a commit is in flight the
 * next outcomes queue, and the queue goes in as ONE transaction (each group still conditioned on
 * its own revision). Deliveries finish close together, so this saves writes.
 */
export class OutcomeCommitQueue {
  private readonly queue: { prepared: PreparedOutcomes; resolve: (result: OutcomeCommitResult) => void; reject: (error: unknown) => void }[] = [];
  private inFlight = false;

  constructor(
    private readonly commit: (batch: readonly PreparedOutcomes[]) => Promise<OutcomeCommitResult[]>,
    private readonly maxPerCommit: number,
  ) {}

  /** Resolves with this window's result once the batch it went in with is committed. */
  add(prepared: PreparedOutcomes): Promise<OutcomeCommitResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ prepared, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.inFlight || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.maxPerCommit);
    this.inFlight = true;
    this.commit(batch.map((entry) => entry.prepared)).then(
      (results) => batch.forEach((entry, i) => entry.resolve(results[i]!)),
      (error: unknown) => batch.forEach((entry) => entry.reject(error)),
    ).finally(() => {
      this.inFlight = false;
      this.pump();
    });
  }
}
