import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { send } from './runtime';

/** `npm start` as a user runs it: a real process with its own emulators and data directory. */
const root = resolve(__dirname, '../../..');

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** Resolves with the exit code (null when a signal ended it). */
  readonly exited: Promise<number | null>;
  output(): string;
}

/** A port the services can listen on, for as long as a test restarts them. */
export async function freePort(): Promise<number> {
  // Below the OS's ephemeral range (Linux: 32768–60999): a service keeps its port across restarts,
  // and between them the OS could otherwise hand that port to an outgoing connection or an emulator.
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = STABLE_PORTS_FROM + Math.floor(Math.random() * STABLE_PORTS);
    if (await canListen(port)) return port;
  }
  throw new Error('no free port below the ephemeral range after 100 tries');
}

const STABLE_PORTS_FROM = 20_000;
const STABLE_PORTS = 12_000;

function canListen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

/** The service as `npm start` runs it, or with `viaNpm`, `npm start` itself (npm is then the process signalled). */
export function startService(dataDir: string, collectorPort: number, managementPort: number, env: Record<string, string> = {}, viaNpm = false): ServiceProcess {
  let output = '';
  // tsx as an in-process loader, as `npm start` runs it, so signals reach the service itself.
  const [command, args] = viaNpm ? ['npm', ['start', '--silent']] : [process.execPath, ['--import', 'tsx', join(root, 'bin/local.ts')]];
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, COLLECTOR_PORT: String(collectorPort), MANAGEMENT_PORT: String(managementPort), QUIET: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, exited, output: () => output };
}

export async function waitForProbe(url: string, service: { output: () => string }, timeoutMs = 90_000): Promise<void> {
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

/** True when something accepts connections on the port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

export function processesMentioning(text: string): string[] {
  const lines = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).split('\n');
  return lines.filter((l) => l.includes(text) && !l.includes('ps -eo'));
}

/** Waits until no process mentions `text` (the watchdog reaps the emulators of a killed service). */
export async function waitUntilNoProcessMentions(text: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (processesMentioning(text).length > 0) {
    if (Date.now() > deadline) throw new Error(`still running:\n${processesMentioning(text).join('\n')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
