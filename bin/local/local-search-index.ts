import { join } from 'node:path';
import { createDuckDbSearchIndex } from '../../functions/search/duckdb/duckdb-index';
import { createOpenSearchClient } from '../../functions/search/opensearch/client';
import { createOpenSearchIndex } from '../../functions/search/opensearch/opensearch-index';
import { decorateIndex } from '../../functions/search/index-decorator';
import type { SearchableIndex } from '../../functions/search/port';
import { startOpenSearchNode, type OpenSearchNode } from './opensearch-node';

/** Where the local runtime searches: embedded DuckDB (the default), or OpenSearch as on AWS. */
export type LocalSearchBackend =
  | {
      readonly backend: 'duckdb';
      /** DuckDB's memory budget (SEARCH_MEMORY_LIMIT, e.g. `1GB`); default DEFAULT_MEMORY_LIMIT. */
      readonly memoryLimit?: string;
    }
  | {
      readonly backend: 'opensearch';
      /** A cluster to use (no IAM signing); without it a local node is started in DATA_DIR/opensearch. */
      readonly endpoint?: string;
      /** Prefix of the runtime's indices and templates, so runtimes can share a cluster. */
      readonly indexPrefix?: string;
    };

export interface LocalSearchIndex {
  readonly index: SearchableIndex;
  /** What the runtime searches, for its start-up log. */
  readonly description: string;
  close(): Promise<void>;
}

export async function openLocalSearchIndex(dataDir: string, search: LocalSearchBackend, log: (line: string) => void): Promise<LocalSearchIndex> {
  if (search.backend === 'duckdb') {
    const index = await createDuckDbSearchIndex({ path: join(dataDir, 'search.duckdb'), ...(search.memoryLimit ? { memoryLimit: search.memoryLimit } : {}) });
    await index.ensureReady();
    return { index, description: `DuckDB (${join(dataDir, 'search.duckdb')})`, close: () => index.close() };
  }
  let node: OpenSearchNode | undefined;
  const endpoint = search.endpoint ?? (node = await startOpenSearchNode({ home: join(dataDir, 'opensearch'), log })).url;
  const client = createOpenSearchClient({ endpoint, signWithIam: false });
  try {
    const opensearch = createOpenSearchIndex({ client, indexPrefix: search.indexPrefix ?? 'local-', replicas: 0 });
    await opensearch.ensureReady();
    // Locally every consumed batch is made searchable at once (on AWS the index refreshes each second),
    // so a read right after the pipeline caught up sees what DuckDB would.
    const index = decorateIndex(opensearch, {
      index: async (documents) => {
        const outcome = await opensearch.index(documents);
        if (outcome.written > 0) await opensearch.refresh();
        return outcome;
      },
    });
    return {
      index,
      description: `OpenSearch (${endpoint}${node ? ', a local node' : ''})`,
      close: async () => {
        await client.close();
        await node?.stop();
      },
    };
  } catch (error) {
    await client.close();
    await node?.stop();
    throw error;
  }
}
