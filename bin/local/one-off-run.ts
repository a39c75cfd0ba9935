import { resolve } from 'node:path';
import { startLocalRuntime, type LocalRuntime, type LocalRuntimeOptions } from './runtime';
import { readRuntimeFile } from './runtime-file';

/**
 * A command that runs one job once against the local service's data (DATA_DIR, default .data): it
 * refuses while `npm start` holds that directory (DuckDB allows one process per file), starts the
 * runtime with every timer off and emails through SMTP_URL (else the outbox), waits for what was
 * acknowledged to be indexed, runs `job`, and stops. Answers the exit code.
 */
export async function runOnceOnLocalData(
  tool: string,
  /** What npm start does instead, for the refusal: "it sends emails itself every …". */
  whileRunning: string,
  job: (runtime: LocalRuntime, dataDir: string) => Promise<number>,
  options: Partial<LocalRuntimeOptions> = {},
): Promise<number> {
  const dataDir = resolve(process.env['DATA_DIR'] ?? '.data');
  const running = await readRuntimeFile(dataDir);
  if (running) {
    console.error(
      `[${tool}] npm start (pid ${running.pid}) is running on ${dataDir} and holds its DuckDB file; ${whileRunning}. Stop it first to run from here.`,
    );
    return 1;
  }
  const smtpUrl = process.env['SMTP_URL'];
  const runtime = await startLocalRuntime({
    dataDir,
    collectorPort: 0,
    managementPort: 0,
    billingIntervalMs: 0,
    governanceRefreshMs: 0,
    email: { intervalMs: 0, ...(smtpUrl ? { smtpUrl } : {}) },
    cohortNotifications: { intervalMs: 0 },
    alerts: { intervalMs: 0 },
    ...options,
  });
  try {
    await runtime.waitUntilConsumed(60_000);
    return await job(runtime, dataDir);
  } finally {
    await runtime.stop();
  }
}
