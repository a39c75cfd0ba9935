import type { ExportRunDeps } from '../exports/export-runner';
import type { SearchableIndex } from '../search/port';
import { queryTimeIndex } from './query-time-index';
import type { ServiceStores } from './service-stores';

/** What the export worker reads and writes, wired from the stores (the index as every reader sees it). */
export function exportRunDeps(stores: ServiceStores, index: SearchableIndex): ExportRunDeps {
  return { jobs: stores.exportJobs, files: stores.exportFiles, index: queryTimeIndex(stores, index), now: stores.now };
}
