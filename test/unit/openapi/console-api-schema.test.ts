import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

describe("the console's API client types", () => {
  // openapi-typescript loads ES modules jest's CommonJS runtime cannot, so the check runs in its own process.
  it('are generated from the OpenAPI document as it is now (npm run console:api regenerates them)', async () => {
    const root = resolve(__dirname, '../../..');
    await expect(run(process.execPath, ['--import', 'tsx', 'console/scripts/api-schema.ts', '--check'], { cwd: root })).resolves.toBeDefined();
  }, 60_000);
});
