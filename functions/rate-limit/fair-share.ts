/**
 * A fair share of the search engine within one process: at most `capacity` queries run at once, and
 * when one ends the next slot goes to the waiting org with the fewest queries running (the org that
 * waited longest among equals), not to whoever queued first. An org flooding the engine with heavy
 * searches then holds at most what the others leave idle, and a quiet org's query waits for one slot
 * at most, instead of behind the whole flood. The per-org concurrent-query limit (query-slots.ts)
 * still bounds each org across every instance; this bounds the work in flight as a whole.
 */

/** A slot taken: give it back when the query ends, whichever way. */
export type FairShareRelease = () => void;

interface Waiter {
  readonly grant: (release: FairShareRelease) => void;
}

export class FairShare {
  private readonly running = new Map<string, number>();
  /** Orgs with queries waiting, in the order they will be served among equals (served ones move to the back). */
  private readonly waiting = new Map<string, Waiter[]>();
  private inFlight = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`a fair share needs a positive capacity, got ${capacity}`);
  }

  /** Waits for a slot for the org's query; a signal that aborts while it waits gives up its place. */
  acquire(orgId: string, signal?: AbortSignal): Promise<FairShareRelease> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.inFlight < this.capacity && this.waiting.size === 0) return Promise.resolve(this.start(orgId));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener('abort', giveUp);
          resolve(release);
        },
      };
      const giveUp = () => {
        const queue = this.waiting.get(orgId) ?? [];
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        if (queue.length === 0) this.waiting.delete(orgId);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', giveUp, { once: true });
      this.waiting.set(orgId, [...(this.waiting.get(orgId) ?? []), waiter]);
      this.serve();
    });
  }

  /** Queries running now for the org (tests and logs). */
  runningOf(orgId: string): number {
    return this.running.get(orgId) ?? 0;
  }

  private start(orgId: string): FairShareRelease {
    this.inFlight += 1;
    this.running.set(orgId, this.runningOf(orgId) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
      const left = this.runningOf(orgId) - 1;
      if (left === 0) this.running.delete(orgId);
      else this.running.set(orgId, left);
      this.serve();
    };
  }

  private serve(): void {
    while (this.inFlight < this.capacity && this.waiting.size > 0) {
      let chosen: string | undefined;
      for (const orgId of this.waiting.keys()) if (chosen === undefined || this.runningOf(orgId) < this.runningOf(chosen)) chosen = orgId;
      const queue = this.waiting.get(chosen!)!;
      const waiter = queue.shift()!;
      // Served: the org goes to the back of the line among orgs running as many queries.
      this.waiting.delete(chosen!);
      if (queue.length > 0) this.waiting.set(chosen!, queue);
      waiter.grant(this.start(chosen!));
    }
  }
}
