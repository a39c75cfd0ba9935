import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * A Python virtual environment with the packages of a requirements file, made once from PyPI into
 * the git-ignored .cache/python (made again when the file changes). Returns its python.
 */
export function pythonWith(requirements: string): string {
  const root = resolve(__dirname, '../../..');
  const text = readFileSync(requirements, 'utf8');
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
  const venv = join(root, '.cache/python', `venv-${hash}`);
  const python = join(venv, 'bin', 'python');
  const done = join(venv, '.installed');
  if (existsSync(done)) return python;
  const run = (command: string, args: string[]) => {
    const result = spawnSync(command, args, { encoding: 'utf8' });
    if (result.error) throw new Error(`could not run ${command}: ${result.error.message} (Debian: apt-get install python3-venv)`);
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${(result.stdout + result.stderr).slice(-4000)}`);
  };
  run('python3', ['-m', 'venv', '--clear', venv]);
  run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', requirements]);
  writeFileSync(done, text);
  return python;
}
