import type { Client } from '@opensearch-project/opensearch';
import type { IndexDocument } from '../../functions/search/port';
import { DEFAULT_SEARCH_DATASET, hourlyDocuments, populationOf, seededRandom } from './search-dataset-model';
import type { createOpenSearchIndex } from './api-search';
import { timeMs } from './timing';

type CreateIndex = typeof createOpenSearchIndex;

/** Issue target for the consumer's bulk path into OpenSearch on the local node, idle machine. */
export const INGEST_TARGET_EVENTS_PER_SECOND = 10_000;
/** Events written per run: the documents are built before the clock starts, so this many fit in memory. */
const INGESTED_EVENTS = 150_000;
/** What the consumer hands the index in one write (a Kinesis batch's events). */
const WRITE = 20_000;
const PREFIX = 'bench-ingest-';

export interface IngestRun {
  readonly inFlight: number;
  readonly events: number;
  readonly seconds: number;
  readonly eventsPerSecond: number;
}

/**
 * The adapter's bulk path alone: the search bench's events, built first, written into fresh indices
 * of the node in writes of 20,000 as the consumer writes them, with one and with two bulk requests
 * in flight. (The indexing of the whole data set also pays for generating it in the same process.)
 *
 * A warm-up write of the same events comes first and is reported apart: the node's JVM compiles its
 * indexing path over the first tens of thousands of documents (its first 150,000 took 30 s more CPU
 * than the next in a probe), which a consumer's long-running node has long done. `createIndex` is
 * the adapter as the bench loaded it (as shipped: shipped-code.ts).
 */
export async function benchOpenSearchIngest(createIndex: CreateIndex, client: Client, anchor: Date, log: (line: string) => void): Promise<IngestRun[]> {
  const spec = DEFAULT_SEARCH_DATASET;
  const random = seededRandom(spec.seed);
  const documents: IndexDocument[] = [];
  for (const hour of hourlyDocuments(spec, anchor, populationOf(spec, random), random)) {
    documents.push(...hour);
    if (documents.length >= INGESTED_EVENTS) break;
  }
  documents.length = Math.min(documents.length, INGESTED_EVENTS);
  const warmUp = await timedWrite(createIndex, client, documents, 2);
  log(
    `  bulk ingest warm-up (the node's first indexing since it started, two in flight): ${Math.round(warmUp.eventsPerSecond).toLocaleString('en')} events/s, not counted`,
  );
  const runs: IngestRun[] = [];
  for (const inFlight of [1, 2]) {
    const run = await timedWrite(createIndex, client, documents, inFlight);
    runs.push(run);
    log(
      `  bulk ingest, ${inFlight} request${inFlight > 1 ? 's' : ''} in flight: ${run.events.toLocaleString('en')} events in ${run.seconds.toFixed(1)} s, ${Math.round(run.eventsPerSecond).toLocaleString('en')} events/s (target ≥ ${INGEST_TARGET_EVENTS_PER_SECOND.toLocaleString('en')})`,
    );
  }
  await client.indices.delete({ index: `${PREFIX}*`, ignore_unavailable: true, allow_no_indices: true });
  return runs;
}

/** Writes the documents into fresh indices as the consumer does, timed. */
async function timedWrite(createIndex: CreateIndex, client: Client, documents: readonly IndexDocument[], inFlight: number): Promise<IngestRun> {
  await client.indices.delete({ index: `${PREFIX}*`, ignore_unavailable: true, allow_no_indices: true });
  const index = createIndex({ client, indexPrefix: PREFIX, replicas: 0, bulkLimits: { maxBytes: 5 * 1024 * 1024, maxDocuments: 1000, inFlight } });
  await index.ensureReady();
  const ms = await timeMs(async () => {
    for (let start = 0; start < documents.length; start += WRITE) {
      const outcome = await index.index(documents.slice(start, start + WRITE));
      if (outcome.failures.length > 0) throw new Error(`ingest bench: ${outcome.failures.length} documents failed: ${outcome.failures[0]!.reason}`);
    }
  });
  return { inFlight, events: documents.length, seconds: ms / 1000, eventsPerSecond: documents.length / (ms / 1000) };
}
