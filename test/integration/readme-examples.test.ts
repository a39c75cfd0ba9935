import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * The README's shell examples run as written, against a local service: bash runs each block in a
 * directory whose `.data` is the service's data directory (so `.data/local.json` is read as the
 * README says), with the test's ports in place of 3000 and 3001. Each `# → <status> <body>` line is
 * what the curl before it must answer: that status, and every `"member":value` the line shows
 * (ellipses stand for the rest). A read that finds nothing yet is tried again for a few seconds,
 * since an event is searchable a moment after its 201.
 */
const root = resolve(__dirname, '../..');

interface Expectation {
  readonly status: number;
  /** `"member":value` pairs the answer holds, written as compact JSON. */
  readonly members: string[];
}

/** The README's ```sh blocks that call the local service. */
async function shellExamples(): Promise<string[]> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!).filter((block) => block.includes('http://127.0.0.1:'));
}

function expectationsOf(block: string): Expectation[] {
  return [...block.matchAll(/^# → (\d{3}) (.*)$/gm)].map((match) => ({
    status: Number(match[1]),
    // A member whose value the line writes out whole: a string without an ellipsis, a number, true/false/null.
    members: [...match[2]!.matchAll(/"[\w.-]+":(?:"[^"…]*"|-?\d+(?:\.\d+)?|true|false|null)(?=[,}])/g)].map((member) => member[0]),
  }));
}

/** Every curl of the block records its status and body; a 404 is tried again (the event may not be indexed yet). */
const CURL_RECORDER = `
__calls=0
curl() {
  __calls=$((__calls + 1))
  local out="$EXAMPLE_OUT/$(printf '%03d' "$__calls")"
  for __try in $(seq 1 40); do
    command curl -o "$out.body" -w '%{http_code}' "$@" > "$out.status" || return 1
    [ "$(cat "$out.status")" != 404 ] && break
    sleep 0.25
  done
}
`;

describe('README examples', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime('readme-examples');
  });
  afterAll(() => rt?.dispose());

  it('has shell examples that call the local service, each with the answers it shows', async () => {
    const blocks = await shellExamples();
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(expectationsOf(block).length).toBeGreaterThan(0);
  });

  it('runs each shell example as written and gets the answers it shows', async () => {
    const c = rt.credentials;
    for (const block of await shellExamples()) {
      const workDir = await mkdtemp(join(tmpdir(), 'uab-readme-'));
      const out = await mkdtemp(join(tmpdir(), 'uab-readme-out-'));
      await symlink(rt.dataDir, join(workDir, '.data'));
      const script = block.replaceAll('http://127.0.0.1:3000', c.collector_url).replaceAll('http://127.0.0.1:3001', c.management_url);
      await promisify(execFile)('bash', ['-e', '-c', CURL_RECORDER + script], { cwd: workDir, env: { ...process.env, EXAMPLE_OUT: out } });
      const calls = (await readdir(out)).filter((name) => name.endsWith('.status')).sort();
      const expected = expectationsOf(block);
      expect(calls).toHaveLength(expected.length);
      for (const [i, expectation] of expected.entries()) {
        const status = Number(await readFile(join(out, calls[i]!), 'utf8'));
        const body = JSON.stringify(JSON.parse(await readFile(join(out, calls[i]!.replace('.status', '.body')), 'utf8')));
        expect({ call: i + 1, status }).toEqual({ call: i + 1, status: expectation.status });
        for (const member of expectation.members) expect({ call: i + 1, has: body.includes(member), member }).toEqual({ call: i + 1, has: true, member });
      }
    }
  });
});
