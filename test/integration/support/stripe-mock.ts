import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { listening } from './service-process';

/**
 * Stripe's own mock server (github.com/stripe/stripe-mock, a Go module): it answers from Stripe's
 * OpenAPI document and refuses a request that document does not allow (a wrong parameter, a missing
 * one, a wrong type). Built once from the Go module proxy into the git-ignored .cache/go.
 */

export const STRIPE_MOCK_VERSION = 'v0.203.0';
const ROOT = resolve(__dirname, '../../..');
const GO_CACHE = join(ROOT, '.cache/go');
const BINARY = join(GO_CACHE, 'bin', `stripe-mock-${STRIPE_MOCK_VERSION}`);

function ensureBuilt(): void {
  if (existsSync(BINARY)) return;
  mkdirSync(join(GO_CACHE, 'bin'), { recursive: true });
  const env = { ...process.env, GOPATH: join(GO_CACHE, 'path'), GOMODCACHE: join(GO_CACHE, 'mod'), GOFLAGS: '-modcacherw', CGO_ENABLED: '0' };
  // `go build` of a module at a version needs a module to build it in: a throwaway one under the cache.
  const work = join(GO_CACHE, 'build-stripe-mock');
  mkdirSync(work, { recursive: true });
  const steps: string[][] = [
    ...(existsSync(join(work, 'go.mod')) ? [] : [['mod', 'init', 'local/build-stripe-mock']]),
    ['get', `github.com/stripe/stripe-mock@${STRIPE_MOCK_VERSION}`],
    ['build', '-o', BINARY, 'github.com/stripe/stripe-mock'],
  ];
  for (const args of steps) {
    const run = spawnSync('go', args, { cwd: work, env, encoding: 'utf8' });
    if (run.error) throw new Error(`could not run go to build stripe-mock: ${run.error.message} (install Go: apt-get install golang-go)`);
    if (run.status !== 0) throw new Error(`go ${args.join(' ')} failed:\n${run.stdout}${run.stderr}`);
  }
}

export interface StripeMock {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startStripeMock(port: number): Promise<StripeMock> {
  ensureBuilt();
  const child: ChildProcess = spawn(BINARY, ['-http-port', String(port), '-https-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output = (output + String(chunk)).slice(-4000)));
  child.stderr!.on('data', (chunk) => (output = (output + String(chunk)).slice(-4000)));
  const deadline = Date.now() + 30_000;
  while (!(await listening(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`stripe-mock did not start:\n${output}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
