/**
 * `npm run alerts -- --now`: one run of alert evaluation against the local service's data (DATA_DIR,
 * default .data), as `npm start` runs it every minute: every enabled alert whose interval has passed
 * is evaluated, and what fires or resolves is delivered (emails through SMTP_URL or into
 * DATA_DIR/outbox). Stop `npm start` first (DuckDB allows one process per data directory); this
 * command says so. A single alert is evaluated at once through the API: POST /~/alerts/{id}/evaluate.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalRuntime } from './local/runtime';
import { readRuntimeFile } from './local/runtime-file';

const USAGE = 'usage: npm run alerts -- --now';

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { now: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } } });
  if (!values.now || values.help) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const dataDir = resolve(process.env['DATA_DIR'] ?? '.data');
  const running = await readRuntimeFile(dataDir);
  if (running) {
    console.error(
      `[alerts] npm start (pid ${running.pid}) is running on ${dataDir} and holds its DuckDB file; it evaluates alerts itself every minute (or POST /~/alerts/{id}/evaluate runs one now). Stop it first to run from here.`,
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
  });
  try {
    await runtime.waitUntilConsumed(60_000);
    const summary = await runtime.alerts.runOnce();
    console.log(
      `alerts: ${summary.alerts} rules, ${summary.evaluated} evaluated, ${summary.fired} fired, ${summary.resolved} resolved, ${summary.delivered} delivered, ${summary.failed} failed`,
    );
    for (const problem of summary.problems) console.log(`  alert ${problem.alert_id} (${problem.org_id}/${problem.app_id}): ${problem.message}`);
    return summary.problems.length > 0 ? 1 : 0;
  } finally {
    await runtime.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('[alerts] failed:', error);
    process.exit(1);
  },
);
