// Jest transform: TypeScript and ESM-only dependencies (middy) → CommonJS, with esbuild.
// Faster than ts-jest and needs no extra compiler; type checking is `npm run build`'s job.
const { transformSync } = require('esbuild');
const { createHash } = require('node:crypto');

module.exports = {
  getCacheKey(source, path) {
    return createHash('sha1').update('v1').update(path).update(source).digest('hex');
  },
  process(source, path) {
    const loader = path.endsWith('.ts') ? 'ts' : 'js';
    const { code, map } = transformSync(source, {
      loader,
      format: 'cjs',
      target: 'node20',
      sourcemap: 'external',
      sourcefile: path,
      supported: { 'dynamic-import': false },
    });
    return { code, map };
  },
};
