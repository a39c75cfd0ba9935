/**
 * Runs tasks one after another, in call order. A DuckDB connection runs one statement at a time,
 * and a write is several statements (look up, append, commit; or stage, merge, clear) that must not interleave.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    // A failed task must not block the ones queued behind it.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
