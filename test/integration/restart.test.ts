import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { apiCall, send, uuid } from './support/runtime';

/** `npm start` as a user runs it: a real process with its own emulators and data directory. */
const root = resolve(__dirname, '../..');

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

function startService(dataDir: string, collectorPort: number, managementPort: number): { child: ChildProcess; exited: Promise<number | null>; output: () => string } {
  let output = '';
  // As `npm start` runs it: tsx as an in-process loader, so signals reach the service itself.
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bin/local.ts')], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, COLLECTOR_PORT: String(collectorPort), MANAGEMENT_PORT: String(managementPort), QUIET: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, exited, output: () => output };
}

async function waitForProbe(url: string, service: { output: () => string }, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const probe = await send(`${url}/health/probe`, { method: 'GET' });
      if (probe.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`service did not become ready:\n${service.output()}`);
}

function processesMentioning(text: string): string[] {
  const lines = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).split('\n');
  return lines.filter((l) => l.includes(text) && !l.includes('ps -eo'));
}

describe('npm start: restart keeps data, shutdown drains and leaves no process behind', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'uab-restart-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged event across a SIGTERM and a restart', async () => {
    const collectorPort = await freePort();
    const managementPort = await freePort();
    const collectorUrl = `http://127.0.0.1:${collectorPort}`;

    const first = startService(dataDir, collectorPort, managementPort);
    await waitForProbe(collectorUrl, first);
    const credentials = JSON.parse(await readFile(join(dataDir, 'local.json'), 'utf8'));
    expect(credentials).toMatchObject({ collector_url: collectorUrl, management_url: `http://127.0.0.1:${managementPort}` });
    expect(credentials.collector_application_id.length).toBeGreaterThanOrEqual(50);

    const headers = { 'content-type': 'application/json', 'x-service-application-id': credentials.collector_application_id };
    const events = Array.from({ length: 300 }, (_, i) => apiCall({ transaction_id: uuid(i) }));
    for (let i = 0; i < 3; i++) {
      const res = await send(`${collectorUrl}/v1/events/batch`, { method: 'POST', headers, body: JSON.stringify(events.slice(i * 100, i * 100 + 100)) });
      expect(res.status).toBe(201);
    }
    // Stop right after the acknowledgements: the shutdown must drain what is still on the stream.
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(processesMentioning(dataDir)).toEqual([]);

    const second = startService(dataDir, collectorPort, managementPort);
    try {
      await waitForProbe(collectorUrl, second);
      const again = JSON.parse(await readFile(join(dataDir, 'local.json'), 'utf8'));
      expect(again).toEqual(credentials);
      const auth = { authorization: `Bearer ${credentials.management_token}` };
      const missing: number[] = [];
      for (let i = 0; i < 300; i++) {
        const res = await send(`${credentials.management_url}/search/~/events/${uuid(i)}`, { method: 'GET', headers: auth });
        if (res.status !== 200) missing.push(i);
      }
      expect(missing).toEqual([]);
      // The collector still knows the app after the restart.
      expect((await send(`${collectorUrl}/v1/events`, { method: 'POST', headers, body: JSON.stringify(apiCall()) })).status).toBe(201);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
    expect(processesMentioning(dataDir)).toEqual([]);
  }, 240_000);
});
