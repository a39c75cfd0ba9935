import { execFile } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The console's sources and its build (console/dist), relative to the project. */
export const CONSOLE_ROOT = resolve(__dirname, '../../console');
export const CONSOLE_DIST = join(CONSOLE_ROOT, 'dist');
/** Vite's command (its package does not export the file, so it is found where npm installs it). */
const VITE_COMMAND = resolve(__dirname, '../../node_modules/vite/bin/vite.js');

/** The newest modification time under a path (a file or a folder), 0 when it does not exist. */
async function newestChange(path: string): Promise<number> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of await readdir(path)) newest = Math.max(newest, await newestChange(join(path, entry)));
  return newest;
}

/** True when console/dist is missing or older than any of the console's sources. */
export async function consoleBuildIsStale(root: string = CONSOLE_ROOT): Promise<boolean> {
  const built = await newestChange(join(root, 'dist', 'index.html'));
  if (built === 0) return true;
  const sources = Math.max(
    await newestChange(join(root, 'src')),
    await newestChange(join(root, 'index.html')),
    await newestChange(join(root, 'vite.config.ts')),
  );
  return sources > built;
}

/**
 * Builds the console with Vite unless console/dist is current: `npm start` calls this, so a fresh
 * clone needs no extra command. Returns whether it built.
 */
export async function ensureConsoleBuilt(options: { root?: string; log?: (line: string) => void; force?: boolean } = {}): Promise<boolean> {
  const root = options.root ?? CONSOLE_ROOT;
  if (!options.force && !(await consoleBuildIsStale(root))) return false;
  options.log?.('console: building with Vite (console/dist)…');
  const started = Date.now();
  // Vite's own command in a child process: Vite is an ES module, which the callers (jest among them)
  // cannot always load in process.
  // NODE_ENV=production whatever the caller runs under (jest sets it to `test`, which would make
  // Vite bundle React's development build, three times the size).
  await run(process.execPath, [VITE_COMMAND, 'build', root, '--logLevel', 'warn'], {
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  options.log?.(`console: built in ${Date.now() - started} ms`);
  return true;
}
