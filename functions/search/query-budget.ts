import { abortable } from './abortable';
import { ClientClosedError, QueryTimeoutError } from '../shared/errors';
import type { FairShare } from '../rate-limit/fair-share';
import type { QuerySlots } from '../rate-limit/query-slots';

export interface QueryBudgetDeps {
  /** The org's concurrent queries (429 when all are taken). */
  readonly querySlots: Pick<QuerySlots, 'acquire'>;
  /** How long one query may run before it is stopped (504). */
  readonly queryTimeMs: number;
  /** The process's fair share of the engine: queries in flight bounded as a whole, served org by org. */
  readonly fairShare?: FairShare;
}

/**
 * Runs one query of the API within its budget: a slot of the org's concurrent queries (429 with
 * Retry-After when none is free), then a slot of the process's fair share of the engine, a time budget (stopped with 504 past it) and the caller's
 * connection (stopped when the caller hangs up). `work` gets the signal to hand to the backend
 * in its SearchContext; whatever the backend rejects with after the signal aborted, the signal's
 * reason is what the caller sees.
 */
export async function withinQueryBudget<T>(
  deps: QueryBudgetDeps,
  orgId: string,
  disconnected: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const slot = await deps.querySlots.acquire(orgId);
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(
      new QueryTimeoutError(`The query ran past its time budget of ${deps.queryTimeMs} ms and was stopped; narrow its time range or filters`, [
        { field: 'query', reason: `ran over ${deps.queryTimeMs} ms` },
      ]),
    );
  }, deps.queryTimeMs);
  const hungUp = () => controller.abort(new ClientClosedError('The client closed the connection; its query was stopped'));
  if (disconnected?.aborted) hungUp();
  else disconnected?.addEventListener('abort', hungUp, { once: true });
  // Waiting for the engine's fair share counts against the budget, and ends when the caller hangs up.
  const running = (async () => {
    const release = deps.fairShare ? await deps.fairShare.acquire(orgId, controller.signal) : undefined;
    try {
      return await work(controller.signal);
    } finally {
      release?.();
    }
  })();
  try {
    // The caller is answered as soon as the budget is spent, whenever the backend notices.
    return await abortable(controller.signal, running);
  } finally {
    clearTimeout(timer);
    disconnected?.removeEventListener('abort', hungUp);
    // The slot is freed once the work has really stopped (DuckDB notices an interrupt between chunks
    // of rows), so the bound counts what runs. One that cannot be deleted frees itself when its lease ends.
    const released = running
      .then(noop, noop)
      .then(() => slot.release())
      .catch((error: unknown) => console.error(JSON.stringify({ level: 'warn', message: 'could not release a query slot', error: String(error) })));
    if (!controller.signal.aborted) await released;
  }
}

const noop = (): void => undefined;
