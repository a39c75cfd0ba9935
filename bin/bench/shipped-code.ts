import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { AS_CDK_BUNDLES } from './lambda-bundles';

const root = resolve(__dirname, '../..');

/**
 * api-search.ts bundled as CDK bundles a Lambda (minified, one module scope), then loaded: the
 * OpenSearch bench times the adapter in the form it runs on AWS. Under tsx every import between
 * the project's modules is read through a getter, which the hand-written side (the client, plain
 * CommonJS from node_modules) never pays: 25 µs of the email search's 0.6 ms (1.19 → 1.15 in a probe).
 * The client stays outside the bundle, so both sides send through the same one.
 */
export async function apiSearchAsShipped(): Promise<typeof import('./api-search')> {
  const outfile = join(root, '.bench', 'shipped', 'api-search.js');
  await mkdir(join(root, '.bench', 'shipped'), { recursive: true });
  await build({
    ...AS_CDK_BUNDLES,
    entryPoints: [join(__dirname, 'api-search.ts')],
    outfile,
    external: ['@opensearch-project/opensearch', '@duckdb/node-api'],
    logLevel: 'silent',
  });
  return require(outfile) as typeof import('./api-search');
}
