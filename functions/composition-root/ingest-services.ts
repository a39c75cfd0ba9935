import { createCollectorHandler } from '../routers/collector-api';
import { createUploadHandler } from '../ingest/uploads/upload-handler';
import type { UploadProcessorDeps } from '../ingest/uploads/process-upload';
import type { HttpHandler } from '../shared/http/handler';
import type { IngestStores } from './ingest-stores';

/**
 * The ingest side's front, wired from the stores: the collector API and the upload processor. The
 * stream consumer is wired in consumer-services.ts, so these bundles never reach its code.
 */

export function collectorHandler(stores: IngestStores, region: string): HttpHandler {
  return createCollectorHandler({ apps: stores.apps, rules: stores.rules, publisher: stores.publisher, uploads: stores.uploads, region });
}

export function uploadProcessorDeps(stores: IngestStores): UploadProcessorDeps {
  return { apps: stores.apps, uploads: stores.uploads, publisher: stores.publisher, now: stores.now };
}

export function uploadProcessor(stores: IngestStores): ReturnType<typeof createUploadHandler> {
  return createUploadHandler(uploadProcessorDeps(stores));
}
