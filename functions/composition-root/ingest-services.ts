import { createCollectorHandler } from '../routers/collector-api';
import { createConsumerHandler, type ConsumerHandler } from '../ingest/consumer/consumer-handler';
import { createUploadHandler } from '../ingest/uploads/upload-handler';
import type { UploadProcessorDeps } from '../ingest/uploads/process-upload';
import type { SearchIndex } from '../search/port';
import type { HttpHandler } from '../shared/http/handler';
import type { MetricsSink } from '../shared/metrics';
import type { IngestStores } from './ingest-stores';

/** The ingest side, wired from the stores: the collector API, the upload processor, the stream consumer. */

export function collectorHandler(stores: IngestStores, region: string): HttpHandler {
  return createCollectorHandler({ apps: stores.apps, rules: stores.rules, publisher: stores.publisher, uploads: stores.uploads, region });
}

export function uploadProcessorDeps(stores: IngestStores): UploadProcessorDeps {
  return { apps: stores.apps, uploads: stores.uploads, publisher: stores.publisher, now: stores.now };
}

export function uploadProcessor(stores: IngestStores): ReturnType<typeof createUploadHandler> {
  return createUploadHandler(uploadProcessorDeps(stores));
}

export function consumerHandler(stores: IngestStores, index: SearchIndex, metrics: MetricsSink): ConsumerHandler {
  return createConsumerHandler({
    dedup: stores.dedup,
    profiles: stores.profiles,
    index,
    archive: stores.archive,
    quarantine: stores.quarantine,
    lateWindows: stores.lateWindows,
    ethAbis: stores.ethAbis,
    routeTemplates: stores.apps,
    metrics,
  });
}
