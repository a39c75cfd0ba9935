import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AwsEndpoints } from '../../functions/shared/aws/clients';
import type { ProvisionedNames } from './provision';

/**
 * `DATA_DIR/runtime.json`: while `npm start` runs, where its emulators listen (random ports) and
 * what its resources are called, so command-line tools (npm run quarantine) reach the same service.
 */
export const RUNTIME_FILE = 'runtime.json';

export interface RuntimeFile {
  readonly pid: number;
  readonly endpoints: Required<AwsEndpoints>;
  readonly names: ProvisionedNames;
}

/** The running runtime's file, or undefined when none runs on this data directory. */
export async function readRuntimeFile(dataDir: string): Promise<RuntimeFile | undefined> {
  try {
    const file = JSON.parse(await readFile(join(dataDir, RUNTIME_FILE), 'utf8')) as RuntimeFile;
    process.kill(file.pid, 0); // throws when that process is gone (a kill -9 leaves the file behind)
    return file;
  } catch {
    return undefined;
  }
}
