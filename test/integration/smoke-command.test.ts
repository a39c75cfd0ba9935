import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/** `npm run smoke` against a running service: given its URLs, or finding the local one by DATA_DIR. */
const root = resolve(__dirname, '../..');
const run = (args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/smoke.ts', ...args], { cwd: root, encoding: 'utf8' }).then(
    (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

describe('npm run smoke', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime('smoke');
  });
  afterAll(() => rt?.dispose());

  it('sends an event through the collector and reads it back through search, with the URLs a deployed stack prints', async () => {
    const c = rt.credentials;
    const result = await run([
      '--collector-url',
      `${c.collector_url}/`,
      '--management-url',
      c.management_url,
      '--application-id',
      c.collector_application_id,
      '--token',
      c.management_token,
      '--json',
    ]);
    // The command's own words, when it fails.
    expect({ code: result.code, stderr: result.stderr }).toMatchObject({ code: 0 });
    const answer = JSON.parse(result.stdout);
    expect(answer).toMatchObject({ ok: true, transaction_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(answer.searchable_ms).toBeGreaterThanOrEqual(answer.acknowledged_ms);
    expect((await rt.management('GET', `/search/~/events/${answer.transaction_id}`)).body._source.metadata).toEqual({ smoke_test: true });
  });

  it('finds the local service through DATA_DIR/local.json', async () => {
    const result = await run(['--data-dir', rt.dataDir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok: event .* searchable after \d+ ms/);
  });

  it('fails with the reason when the collector refuses, and with usage when the arguments are incomplete', async () => {
    const c = rt.credentials;
    const refused = await run([
      '--collector-url',
      c.collector_url,
      '--management-url',
      c.management_url,
      '--application-id',
      'not-an-app',
      '--token',
      c.management_token,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the collector answered 401');
    const incomplete = await run(['--collector-url', c.collector_url]);
    expect(incomplete.code).toBe(2);
    expect(incomplete.stderr).toContain('go together');
  });
});
