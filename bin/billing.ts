/**
 * `npm run billing -- --now`: one billing run against the local service's data (DATA_DIR, default
 * .data), the same data `npm start` uses. It starts the local runtime the way `npm start` does
 * (emulators, DuckDB), runs billing once, prints progress and a summary, and stops.
 * Stop `npm start` first: DuckDB allows one process per data directory; this command sees a running
 * one through DATA_DIR/runtime.json and says so before starting anything (while `npm start` runs,
 * its own timer runs billing every BILLING_INTERVAL_MS, default 60 s).
 *
 *   --now            required: run now (the clock decides which windows have closed)
 *   --at <ISO time>  run as if it were that time (windows closed by then are billed)
 *   --budget <ms>    stop taking new windows after this long (the next run continues)
 *   --quiet          summary only
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { summaryLine, warningLine } from './local/periodic-billing';
import { startLocalRuntime } from './local/runtime';
import { readRuntimeFile } from './local/runtime-file';

const USAGE = 'usage: npm run billing -- --now [--at <ISO time>] [--budget <ms>] [--quiet]';

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { now: { type: 'boolean', default: false }, at: { type: 'string' }, budget: { type: 'string' }, quiet: { type: 'boolean', default: false } },
  });
  if (!values.now && !values.at) {
    console.error(USAGE);
    return 2;
  }
  const now = values.at ? new Date(values.at) : new Date();
  const budget = values.budget ? Number(values.budget) : undefined;
  if (Number.isNaN(now.getTime()) || (budget !== undefined && !(budget > 0))) {
    console.error(USAGE);
    return 2;
  }
  const dataDir = resolve(process.env['DATA_DIR'] ?? '.data');
  // Checked before anything starts: npm start holds DuckDB's lock on this data directory.
  const running = await readRuntimeFile(dataDir);
  if (running) {
    console.error(
      `[billing] npm start (pid ${running.pid}) is running on ${dataDir} and holds its DuckDB file; it runs billing itself every BILLING_INTERVAL_MS (default 60 s). Stop it first to run billing from here.`,
    );
    return 1;
  }
  console.error(`[billing] starting the local runtime (data in ${dataDir}) ...`);
  let runtime: Awaited<ReturnType<typeof startLocalRuntime>>;
  try {
    runtime = await startLocalRuntime({ dataDir, collectorPort: 0, managementPort: 0, billingIntervalMs: 0, governanceRefreshMs: 0 });
  } catch (error) {
    // The usual cause: `npm start` holds the data directory (DuckDB's lock, the emulators' ports).
    console.error(`[billing] could not open ${dataDir}: ${error instanceof Error ? error.message : String(error)}`);
    console.error('[billing] if `npm start` is running, stop it first (it runs billing itself every BILLING_INTERVAL_MS)');
    return 1;
  }
  try {
    await runtime.waitUntilConsumed(60_000);
    const started = Date.now();
    const summary = await runtime.billing.runOnce({
      now,
      ...(budget ? { timeBudgetMs: budget } : {}),
      onProgress: (p) => {
        if (values.quiet) return;
        const window = p.window ? ` ${p.window.start.toISOString()}` : '';
        console.error(
          `[billing] ${((Date.now() - started) / 1000).toFixed(1)}s ${p.tenant.orgId}/${p.tenant.appId} meter ${p.meterId} ${p.phase}${window}${p.reports !== undefined ? ` (${p.reports} reports)` : ''}${p.detail ? ` — ${p.detail}` : ''}`,
        );
      },
    });
    console.log(`billing run: ${summaryLine(summary)}`);
    for (const error of summary.errors) console.log(`  meter ${error.meterId} (${error.tenant.orgId}/${error.tenant.appId}): ${error.message}`);
    for (const warning of summary.warnings) console.log(`  ${warningLine(warning)}`);
    return summary.errors.length > 0 ? 1 : 0;
  } finally {
    await runtime.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('[billing] failed:', error);
    process.exit(1);
  },
);
