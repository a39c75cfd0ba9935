import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { startEmulators, type RunningEmulators } from '../../bin/local/emulators';
import { ENDPOINT_ENV } from './support/emulators';

/** Shared with global-teardown.ts, which runs in the same process. */
export const EMULATORS_KEY = '__integrationEmulators';
/** Every local server of the run (in-process or `npm start`) records its answers here; teardown checks them. */
export const ANSWER_LOG = resolve(tmpdir(), `uab-answers-${process.pid}.ndjson`);

/**
 * Starts DynamoDB Local, kinesis-local and s3rver once for the whole integration run (in memory,
 * temp dirs) and hands their endpoints to the test workers through the environment, which
 * workers inherit from this process. Each test file provisions its own prefixed resources.
 */
export default async function globalSetup(): Promise<void> {
  // The SDK warns about Node 20 on every worker; the Lambda runtime is Node 22 anyway.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  rmSync(ANSWER_LOG, { force: true });
  process.env.OPENAPI_ANSWER_LOG = ANSWER_LOG;
  // Their output is only shown on request (EMULATOR_LOGS=1); a failed start reports its tail anyway.
  const emulators = await startEmulators({ log: process.env.EMULATOR_LOGS ? (line) => process.stderr.write(`${line}\n`) : undefined });
  (globalThis as Record<string, unknown>)[EMULATORS_KEY] = emulators satisfies RunningEmulators;
  for (const service of Object.keys(ENDPOINT_ENV) as Array<keyof typeof ENDPOINT_ENV>) {
    process.env[ENDPOINT_ENV[service]] = emulators.endpoints[service];
  }
}
