import type { SigningKeyProvider } from '../management-tokens/signing-key';
import type { SearchableIndex } from '../search/port';
import { createSharedViewApiHandler } from '../routers/shared-view-api';
import type { HttpHandler } from '../shared/http/handler';
import { queryTimeIndex } from './query-time-index';
import type { ServiceStores } from './service-stores';

/** The shared-views Lambda (public and embedded workspaces), wired from the stores. */
export function sharedViewApiHandler(
  stores: ServiceStores,
  options: { index: SearchableIndex; signingKey: SigningKeyProvider; ready: () => Promise<void> },
): HttpHandler {
  return createSharedViewApiHandler({
    store: stores.resources,
    // Shared charts may name virtual event types: they mean what they mean everywhere else.
    index: queryTimeIndex(stores, options.index),
    ready: options.ready,
    signingKey: options.signingKey,
    orgStatus: stores.orgStatus,
    rateLimiter: stores.managementRateLimiter,
    ...stores.queryBudget,
    now: stores.now,
  });
}
