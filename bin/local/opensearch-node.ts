import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

/**
 * A real OpenSearch 2.19 node on this machine, without Docker or a distribution download: the
 * Maven project in tools/opensearch-node (the server and the modules the adapter needs, from Maven
 * Central) is built once into .cache/opensearch and run with Java 17. Tests start one per run,
 * `npm run opensearch` one by hand, and `SEARCH_BACKEND=opensearch npm start` one for local mode.
 */

const ROOT = resolve(__dirname, '../..');
const PROJECT = join(ROOT, 'tools/opensearch-node');
/** Maven's downloads and the built node: git-ignored, reused by every later run. */
const CACHE = join(ROOT, '.cache/opensearch');
const REPOSITORY = join(CACHE, 'm2');
const CLASSES = join(PROJECT, 'target/classes');
const LIBRARIES = join(PROJECT, 'target/lib');
const SOURCE = join(PROJECT, 'src/main/java/local/opensearch/LocalOpenSearch.java');

export interface OpenSearchNode {
  readonly url: string;
  stop(): Promise<void>;
}

export interface OpenSearchNodeOptions {
  /** The node's home: its data and logs. */
  readonly home: string;
  /** HTTP port; default a free one. */
  readonly port?: number;
  /** Java heap in MB (-Xms and -Xmx); default 512. */
  readonly heapMb?: number;
  readonly log?: (line: string) => void;
}

/** Builds the node with Maven unless the build is there and newer than its sources. */
export function ensureOpenSearchBuilt(log: (line: string) => void = () => {}): void {
  const built = existsSync(join(CLASSES, 'local/opensearch/LocalOpenSearch.class')) && existsSync(LIBRARIES) && readdirSync(LIBRARIES).length > 0;
  if (
    built &&
    statSync(join(CLASSES, 'local/opensearch/LocalOpenSearch.class')).mtimeMs >= Math.max(statSync(SOURCE).mtimeMs, statSync(join(PROJECT, 'pom.xml')).mtimeMs)
  )
    return;
  log('building the local OpenSearch node with Maven (the first time downloads about 50 MB from Maven Central) ...');
  mkdirSync(REPOSITORY, { recursive: true });
  const build = spawnSync('mvn', ['-q', '-B', `-Dmaven.repo.local=${REPOSITORY}`, 'package'], { cwd: PROJECT, encoding: 'utf8' });
  if (build.error)
    throw new Error(
      `could not run Maven (mvn) to build the local OpenSearch node: ${build.error.message}. Install Maven and a JDK 17 (Debian: apt-get install maven openjdk-17-jdk-headless).`,
    );
  if (build.status !== 0) throw new Error(`Maven could not build the local OpenSearch node:\n${(build.stdout + build.stderr).slice(-4000)}`);
}

/** Starts a node and resolves once it answers HTTP; it stops with `stop()` or when this process exits. */
export async function startOpenSearchNode(options: OpenSearchNodeOptions): Promise<OpenSearchNode> {
  ensureOpenSearchBuilt(options.log);
  const port = options.port ?? (await freePort());
  const heap = options.heapMb ?? 512;
  mkdirSync(options.home, { recursive: true });
  const child = spawn(
    'java',
    [
      `-Xms${heap}m`,
      `-Xmx${heap}m`,
      '-XX:+UseSerialGC',
      '-Dlog4j2.disable.jmx=true',
      '-cp',
      `${CLASSES}:${LIBRARIES}/*`,
      'local.opensearch.LocalOpenSearch',
      options.home,
      String(port),
    ],
    // stdin stays a pipe this process holds: the node exits when it closes, even if this process is killed.
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  await new Promise<void>((ready, fail) => {
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (output.includes('OPENSEARCH_READY')) ready();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (error) => fail(new Error(`could not start Java for the local OpenSearch node: ${error.message}`)));
    void exited.then((code) => fail(new Error(`the local OpenSearch node exited (${code}) before it answered:\n${output}`)));
  });
  child.stdout!.removeAllListeners('data');
  child.stderr!.removeAllListeners('data');
  child.stdout!.resume();
  child.stderr!.resume();
  const url = `http://127.0.0.1:${port}`;
  options.log?.(`OpenSearch 2.19 node at ${url} (home ${options.home})`);
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}
