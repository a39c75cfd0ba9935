import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fresh temporary folder for each test of the enclosing describe (removed after it), for
 * DuckDB files: `path(name)` is a file in the current test's folder.
 */
export function folderPerTest(prefix: string): { path: (name: string) => string } {
  let folder = '';
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });
  return { path: (name) => join(folder, name) };
}
