import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { exportRunDeps } from '../../functions/composition-root/export-services';
import { ServiceStores } from '../../functions/composition-root/service-stores';
import type { ExportJob } from '../../functions/exports/export-jobs';
import { baseRequest, EXPORT_PAGE_SIZE, runExport } from '../../functions/exports/export-runner';
import { newResourceId } from '../../functions/resources/resource-store';
import { createDuckDbSearchIndex } from '../../functions/search/duckdb/duckdb-index';
import type { SearchContext } from '../../functions/search/port';
import { startEmulators } from '../local/emulators';
import { destroyAwsClients } from '../../functions/shared/aws/clients';
import { createLocalAwsClients } from '../local/local-aws-clients';
import { provision } from '../local/provision';
import { BENCH_TENANT, DEFAULT_SEARCH_DATASET, prepareSearchDataset } from './search-dataset';
import { timeMs } from './timing';

/** Issue target: an export costs at most 1.5× reading the same rows by keyset paging. */
export const EXPORT_TARGET_RATIO = 1.5;

export interface ExportBenchResult {
  readonly rows: number;
  readonly parts: number;
  readonly gzipBytes: number;
  readonly exportMs: number;
  /** Bare keyset paging of the same rows (the export's own request), mean of the runs before and after the export. */
  readonly pagingMs: number;
  readonly pagingMsBefore: number;
  readonly pagingMsAfter: number;
  readonly ratio: number;
}

/**
 * The exports section of `npm run bench`: the search bench's 1,000,000 events exported as gzip
 * NDJSON (a job run to completion: pages read through the search port, parts compressed and written
 * to s3rver, each recorded in DynamoDB Local) against bare keyset paging of the same rows with the
 * same request, timed before and after the export in the same process.
 */
export async function benchExports(options: { log?: (line: string) => void; events?: number } = {}): Promise<ExportBenchResult> {
  const log = options.log ?? (() => {});
  const spec = options.events === undefined ? DEFAULT_SEARCH_DATASET : { ...DEFAULT_SEARCH_DATASET, events: options.events };
  const dataset = await prepareSearchDataset({ dir: resolve(__dirname, '../../.bench/search'), spec, log });
  const dataDir = await mkdtemp(join(tmpdir(), 'uab-bench-exports-'));
  const emulators = await startEmulators({});
  const clients = createLocalAwsClients(emulators.endpoints);
  const index = await createDuckDbSearchIndex({ path: dataset.path });
  try {
    const stores = new ServiceStores({ clients, names: await provision(clients, 'bench-') });
    // Jobs are resources of their app, written only while it exists.
    await stores.apps.createOrgWithApp({ orgId: BENCH_TENANT.org_id, orgName: 'Bench', appId: BENCH_TENANT.app_id, appName: 'Dashboard' });
    const deps = exportRunDeps(stores, index);
    const now = dataset.anchor;
    const from = new Date(now.getTime() - dataset.spec.days * 86_400_000);
    const job = (): ExportJob => ({
      _id: newResourceId(),
      org_id: BENCH_TENANT.org_id,
      app_id: BENCH_TENANT.app_id,
      kind: 'events',
      format: 'ndjson',
      status: 'queued',
      from: from.toISOString(),
      to: now.toISOString(),
      time_zone: 'UTC',
      query: null,
      fields: null,
      exported: 0,
      estimated_total: null,
      parts: [],
      cursor: null,
      lease_until: null,
      created_at: now.toISOString(),
      modified_at: now.toISOString(),
      completed_at: null,
      expires_at: null,
    });
    const context: SearchContext = { scope: BENCH_TENANT, kind: 'events', range: { from, to: now }, timeZone: 'UTC', now };
    const request = baseRequest(job(), EXPORT_PAGE_SIZE);
    let pagedRows = 0;
    const paging = () =>
      timeMs(async () => {
        pagedRows = 0;
        for (let cursor: unknown[] | undefined; ; ) {
          const page = await index.search(context, { ...request, ...(cursor ? { search_after: cursor as never } : {}) });
          const hits = page.hits.hits;
          pagedRows += hits.length;
          if (hits.length < request.size) break;
          cursor = hits[hits.length - 1]!.sort;
        }
      });
    const pagingMsBefore = await paging();
    log(`  bare keyset paging: ${pagedRows.toLocaleString('en')} rows in ${Math.round(pagingMsBefore)} ms`);
    const exported = job();
    if (!(await stores.exportJobs.create(exported))) throw new Error('export bench: could not store the job');
    const ref = { orgId: exported.org_id, appId: exported.app_id, id: exported._id };
    let outcome = '';
    const exportMs = await timeMs(async () => (outcome = await runExport(deps, ref)));
    const finished = await stores.exportJobs.get(ref);
    if (outcome !== 'completed' || finished.exported !== pagedRows)
      throw new Error(`export bench: the export ended ${outcome} with ${finished.exported} rows; paging read ${pagedRows}`);
    const gzipBytes = finished.parts.reduce((sum, part) => sum + part.bytes, 0);
    log(
      `  export: ${finished.exported.toLocaleString('en')} rows in ${finished.parts.length} parts (${Math.round(gzipBytes / 1_048_576)} MB gzip) in ${Math.round(exportMs)} ms`,
    );
    const pagingMsAfter = await paging();
    log(`  bare keyset paging again: ${Math.round(pagingMsAfter)} ms`);
    await stores.exportFiles.deleteAll(ref);
    const pagingMs = (pagingMsBefore + pagingMsAfter) / 2;
    return { rows: finished.exported, parts: finished.parts.length, gzipBytes, exportMs, pagingMs, pagingMsBefore, pagingMsAfter, ratio: exportMs / pagingMs };
  } finally {
    await index.close();
    destroyAwsClients(clients);
    await emulators.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
