/**
 * `npm run alerts -- --now`: one run of alert evaluation against the local service's data (DATA_DIR,
 * default .data), as `npm start` runs it every minute: every enabled alert whose interval has passed
 * is evaluated, and what fires or resolves is delivered (emails through SMTP_URL or into
 * DATA_DIR/outbox). Stop `npm start` first (DuckDB allows one process per data directory); this
 * command says so. A single alert is evaluated at once through the API: POST /~/alerts/{id}/evaluate.
 */
import { parseArgs } from 'node:util';
import { runOnceOnLocalData } from './local/one-off-run';

const USAGE = 'usage: npm run alerts -- --now';

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { now: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } } });
  if (!values.now || values.help) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  return runOnceOnLocalData('alerts', 'it evaluates alerts itself every minute (and POST /~/alerts/{id}/evaluate runs one now)', async (runtime) => {
    const summary = await runtime.alerts.runOnce();
    console.log(
      `alerts: ${summary.alerts} rules, ${summary.evaluated} evaluated, ${summary.fired} fired, ${summary.resolved} resolved, ${summary.delivered} delivered, ${summary.failed} failed`,
    );
    for (const problem of summary.problems) console.log(`  alert ${problem.alert_id} (${problem.org_id}/${problem.app_id}): ${problem.message}`);
    return summary.problems.length > 0 ? 1 : 0;
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('[alerts] failed:', error);
    process.exit(1);
  },
);
