import type { SortEntry } from '../../schemas/search-tree';
import type { IndexKind } from './port';

/**
 * The sort a search really runs with, the same on both backends: the request's, or by default the
 * newest events first (profiles: by id); then `_id` ascending as the final tie-breaker unless the
 * sort already has `_id`, so equal sort values still page in one stable order and every document
 * is seen exactly once through `search_after`. Idempotent.
 */
export function effectiveSort(kind: IndexKind, sort: readonly SortEntry[]): SortEntry[] {
  const entries: SortEntry[] = sort.length > 0 ? [...sort] : kind === 'events' ? [{ field: 'time', order: 'desc', missing: '_last' }] : [];
  if (!entries.some((entry) => entry.field === '_id')) entries.push({ field: '_id', order: 'asc', missing: '_last' });
  return entries;
}
