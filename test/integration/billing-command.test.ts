import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/** `npm run billing -- --now` next to a running service: it says so at once instead of booting emulators into DuckDB's lock. */
describe('npm run billing while the service runs', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime('billing-command');
  });
  afterAll(() => rt?.dispose());

  it('refuses before starting anything, naming the running process', async () => {
    const started = Date.now();
    const result = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/billing.ts', '--now'], {
      cwd: resolve(__dirname, '../..'),
      env: { ...process.env, DATA_DIR: rt.dataDir },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`npm start (pid ${process.pid}) is running on ${rt.dataDir}`);
    expect(result.stderr).not.toContain('starting the local runtime');
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
