/**
 * `npm run opensearch`: a real OpenSearch 2.19 node on this machine (built from Maven Central's
 * artifacts on first use, see bin/local/opensearch-node.ts), until Ctrl-C. OPENSEARCH_PORT (9200)
 * and OPENSEARCH_HOME (.data/opensearch) choose where; OPENSEARCH_HEAP_MB (512) its Java heap.
 */
import { resolve } from 'node:path';
import * as z from 'zod';
import { startOpenSearchNode } from './local/opensearch-node';

const Env = z.object({
  OPENSEARCH_PORT: z.coerce.number().int().min(1).max(65535).default(9200),
  OPENSEARCH_HOME: z.string().default('.data/opensearch'),
  OPENSEARCH_HEAP_MB: z.coerce.number().int().min(256).default(512),
});

async function main(): Promise<void> {
  const env = Env.parse(process.env);
  const node = await startOpenSearchNode({
    home: resolve(env.OPENSEARCH_HOME),
    port: env.OPENSEARCH_PORT,
    heapMb: env.OPENSEARCH_HEAP_MB,
    log: (line) => console.error(`[opensearch] ${line}`),
  });
  console.log(`OpenSearch 2.19 is running at ${node.url} (Ctrl-C stops it)`);
  const stop = () => void node.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error('[opensearch] failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
