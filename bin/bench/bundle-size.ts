import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { median } from './timing';

const root = resolve(__dirname, '../..');

export interface BundleResult {
  /** Minified collector bundle as deployed (the Lambda runtime provides @aws-sdk/*). */
  bytes: number;
  /** The same with the AWS SDK bundled in, for comparison. */
  bytesWithSdk: number;
  initMs: number;
  /** Loading just the AWS SDK clients the collector uses: what any Lambda using them pays. */
  sdkOnlyInitMs: number;
  initRatio: number;
}

/** Bundles the collector Lambda the way CDK's NodejsFunction does and measures size and module init time. */
export async function benchCollectorBundle(options: { runs?: number } = {}): Promise<BundleResult> {
  const outDir = join(root, '.bench');
  await mkdir(outDir, { recursive: true });
  const common = { entryPoints: [join(root, 'functions/ingest/collector/handler.ts')], bundle: true, minify: true, platform: 'node' as const, target: 'node22', format: 'cjs' as const, write: true, logLevel: 'silent' as const };
  const deployed = join(outDir, 'collector.js');
  const withSdk = join(outDir, 'collector-with-sdk.js');
  const a = await build({ ...common, outfile: deployed, external: ['@aws-sdk/*'], metafile: true });
  const b = await build({ ...common, outfile: withSdk, metafile: true });
  const size = (meta: typeof a.metafile, file: string) => meta!.outputs[file.slice(root.length + 1)]?.bytes ?? 0;

  const sdkOnly = join(outDir, 'sdk-only.js');
  await writeFile(sdkOnly, ['client-dynamodb', 'lib-dynamodb', 'client-kinesis', 'client-s3', 's3-request-presigner'].map((m) => `require('@aws-sdk/${m}');`).join('\n'));
  const env = { ...process.env, INGEST_STREAM_NAME: 's', RESOURCES_TABLE: 't', UPLOADS_BUCKET: 'b', AWS_REGION: 'us-east-1' };
  const timeRequire = (file: string) =>
    Number(execFileSync(process.execPath, ['-e', `const t=performance.now();require(${JSON.stringify(file)});process.stdout.write(String(performance.now()-t))`], { env, cwd: outDir, encoding: 'utf8' }));
  const init: number[] = [];
  const sdk: number[] = [];
  for (let i = 0; i < (options.runs ?? 9); i++) {
    sdk.push(timeRequire(sdkOnly));
    init.push(timeRequire(deployed));
  }
  const initMs = median(init);
  const sdkOnlyInitMs = median(sdk);
  return { bytes: size(a.metafile, deployed), bytesWithSdk: size(b.metafile, withSdk), initMs, sdkOnlyInitMs, initRatio: initMs / sdkOnlyInitMs };
}
