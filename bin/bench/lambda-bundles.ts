import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { median } from './timing';

const root = resolve(__dirname, '../..');

/** Every Lambda entry of the stack (lib/*.ts). */
export const LAMBDA_ENTRIES = {
  collector: 'functions/entries/collector-api.ts',
  consumer: 'functions/entries/ingest-consumer.ts',
  uploads: 'functions/entries/batch-uploads.ts',
  search: 'functions/entries/search-api.ts',
  management: 'functions/entries/management-api.ts',
  governance: 'functions/entries/governance-refresh.ts',
  billing: 'functions/entries/billing-run.ts',
  exports: 'functions/entries/export-worker.ts',
  'shared-views': 'functions/entries/shared-views-api.ts',
  emails: 'functions/entries/email-sender.ts',
} as const;

export interface BundleVariant {
  bytes: number;
  sourceMapBytes: number;
  /** Median module init (require of the bundle, plus whatever it loads from node_modules) in a fresh process. */
  initMs: number;
}

export interface LambdaBundle {
  /** AWS SDK left to the Lambda runtime (loaded from node_modules here, as the runtime loads its own). */
  runtimeSdk: BundleVariant;
  /** AWS SDK bundled from the lock file's versions, no source map. */
  bundledSdk: BundleVariant;
  /** AWS SDK bundled, with a source map loaded through --enable-source-maps. */
  bundledSdkWithSourceMap: BundleVariant;
}

/** Any value each entry's environment schema accepts: entries validate their environment at init. */
const LAMBDA_ENV: Record<string, string> = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'AKIDBENCH',
  AWS_SECRET_ACCESS_KEY: 'bench',
  INGEST_STREAM_NAME: 's',
  RESOURCES_TABLE: 't',
  DEDUP_TABLE: 't',
  PROFILES_TABLE: 't',
  BILLING_TABLE: 't',
  ARCHIVE_BUCKET: 'b',
  FAILED_RECORDS_BUCKET: 'b',
  UPLOADS_BUCKET: 'b',
  PROFILE_DOCUMENTS_BUCKET: 'b',
  SEARCH_BACKEND: 'opensearch',
  OPENSEARCH_ENDPOINT: 'https://search.example.com',
  OPENSEARCH_REPLICAS: '0',
  TOKEN_SIGNING_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:k',
  BILLING_PROVIDERS_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:p',
  EXPORTS_BUCKET: 'b',
  PUBLIC_BASE_URL: 'https://management.example.com',
};

/** esbuild's options as lib/service-function.ts has CDK's NodejsFunction bundle a Lambda. */
export const AS_CDK_BUNDLES = { bundle: true, minify: true, platform: 'node', target: 'node22', format: 'cjs' } as const;

/**
 * Bundles every Lambda as CDK's NodejsFunction does, three ways, and measures size and module init:
 * the cold-start work that depends on the bundle (the runtime's own start is the same for all).
 */
export async function benchLambdaBundles(options: { runs?: number } = {}): Promise<Record<string, LambdaBundle>> {
  const outDir = join(root, '.bench', 'lambdas');
  await mkdir(outDir, { recursive: true });
  const results: Record<string, LambdaBundle> = {};
  for (const [name, entry] of Object.entries(LAMBDA_ENTRIES)) {
    const variant = async (label: string, external: string[], sourcemap: boolean): Promise<BundleVariant> => {
      const outfile = join(outDir, `${name}-${label}.js`);
      const built = await build({
        ...AS_CDK_BUNDLES,
        entryPoints: [join(root, entry)],
        outfile,
        external,
        sourcemap,
        metafile: true,
        logLevel: 'silent',
      });
      const outputs = built.metafile!.outputs;
      const relative = outfile.slice(root.length + 1);
      const init = Array.from({ length: options.runs ?? 7 }, () => timeInit(outfile, sourcemap));
      return { bytes: outputs[relative]?.bytes ?? 0, sourceMapBytes: outputs[`${relative}.map`]?.bytes ?? 0, initMs: median(init) };
    };
    results[name] = {
      runtimeSdk: await variant('runtime-sdk', ['@aws-sdk/*', '@duckdb/node-api'], false),
      bundledSdk: await variant('bundled-sdk', ['@duckdb/node-api'], false),
      bundledSdkWithSourceMap: await variant('bundled-sdk-map', ['@duckdb/node-api'], true),
    };
  }
  return results;
}

function timeInit(file: string, sourceMaps: boolean): number {
  const script = `const t=performance.now();require(${JSON.stringify(file)});process.stdout.write(String(performance.now()-t))`;
  // Run from the repository so a bundle that leaves the SDK out finds it in node_modules.
  return Number(
    execFileSync(process.execPath, [...(sourceMaps ? ['--enable-source-maps'] : []), '-e', script], {
      env: { ...process.env, ...LAMBDA_ENV },
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
}
