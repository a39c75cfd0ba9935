import { resolve } from 'node:path';
import { build } from 'esbuild';

/**
 * The collector Lambda's own code, bundled as CDK's NodejsFunction bundles it (minified) but without
 * the AWS SDK (deployed bundles carry the lock file's SDK, about 780 KB that this test does not
 * govern), stays within 250 KB. Size, unlike speed, is deterministic: a regression such as
 * `import { z } from 'zod'` (which drags in every zod locale, +250 KB) fails here at once.
 */
it('keeps the collector bundle within 250 KB minified', async () => {
  const result = await build({
    entryPoints: [resolve(__dirname, '../../functions/entries/collector-api.ts')],
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    external: ['@aws-sdk/*'],
    write: false,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles[0]!.contents.length;
  expect(bytes).toBeLessThanOrEqual(250 * 1024);
});
