import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, readdir, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * The shell examples of the README and of every page under docs/ run as written, against a local
 * service. A page's examples that call the service (they name 127.0.0.1, `$MGMT` or `$COLLECTOR`)
 * run in order in one bash script, after the variables docs/running-locally.md defines, in a
 * directory whose `.data` is the service's data directory, with the test's ports in place of 3000
 * and 3001. Each `# → <status> <body>` (on its own line or after the command) is what the curl
 * before it must answer: that status, and every `"member":value` it shows (ellipses stand for the
 * rest). A read that finds nothing yet is tried again for a few seconds, since an event is
 * searchable a moment after its 201. Examples of other tools (npm, cdk, aws) are not run here.
 */
const root = resolve(__dirname, '../..');

interface Expectation {
  readonly status: number;
  /** `"member":value` pairs the answer holds, written as compact JSON. */
  readonly members: string[];
}

interface Page {
  readonly file: string;
  readonly blocks: string[];
}

const blocksOf = (text: string): string[] => [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
const callsTheService = (block: string) => /http:\/\/127\.0\.0\.1:|\$MGMT\b|\$COLLECTOR\b/.test(block);

/** The variables every page's examples use (the running-locally page's block that sets MGMT). */
function sharedVariables(): string {
  const block = blocksOf(readFileSync(join(root, 'docs/running-locally.md'), 'utf8')).find((candidate) => /\bMGMT=/.test(candidate));
  if (block === undefined) throw new Error('docs/running-locally.md has no block setting MGMT');
  return block;
}

/** The README and the docs pages with examples that call the service (read when the tests are collected). */
function pages(): Page[] {
  const files = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  return files
    .sort()
    .map((file) => ({ file, blocks: blocksOf(readFileSync(join(root, file), 'utf8')).filter(callsTheService) }))
    .filter((page) => page.blocks.length > 0);
}

function expectationsOf(script: string): Expectation[] {
  return [...script.matchAll(/# → (\d{3})(?: (.*))?$/gm)].map((match) => ({
    status: Number(match[1]),
    // A member whose value the line writes out whole: a string without an ellipsis, a number, true/false/null.
    members: [...(match[2] ?? '').matchAll(/"[\w.-]+":(?:"[^"…]*"|-?\d+(?:\.\d+)?|true|false|null)(?=[,}])/g)].map((member) => member[0]),
  }));
}

/**
 * Every curl records its status and body (and prints the body, so `$(curl …)` captures it); the
 * count is kept in a file, so calls inside `$(…)` are counted too. A call repeated as it is (a
 * polling loop) replaces the record of the one before, so a poll is one call. A 404 is tried again
 * (the event may not be indexed yet).
 */
const CURL_RECORDER = `
curl() {
  local n=$(cat "$EXAMPLE_OUT/count" 2>/dev/null || echo 0)
  if [ "$*" != "$(cat "$EXAMPLE_OUT/last" 2>/dev/null)" ]; then n=$((n + 1)); fi
  echo "$n" > "$EXAMPLE_OUT/count"
  printf '%s' "$*" > "$EXAMPLE_OUT/last"
  local out="$EXAMPLE_OUT/$(printf '%03d' "$n")"
  for __try in $(seq 1 40); do
    command curl -s -o "$out.body" -w '%{http_code}' "$@" > "$out.status" || return 1
    [ "$(cat "$out.status")" != 404 ] && break
    sleep 0.25
  done
  cat "$out.body"
}
`;

describe('docs examples', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime('docs-examples');
  });
  afterAll(() => rt?.dispose());

  it('shows, for every call to the service, the answer it gets', async () => {
    const found = pages();
    expect(found.map((page) => page.file)).toEqual(expect.arrayContaining(['README.md', 'docs/management-api.md', 'docs/billing.md']));
    for (const page of found) {
      const commands = page.blocks
        .join('\n')
        .split('\n')
        .filter((line) => !line.trimStart().startsWith('#'));
      const calls = commands.join('\n').match(/(^|[\s(|])curl\s/gm) ?? [];
      expect({ file: page.file, expectations: expectationsOf(page.blocks.join('\n')).length }).toEqual({ file: page.file, expectations: calls.length });
    }
  });

  for (const page of pages()) {
    const { file } = page;
    it(`runs ${file}'s examples as written and gets the answers they show`, async () => {
      const c = rt.credentials;
      const workDir = await mkdtemp(join(tmpdir(), 'uab-docs-'));
      const out = await mkdtemp(join(tmpdir(), 'uab-docs-out-'));
      await symlink(rt.dataDir, join(workDir, '.data'));
      const script = [sharedVariables(), ...page.blocks]
        .join('\n')
        .replaceAll('http://127.0.0.1:3000', c.collector_url)
        .replaceAll('http://127.0.0.1:3001', c.management_url);
      await promisify(execFile)('bash', ['-e', '-o', 'pipefail', '-c', CURL_RECORDER + script], { cwd: workDir, env: { ...process.env, EXAMPLE_OUT: out } });
      const recorded = (await readdir(out)).filter((name) => name.endsWith('.status')).sort();
      const expected = expectationsOf(page.blocks.join('\n'));
      expect(recorded).toHaveLength(expected.length);
      for (const [i, expectation] of expected.entries()) {
        const status = Number(await readFile(join(out, recorded[i]!), 'utf8'));
        expect({ file, call: i + 1, status }).toEqual({ file, call: i + 1, status: expectation.status });
        if (expectation.members.length === 0) continue;
        const body = JSON.stringify(JSON.parse(await readFile(join(out, recorded[i]!.replace('.status', '.body')), 'utf8')));
        for (const member of expectation.members)
          expect({ file, call: i + 1, has: body.includes(member), member }).toEqual({ file, call: i + 1, has: true, member });
      }
    });
  }
});
