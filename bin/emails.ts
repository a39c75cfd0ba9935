/**
 * `npm run emails -- --now`: one run of the behavioural email sender against the local service's
 * data (DATA_DIR, default .data), as `npm start` runs it every EMAIL_INTERVAL_MS: every active
 * template's last closed period, to its cohorts' members, through SMTP_URL or into DATA_DIR/outbox.
 * Stop `npm start` first (DuckDB allows one process per data directory); this command says so.
 * Unsubscribe links point at MANAGEMENT_PORT (3001), where `npm start` serves them.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runOnceOnLocalData } from './local/one-off-run';

const USAGE = 'usage: npm run emails -- --now';

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { now: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } } });
  if (!values.now || values.help) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  return runOnceOnLocalData(
    'emails',
    'it sends emails itself every EMAIL_INTERVAL_MS (default 60 s)',
    async (runtime, dataDir) => {
      const summary = await runtime.emails.runOnce();
      console.log(
        `emails (${runtime.emailTransport.name}): ${summary.templates} active templates, ${summary.recipients} recipients: ${summary.sent} sent, ${summary.retrying} retrying, ${summary.failed} failed, ${summary.unconfirmed} unconfirmed, ${summary.suppressed} unsubscribed, ${summary.alreadyDone} already done for their period`,
      );
      for (const problem of summary.problems) console.log(`  template ${problem.template_id} (${problem.org_id}/${problem.app_id}): ${problem.message}`);
      if (runtime.emailTransport.name === 'outbox') console.log(`  messages are in ${resolve(dataDir, 'outbox')} (set SMTP_URL to send them)`);
      return summary.problems.length > 0 ? 1 : 0;
    },
    // Unsubscribe links point where npm start serves them.
    { managementPort: Number(process.env['MANAGEMENT_PORT'] ?? 3001) },
  );
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('[emails] failed:', error);
    process.exit(1);
  },
);
