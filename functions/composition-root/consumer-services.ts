import { createConsumerHandler, type ConsumerHandler } from '../ingest/consumer/consumer-handler';
import type { CallerEnricher } from '../enrichment';
import type { SearchIndex } from '../search/port';
import type { MetricsSink } from '../shared/metrics';
import type { IngestStores } from './ingest-stores';

/** The stream consumer, wired from the stores, the search index and the caller enricher. */
export function consumerHandler(stores: IngestStores, index: SearchIndex, metrics: MetricsSink, callers: CallerEnricher): ConsumerHandler {
  return createConsumerHandler({
    dedup: stores.dedup,
    profiles: stores.profiles,
    index,
    archive: stores.archive,
    quarantine: stores.quarantine,
    lateWindows: stores.lateWindows,
    ethAbis: stores.ethAbis,
    routeTemplates: stores.apps,
    callers,
    metrics,
  });
}
