import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = resolve(__dirname, '../../..');

describe("the console's API client types", () => {
  // openapi-typescript loads ES modules jest's CommonJS runtime cannot, so the generator runs in its own process.
  it('are generated from the OpenAPI document, with every path of the management API', async () => {
    await run(process.execPath, ['--import', 'tsx', 'console/scripts/api-schema.ts'], { cwd: root });
    const types = await readFile(resolve(root, 'console/src/lib/api-schema.ts'), 'utf8');
    const document = JSON.parse(await readFile(resolve(root, 'openapi/management.json'), 'utf8')) as { paths: Record<string, unknown> };
    const missing = Object.keys(document.paths).filter((path) => !types.includes(`    "${path}": {`));
    expect(missing).toEqual([]);
  }, 60_000);
});
