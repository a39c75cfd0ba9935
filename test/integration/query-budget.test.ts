import { eventDocument } from '../../functions/search/index-documents';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Every query of the API runs within a budget: a time limit (504 past it), the org's concurrent
 * queries (429 with Retry-After past them), and the caller's connection (a query whose caller
 * hung up is stopped, and its slot and DuckDB connection are free at once).
 */

// 400 text wildcards over 40,000 events: about 15 s of DuckDB work (under a second per chunk of 2,048 rows).
const slowQuery = { size: 0, query: { bool: { should: Array.from({ length: 400 }, (_, k) => ({ wildcard: { 'request.uri': `*${k}x*` } })) } } };
const quickQuery = { size: 0, query: { term: { 'request.verb': 'GET' } } };

/** A runtime whose one org may run one query at once, with 40,000 events written straight into its index. */
function budgetedRuntime(timeMs: number): () => TestRuntime {
  let rt: TestRuntime | undefined;
  beforeAll(async () => {
    rt = await startTestRuntime('query-budget', { queryBudget: { timeMs, concurrentPerOrg: 1 } });
    const scope = { org_id: rt.credentials.org_id, app_id: rt.credentials.app_id };
    const start = Date.now() - 3_600_000;
    // The pipeline is not what this suite tests, and 40,000 events through it take over a minute.
    for (let batch = 0; batch < 40; batch += 1) {
      const documents = Array.from({ length: 1000 }, (_, k) => {
        const i = batch * 1000 + k;
        const time = new Date(start + i * 50).toISOString();
        return eventDocument(scope, 'event', {
          id: `e${i}`,
          time,
          received_at: time,
          data: { request: { time, uri: `https://api.example.com/items/${i}/orders/${i % 97}?page=${i % 7}`, verb: 'GET' }, response: { time, status: 200 } },
        });
      });
      await rt.index.index(documents);
    }
  });
  afterAll(() => rt?.dispose());
  return () => rt!;
}

function client(runtime: () => TestRuntime) {
  const post = (body: unknown, signal?: AbortSignal) =>
    fetch(`${runtime().credentials.management_url}/search/~/search/events?from=-1d&to=now`, {
      method: 'POST',
      headers: { authorization: `Bearer ${runtime().credentials.management_token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  /** The quick query's status once it is 200, or the last one when the time runs out. */
  const statusWithin = async (ms: number): Promise<number> => {
    const until = Date.now() + ms;
    let status = 0;
    do {
      status = (await post(quickQuery)).status;
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } while (Date.now() < until);
    return status;
  };
  return { post, statusWithin };
}

describe('query budget: time', () => {
  const rt = budgetedRuntime(4_000);
  const { post, statusWithin } = client(rt);

  it('answers a quick query within the budget', async () => {
    const res = await post(quickQuery);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { hits: { total: number } }).hits.total).toBe(40_000);
  });

  it('stops a query at its time budget with a 504 naming it', async () => {
    const res = await post(slowQuery);
    expect(res.status).toBe(504);
    const body = (await res.json()) as { error: { code: string; message: string; details: { field: string }[] } };
    expect(body.error.code).toBe('query_timeout');
    expect(body.error.message).toMatch(/time budget of 4000 ms/);
    expect(body.error.details).toEqual([{ field: 'query', reason: 'ran over 4000 ms' }]);
    // The slot comes back once DuckDB has stopped (it notices the interrupt between chunks of rows).
    expect(await statusWithin(10_000)).toBe(200);
  }, 60_000);
});

describe('query budget: concurrency and hung-up callers', () => {
  // A budget far beyond the slow query's own time, so only the hang-up can free its slot early.
  const rt = budgetedRuntime(28_000);
  const { post, statusWithin } = client(rt);

  it('refuses a query past the org`s concurrent queries with 429 and Retry-After, and frees the slot when its caller hangs up', async () => {
    const caller = new AbortController();
    const slow = post(slowQuery, caller.signal).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const refused = await post(quickQuery);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { error: { details: { field: string }[] } }).error.details[0]?.field).toBe('concurrent_queries');

    caller.abort();
    const abortedAt = Date.now();
    expect(((await slow) as Error).name).toBe('AbortError');
    // Interrupted at once: the slot is free within seconds, where the query alone runs about 15 s (and the budget 28 s).
    expect(await statusWithin(8_000)).toBe(200);
    expect(Date.now() - abortedAt).toBeLessThan(8_000);
  }, 60_000);
});
