import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** The console's sources and its build (console/dist), relative to the project. */
export const CONSOLE_ROOT = resolve(__dirname, '../../console');

/** The newest modification time under a path (a file or a folder), 0 when it does not exist. */
async function newestChange(path: string): Promise<number> {
  let info;
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
  const sources = Math.max(await newestChange(join(root, 'src')), await newestChange(join(root, 'index.html')), await newestChange(join(root, 'vite.config.ts')));
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
  const { build } = await import('vite');
  await build({ configFile: join(root, 'vite.config.ts'), root, logLevel: 'warn' });
  options.log?.(`console: built in ${Date.now() - started} ms`);
  return true;
}
