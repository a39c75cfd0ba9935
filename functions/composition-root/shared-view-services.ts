import type { SigningKeyProvider } from '../management-tokens/signing-key';
import type { SearchableIndex } from '../search/port';
import { createSharedViewApiHandler } from '../routers/shared-view-api';
import type { HttpHandler } from '../shared/http/handler';
import { customerUsageDeps } from './customer-usage-services';
import { queryTimeIndex } from './query-time-index';
import type { ServiceStores } from './service-stores';

/** The shared-views Lambda (public and embedded workspaces, customer access), wired from the stores. */
export function sharedViewApiHandler(
  stores: ServiceStores,
  options: { index: SearchableIndex; signingKey: SigningKeyProvider; ready: () => Promise<void> },
): HttpHandler {
  // Shared charts may name virtual event types: they mean what they mean everywhere else.
  const index = queryTimeIndex(stores, options.index);
  return createSharedViewApiHandler({
    ...customerUsageDeps(stores, index),
    store: stores.resources,
    index,
    ready: options.ready,
    signingKey: options.signingKey,
    orgStatus: stores.orgStatus,
    rateLimiter: stores.managementRateLimiter,
    customerPagesRateLimiter: stores.customerPagesRateLimiter,
    ...stores.queryBudget,
    now: stores.now,
  });
}
