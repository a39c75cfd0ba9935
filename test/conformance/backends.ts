import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDuckDbSearchIndex } from '../../functions/search/duckdb/duckdb-index';
import { createOpenSearchClient } from '../../functions/search/opensearch/client';
import { createOpenSearchIndex } from '../../functions/search/opensearch/opensearch-index';
import { commonTemplateName, indexTemplates } from '../../functions/search/opensearch/templates';
import type { SearchableIndex } from '../../functions/search/port';

/** A search backend the conformance suite and the tenant-safety tests run against. */
export interface ConformanceBackend {
  readonly name: string;
  open(): Promise<SearchableIndex>;
  /** Removes what the run created (OpenSearch indices and templates under its own prefix). */
  dispose(): Promise<void>;
}

function duckDbInMemory(): ConformanceBackend {
  return { name: 'DuckDB', open: () => createDuckDbSearchIndex({ path: ':memory:' }), dispose: async () => {} };
}

/**
 * DuckDB with every metadata key a typed column as soon as it is seen (the default waits for 50 k
 * rows): the cases then read metadata from the typed columns, and must answer as from the JSON.
 */
function duckDbTypedMetadata(): ConformanceBackend {
  const typedMetadata = { minRows: 1, minPresentShare: 0, minStringShare: 0, maxKeys: 500, reviewEveryRows: 1, fillRows: 1_000 };
  return { name: 'DuckDB, metadata keys typed', open: () => createDuckDbSearchIndex({ path: ':memory:', typedMetadata }), dispose: async () => {} };
}

/**
 * Small pages: cohort conditions walk several pages, member walks both look up a few actors and
 * list every profile, and funnels and retention read their windows in several passes, some at once.
 */
const SMALL_PAGES = { actorsPerPage: 3, membersPerPage: 4, eventsPerAnalysisPass: 40 } as const;

function openSearch(endpoint: string, pages?: typeof SMALL_PAGES): ConformanceBackend {
  const client = createOpenSearchClient({ endpoint, signWithIam: false });
  // A prefix of its own, so runs sharing a cluster never see each other's indices.
  const prefix = `conformance-${randomUUID().slice(0, 8)}-`;
  return {
    name: `OpenSearch ${endpoint}${pages === undefined ? '' : `, cohort conditions ${pages.actorsPerPage} actors a page, members ${pages.membersPerPage} a page, analyses ${pages.eventsPerAnalysisPass} events a pass`}`,
    open: async () => {
      const index = createOpenSearchIndex({ client, indexPrefix: prefix, ...pages });
      await index.ensureReady();
      return index;
    },
    dispose: async () => {
      await client.indices.delete({ index: `${prefix}*` }, { ignore: [404] });
      for (const template of indexTemplates(prefix)) await client.indices.deleteIndexTemplate({ name: template.name }, { ignore: [404] });
      await client.cluster.deleteComponentTemplate({ name: commonTemplateName(prefix) }, { ignore: [404] });
      await client.close();
    },
  };
}

function duckDbOnDisk(): ConformanceBackend {
  const folder = mkdtempSync(join(tmpdir(), 'search-conformance-'));
  return {
    name: 'DuckDB file',
    open: () => createDuckDbSearchIndex({ path: join(folder, 'nested', 'search.duckdb') }),
    dispose: async () => rmSync(folder, { recursive: true, force: true }),
  };
}

/**
 * Both backends, every run: DuckDB in memory (and on a file, when asked) and the real OpenSearch
 * 2.19 node the integration setup starts (test/integration/global-setup.ts), or any cluster
 * OPENSEARCH_URL names. OpenSearch is the reference semantics of the DSL.
 */
export function conformanceBackends(
  options: { duckDbOnDisk?: boolean; duckDbTypedMetadata?: boolean; openSearchSmallPages?: boolean } = {},
  env: NodeJS.ProcessEnv = process.env,
): ConformanceBackend[] {
  if (!env.OPENSEARCH_URL)
    throw new Error(
      'OPENSEARCH_URL is missing: the integration global setup starts an OpenSearch node and sets it (run these suites with the integration project)',
    );
  return [
    duckDbInMemory(),
    ...(options.duckDbOnDisk ? [duckDbOnDisk()] : []),
    ...(options.duckDbTypedMetadata ? [duckDbTypedMetadata()] : []),
    openSearch(env.OPENSEARCH_URL),
    // Cohort conditions’ actors over many composite pages and analyses in many passes, as a large tenant’s are.
    ...(options.openSearchSmallPages ? [openSearch(env.OPENSEARCH_URL, SMALL_PAGES)] : []),
  ];
}

/**
 * Opens the backend's index before the describe block's tests and closes and disposes of it after;
 * the returned function gives the open index.
 */
export function indexForTests(backend: ConformanceBackend): () => SearchableIndex {
  let index: SearchableIndex | undefined;
  beforeAll(async () => {
    index = await backend.open();
    await index.ensureReady();
  });
  afterAll(async () => {
    await index?.close();
    await backend.dispose();
  });
  return () => {
    if (!index) throw new Error('the conformance index is not open yet');
    return index;
  };
}
