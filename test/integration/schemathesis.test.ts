import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pythonWith } from './support/python-env';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * schemathesis (PyPI) generates requests from each committed OpenAPI document, valid and invalid,
 * sends them to the running service with its credentials, and runs every check on every answer: no
 * server error, a status the operation declares, the declared content type and headers, a body
 * matching its schema, a schema-valid request accepted, a schema-violating one refused, credentials
 * required where declared. schemathesis.toml names the few rules a JSON Schema cannot state and the
 * operations they allow a 400 on. A fixed seed keeps runs comparable; the examples per operation are
 * bounded. The stateful phase follows the links of the management document (resource-links.ts): it
 * creates resources and then reads, updates and deletes what it created.
 */

const CONFIG = join(__dirname, 'schemathesis/schemathesis.toml');

function schemathesis(python: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(join(python, '..', 'schemathesis'), ['--config-file', CONFIG, 'run', '--checks', 'all', ...args], {
      env: { ...process.env, NO_COLOR: '1', SCHEMATHESIS_TELEMETRY: 'false' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    child.once('exit', (code) => done({ code, output }));
  });
}

const STATEFUL_RESOURCES =
  '^/~/(dashboards|workspaces|cohorts|governance/rules|virtual_eventtypes|eth_abi|emails/templates|billing/meters|billing/channels|billing/catalog/plans)(/\\{[^/]+\\})?$';

/** The report's failures and summary, without the progress lines. */
const failures = (output: string) => output.slice(Math.max(0, output.indexOf('FAILURES')));

describe('schemathesis against both OpenAPI documents', () => {
  let rt: TestRuntime;
  let python: string;

  beforeAll(async () => {
    python = pythonWith(join(__dirname, 'schemathesis/requirements.txt'));
    // Generated requests come fast: the rate limit is not what is tested here.
    rt = await startTestRuntime('schemathesis', { managementAuth: { rateLimitPerMinute: 1_000_000 } });
    // Events of any age are taken (the 30-day rule is relative to the clock, which no schema states).
    await rt.apps.updateSettings(rt.credentials.org_id, rt.credentials.app_id, { backfill_enabled: true });
  }, 600_000);
  afterAll(() => rt?.dispose());

  // First, on the fresh runtime: what the other runs create (and the limits they reach) would make its creates fail.
  it('follows the links the management document declares: create, then read, update and delete what was created', async () => {
    const { code, output } = await schemathesis(python, [
      `${rt.credentials.management_url}/openapi.json`,
      '-H',
      `Authorization: Bearer ${rt.credentials.management_token}`,
      '--exclude-path-regex',
      '^/v1/',
      // The managed resources, whose creates are linked to their reads, updates and deletes.
      '--include-path-regex',
      STATEFUL_RESOURCES,
      // A CORS preflight answers 204 for any path, existing resource or not, as browsers need: it is
      // not a read of the resource, so "deleted, yet still there" does not apply to it.
      '--exclude-method',
      'OPTIONS',
      '--phases',
      'stateful',
      '--max-examples',
      '40',
      '--seed',
      '1',
    ]);
    expect([code, code === 0 ? '' : failures(output)]).toEqual([0, '']);
    // Scenarios went along links: a create whose answer fed a read, update or delete.
    expect(output).toMatch(/API Links:\s+[1-9]\d* covered/);
  }, 900_000);

  it('finds no server error and no answer out of the collector document', async () => {
    const { code, output } = await schemathesis(python, [
      `${rt.credentials.collector_url}/openapi.json`,
      '-H',
      `X-Service-Application-Id: ${rt.credentials.collector_application_id}`,
      '--phases',
      'examples,coverage,fuzzing',
      '--max-examples',
      '5',
      '--seed',
      '1',
    ]);
    expect([code, code === 0 ? '' : failures(output)]).toEqual([0, '']);
    expect(output).toMatch(/\d+ generated, \d+ passed/);
  }, 600_000);

  it('finds no server error and no answer out of the management document', async () => {
    const { code, output } = await schemathesis(python, [
      `${rt.credentials.management_url}/openapi.json`,
      '-H',
      `Authorization: Bearer ${rt.credentials.management_token}`,
      // The /v1 twins are the same operations; revoking the run's own token, or deleting its own app,
      // would only end the run early.
      '--exclude-path-regex',
      '^/v1/',
      '--exclude-operation-id',
      'appsDelete',
      '--phases',
      'examples,coverage,fuzzing',
      '--max-examples',
      '5',
      '--seed',
      '1',
    ]);
    expect([code, code === 0 ? '' : failures(output)]).toEqual([0, '']);
    expect(output).toMatch(/\d+ generated, \d+ passed/);
  }, 900_000);
});
