import { generateSearchData, type SearchDatasetSpec } from '../../bin/bench/search-dataset';
import type { IndexDocument, IndexKind, IndexOutcome, SearchIndex, TenantScope } from '../../functions/search/port';

/**
 * The generator keeps one write in flight while it generates the next chunk: every document is
 * still written once, in order, one write at a time, and a failed write stops the generation with
 * its reason.
 */

const SPEC: SearchDatasetSpec = { events: 45_000, days: 3, users: 200, companies: 20, routes: 8, otherTenantEvents: 500, otherTenantUsers: 50, seed: 11 };
const ANCHOR = new Date('2026-11-25T05:30:00.000Z');

/** Records each write; answers counts from what it was given. `failOnWrite` makes that (1-based) event write fail. */
class RecordingIndex implements SearchIndex {
  readonly writes: IndexDocument[][] = [];
  maxConcurrent = 0;
  private running = 0;

  constructor(private readonly failOnWrite?: number) {}

  async ensureReady(): Promise<void> {}

  async index(documents: readonly IndexDocument[]): Promise<IndexOutcome> {
    this.running++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.running);
    try {
      // Answer on a later turn of the event loop, as a real index does.
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (documents[0]?.kind === 'events') {
        const eventWrites = this.writes.filter((write) => write[0]?.kind === 'events').length + 1;
        if (eventWrites === this.failOnWrite) return { written: 0, failures: [{ kind: 'events', id: documents[0].id, reason: 'disk full', retryable: true }] };
      }
      this.writes.push([...documents]);
      return { written: documents.length, failures: [] };
    } finally {
      this.running--;
    }
  }

  async count(scope: TenantScope, kind: IndexKind): Promise<number> {
    return this.writes.flat().filter((document) => document.kind === kind && document.app_id === scope.app_id).length;
  }

  async get(): Promise<undefined> {
    return undefined;
  }

  async refresh(): Promise<void> {}

  async attributeVisitor(): Promise<number> {
    return 0;
  }

  async compactSettled(): Promise<readonly string[]> {
    return [];
  }

  async close(): Promise<void> {}
}

test('every generated event is written once, in time order, one write at a time', async () => {
  const index = new RecordingIndex();
  await generateSearchData(index, SPEC, ANCHOR, () => {});
  const events = index.writes.flat().filter((document) => document.kind === 'events');
  expect(events).toHaveLength(SPEC.events + SPEC.otherTenantEvents);
  expect(new Set(events.map((document) => document.id)).size).toBe(events.length);
  expect(index.maxConcurrent).toBe(1);
  // Hour by hour (the generator's hours end at the anchor): no event is written before one of an earlier hour.
  const hours = events.map((document) => Math.floor((Date.parse(document.time) - ANCHOR.getTime()) / 3_600_000));
  expect(hours.every((hour, i) => i === 0 || hour >= hours[i - 1]!)).toBe(true);
});

test('a failed write stops the generation with its reason', async () => {
  await expect(generateSearchData(new RecordingIndex(2), SPEC, ANCHOR, () => {})).rejects.toThrow(/0 of 20000 written; first failure: disk full/);
});
