import { virtualEventTypesOf } from '../management/virtual-event-types';
import type { SearchableIndex } from '../search/port';
import { withVirtualEventTypes } from '../search/virtual-event-types/with-virtual-event-types';
import type { ServiceStores } from './service-stores';

/**
 * The search index as readers see it: event searches, counts and deletions understand the app's
 * virtual event types (stored as managed resources). Every reader (the search API, the management
 * API, the billing run) is given this one, so a type means the same thing everywhere.
 */
export function queryTimeIndex(stores: ServiceStores, index: SearchableIndex, options: { reuseTypesForMs?: number } = {}): SearchableIndex {
  return withVirtualEventTypes(index, (scope) => virtualEventTypesOf(stores.resources, scope), options);
}
