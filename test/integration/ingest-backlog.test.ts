import type { IndexDocument, SearchableIndex } from '../../functions/search/port';
import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/**
 * The local ingest backlog: while the consumer cannot keep up (here: its index writes are held), the
 * backlog shows the records waiting and their age; past the limit the collector answers 503 with
 * Retry-After and acknowledges nothing; once the backlog drains, it accepts again and everything
 * acknowledged is searchable, once.
 */
describe('ingest backlog', () => {
  let rt: TestRuntime;
  let release: () => void = () => {};
  let held: Promise<void> = Promise.resolve();
  const hold = () => {
    held = new Promise((resolve) => {
      release = resolve;
    });
  };
  const wrap = (inner: SearchableIndex): SearchableIndex =>
    Object.assign(Object.create(inner) as SearchableIndex, {
      async index(documents: readonly IndexDocument[]) {
        await held;
        return inner.index(documents);
      },
    });
  const LIMIT_MS = 1_500;

  beforeAll(async () => {
    rt = await startTestRuntime('ingest-backlog', { wrapSearchIndex: wrap, ingestBacklogLimitMs: LIMIT_MS });
  });
  afterAll(async () => {
    release();
    await rt?.dispose();
  });

  const backlog = async () =>
    (await rt.management('GET', '/~/ingest/backlog')).body as {
      measured: boolean;
      records: number;
      oldest_age_ms: number | null;
      limit_ms: number;
      accepting: boolean;
    };

  it('rises under a burst the consumer cannot take, refuses past the limit with 503 and Retry-After, and drains', async () => {
    expect(await backlog()).toMatchObject({ measured: true, records: 0, oldest_age_ms: null, limit_ms: LIMIT_MS, accepting: true });
    hold();
    for (let batch = 0; batch < 3; batch += 1) {
      const events = Array.from({ length: 50 }, (_, i) => apiCall({ transaction_id: uuid(1000 + batch * 50 + i) }));
      expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    }
    const rising = await backlog();
    expect(rising.records).toBeGreaterThanOrEqual(3);
    expect(rising.accepting).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, LIMIT_MS + 200));
    const past = await backlog();
    expect(past.oldest_age_ms).toBeGreaterThan(LIMIT_MS);
    expect(past.accepting).toBe(false);

    const refused = await rt.collect('/v1/events', apiCall({ transaction_id: uuid(2000) }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'ingest_backlog' })]);

    release();
    await rt.waitUntilConsumed();
    expect(await backlog()).toMatchObject({ records: 0, oldest_age_ms: null, accepting: true });
    expect((await rt.collect('/v1/events', apiCall({ transaction_id: uuid(2001) }))).status).toBe(201);
    await rt.waitUntilConsumed();
    // The 150 of the burst and the one after: the refused event was never acknowledged, nor stored.
    expect(await rt.countEvents()).toBe(151);
    expect((await rt.management('GET', `/search/~/events/${uuid(2000)}`)).status).toBe(404);
  }, 60_000);
});
