import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDuckDbSearchIndex } from '../../functions/search/duckdb/duckdb-index';
import { eventDocument } from '../../functions/search/index-documents';
import type { IndexDocument, IndexOutcome } from '../../functions/search/port';
import { realisticEvent } from './fixtures';
import { median, timeMs, trackPeakRss } from './timing';

/** A write of this many events is what each rate is measured on. */
const WRITE_EVENTS = 20_000;
/** The write rate the embedded index keeps, at any size. */
export const INDEX_WRITE_TARGETS = { eventsPerSecond: 20_000, lateToEarlyRatio: 1 } as const;

export interface IndexWritesResult {
  readonly events: number;
  /** Median events/s of the 20 k-event writes of the first tenth (a nearly empty file) and of the last tenth. */
  readonly firstEventsPerSecond: number;
  readonly lastEventsPerSecond: number;
  /** All events over all the writes' time, checkpoints included. */
  readonly overallEventsPerSecond: number;
  /** Events/s per 20 k-event write, at each tenth of the data. */
  readonly rates: { readonly stored: number; readonly eventsPerSecond: number }[];
  /** The process's peak resident memory while writing (DuckDB runs inside it). */
  readonly peakRssMb: number;
}

/**
 * The embedded index's write rate as it fills: `events` realistic API calls over 30 days, written
 * through the DuckDB adapter's own `index()` in writes of 20 k, as the consumer writes them. Reports
 * the rate into an empty file and into a full one, and the peak RSS.
 */
export async function benchIndexWrites(options: { events?: number; log?: (line: string) => void } = {}): Promise<IndexWritesResult> {
  const events = options.events ?? 1_000_000;
  const log = options.log ?? (() => {});
  const dir = await mkdtemp(join(tmpdir(), 'uab-writes-'));
  const rss = trackPeakRss();
  const index = await createDuckDbSearchIndex({ path: join(dir, 'search.duckdb') });
  try {
    const scope = { org_id: 'org_bench', app_id: 'app_writes' };
    const end = Date.now();
    const span = 30 * 86_400_000;
    const rates: { stored: number; eventsPerSecond: number }[] = [];
    const all: { stored: number; eventsPerSecond: number }[] = [];
    let totalMs = 0;
    const every = Math.max(1, Math.floor(events / WRITE_EVENTS / 10));
    for (let written = 0, write = 0; written < events; write += 1) {
      const size = Math.min(WRITE_EVENTS, events - written);
      // Events arrive roughly in time order, as a live stream brings them.
      const documents: IndexDocument[] = Array.from({ length: size }, (_, i) => {
        const n = written + i;
        const at = new Date(end - span + Math.floor((n / events) * span));
        const data = realisticEvent(n, at);
        const time = (data.request as { time: string }).time;
        return eventDocument(scope, 'event', { id: randomUUID(), time, received_at: time, data });
      });
      let outcome: IndexOutcome | undefined;
      const ms = await timeMs(async () => {
        outcome = await index.index(documents);
      });
      // A write that failed would look fast: every event must be stored.
      if (outcome?.written !== size)
        throw new Error(`write of ${size} events stored ${outcome?.written}: ${outcome?.failures[0]?.reason ?? 'no reason given'}`);
      const rate = (size / ms) * 1000;
      totalMs += ms;
      all.push({ stored: written, eventsPerSecond: rate });
      if (write % every === 0 || written + size >= events) {
        rates.push({ stored: written, eventsPerSecond: rate });
        log(
          `  ${written.toLocaleString('en')} stored: ${Math.round(rate).toLocaleString('en')} events/s, RSS ${Math.round(process.memoryUsage().rss / 1e6)} MB`,
        );
      }
      written += size;
    }
    const tenth = (from: number, to: number) => median(all.filter((w) => w.stored >= from * events && w.stored < to * events).map((w) => w.eventsPerSecond));
    return {
      events,
      firstEventsPerSecond: tenth(0, 0.1),
      lastEventsPerSecond: tenth(0.9, 1),
      overallEventsPerSecond: (events / totalMs) * 1000,
      rates,
      peakRssMb: rss.stop(),
    };
  } finally {
    rss.stop();
    await index.close();
    await rm(dir, { recursive: true, force: true });
  }
}
