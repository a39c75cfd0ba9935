import type { SearchableIndex } from './port';
import { createOpenSearchClient } from './opensearch/client';
import { createOpenSearchIndex } from './opensearch/opensearch-index';

/** The search backend of a Lambda: OpenSearch on AWS (DuckDB is the local runtime's, never bundled). */
export function searchIndexFromEnv(env: {
  SEARCH_BACKEND: 'opensearch' | 'duckdb';
  OPENSEARCH_ENDPOINT?: string;
  OPENSEARCH_REPLICAS: number;
  AWS_REGION: string;
}): SearchableIndex {
  if (env.SEARCH_BACKEND !== 'opensearch' || !env.OPENSEARCH_ENDPOINT) {
    throw new Error('Lambdas search through OpenSearch: set SEARCH_BACKEND=opensearch and OPENSEARCH_ENDPOINT');
  }
  return createOpenSearchIndex({
    client: createOpenSearchClient({ endpoint: env.OPENSEARCH_ENDPOINT, region: env.AWS_REGION, signWithIam: true }),
    replicas: env.OPENSEARCH_REPLICAS,
    searchBackpressure: 'enforced',
  });
}
