import { createSearchApiHandler } from '../routers/search-api';
import type { RecordPublisher } from '../ingest/stream/publisher';
import type { HttpHandler } from '../shared/http/handler';
import type { ManagementServiceOptions } from './management-services';
import { queryTimeIndex } from './query-time-index';
import type { ServiceStores } from './service-stores';

/** The management API's search Lambda, wired from the stores. */

export function searchApiHandler(
  stores: ServiceStores,
  options: ManagementServiceOptions & {
    ready: () => Promise<void>;
    /** Where profile writes go; default: the stores' publisher. */
    publisher?: RecordPublisher;
  },
): HttpHandler {
  return createSearchApiHandler({
    index: queryTimeIndex(stores, options.index),
    ready: options.ready,
    signingKey: options.signingKey,
    profiles: stores.profiles,
    apps: stores.apps,
    publisher: options.publisher ?? stores.publisher,
    tokens: stores.tokens,
    orgStatus: stores.orgStatus,
    rateLimiter: stores.managementRateLimiter,
    ...stores.queryBudget,
    now: stores.now,
  });
}
