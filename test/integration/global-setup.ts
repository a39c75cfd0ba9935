import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { startEmulators, type RunningEmulators } from '../../bin/local/emulators';
import { startOpenSearchNode } from '../../bin/local/opensearch-node';
import { ENDPOINT_ENV } from './support/emulators';

/** Shared with global-teardown.ts, which runs in the same process. */
export const EMULATORS_KEY = '__integrationEmulators';
export const OPENSEARCH_KEY = '__integrationOpenSearch';
/** Every local server of the run (in-process or `npm start`) records its answers here; teardown checks them. */
export const ANSWER_LOG = resolve(tmpdir(), `uab-answers-${process.pid}.ndjson`);

/**
 * Starts DynamoDB Local, kinesis-local, s3rver and an OpenSearch node once for the whole
 * integration run (in memory, temp dirs) and hands their endpoints to the test workers through the environment, which
 * workers inherit from this process. Each test file provisions its own prefixed resources.
 */
export default async function globalSetup(): Promise<void> {
  // The SDK warns about Node 20 on every worker; the Lambda runtime is Node 22 anyway.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  rmSync(ANSWER_LOG, { force: true });
  process.env.OPENAPI_ANSWER_LOG = ANSWER_LOG;
  // Their output is only shown on request (EMULATOR_LOGS=1); a failed start reports its tail anyway.
  const log = process.env.EMULATOR_LOGS ? (line: string) => process.stderr.write(`${line}\n`) : undefined;
  // A real OpenSearch 2.19 node beside the emulators (unless OPENSEARCH_URL names a cluster): the
  // search suites run against it and DuckDB alike.
  if (!process.env.OPENSEARCH_URL) {
    const home = mkdtempSync(resolve(tmpdir(), 'uab-opensearch-'));
    const node = await startOpenSearchNode({ home, log: (line) => process.stderr.write(`${line}\n`) });
    (globalThis as Record<string, unknown>)[OPENSEARCH_KEY] = { node, home };
    process.env.OPENSEARCH_URL = node.url;
  }
  const emulators = await startEmulators({ log });
  (globalThis as Record<string, unknown>)[EMULATORS_KEY] = emulators satisfies RunningEmulators;
  for (const service of Object.keys(ENDPOINT_ENV) as Array<keyof typeof ENDPOINT_ENV>) {
    process.env[ENDPOINT_ENV[service]] = emulators.endpoints[service];
  }
}
