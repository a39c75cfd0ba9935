import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(__dirname, '../../..');

/** The Lambda's bundle as CDK's NodejsFunction builds it (minified, AWS SDK from the runtime). */
async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [resolve(root, entry)],
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    external: ['@aws-sdk/*', '@duckdb/node-api'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

describe('where the OpenAPI documents go', () => {
  it('the collector bundle carries its own document, not the management one nor the generator', async () => {
    const code = await bundle('functions/entries/collector-api.ts');
    expect(code).toContain('Collector API');
    expect(code).not.toContain('Management API');
    // The registry and the zod → JSON Schema generator are build-time only.
    expect(code).not.toContain('no route schema');
    expect(code).not.toContain('Not documented yet');
  });

  it('the management bundle carries the management document', async () => {
    const code = await bundle('functions/entries/management-api.ts');
    expect(code).toContain('Management API');
    expect(code).toContain('/v1/{orgId}/oauth/access_tokens');
    expect(code).not.toContain('Not documented yet');
  });

  it('the route table imports no schemas (types only), so every Lambda can import it cheaply', () => {
    // The table is routes.ts and its sections; they import each other's values, anything else as types only.
    const files = ['routes.ts', 'route-types.ts', 'billing-routes.ts', 'resource-routes.ts', 'customer-routes.ts'];
    for (const file of files) {
      const source = readFileSync(resolve(root, 'functions/definitions', file), 'utf8');
      const imports = source.split('\n').filter((line) => /^import\s/.test(line));
      const ownSections = /from '\.\/(route-types|billing-routes|resource-routes|customer-routes)';$/;
      expect({ file, values: imports.filter((line) => !/^import type\s/.test(line) && !ownSections.test(line)) }).toEqual({ file, values: [] });
    }
  });
});
