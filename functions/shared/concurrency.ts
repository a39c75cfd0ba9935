/**
 * Runs `fn` over `items`, at most `limit` at a time, answers in the items' order. Items are taken
 * from the iterable only as a place frees, so items built lazily (a generator) are built while
 * earlier ones are still being worked on rather than all before the first starts.
 */
export async function mapWithConcurrency<T, R>(items: Iterable<T>, limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  const source = items[Symbol.iterator]();
  let next = 0;
  let exhausted = false;
  const worker = async () => {
    while (!exhausted) {
      const item = source.next();
      if (item.done === true) {
        exhausted = true;
        return;
      }
      const index = next++;
      results[index] = await fn(item.value, index);
    }
  };
  // At least one worker, whatever `limit` says (a limit of 0 would skip every item and answer
  // nothing); no more than an array has items; a lazy source is worked by all (each stops when it runs dry).
  const places = Math.max(1, limit);
  const workers = Array.isArray(items) ? Math.min(places, items.length) : places;
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs tasks in the order they are handed in, at most `limit` at a time: a later task starts only
 * when an earlier one has finished and freed its place. With a limit of 1 it is a serial queue.
 */
export class TaskLane {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a task lane needs a limit of at least 1, not ${limit}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running += 1;
    // The finishing task hands its place over directly, so `running` stays at the limit.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/**
 * An async sequence read one item ahead: the first item is asked for at once, and each next one as
 * soon as the one before is handed out, so the source (an engine's next page) works while the
 * caller handles the current item. A rejection is raised when its item is asked for, never as an
 * unhandled rejection of a read no one waits on.
 */
export function readAhead<T>(source: AsyncIterable<T>): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  const ask = () => {
    const read = iterator.next();
    read.catch(() => {});
    return read;
  };
  let pending = ask();
  return {
    async next() {
      const result = await pending;
      if (!result.done) pending = ask();
      return result;
    },
    async return(value?: unknown) {
      // Whatever is in flight settles first; then the source is closed (a generator's finally runs).
      await pending.catch(() => {});
      await iterator.return?.(value);
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
