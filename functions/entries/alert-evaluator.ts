/** Lambda entry: alert evaluation (EventBridge, every minute): every due alert of every app with alerts, and the delivery of what fired or resolved. */
import { runAlerts } from '../alerts/alert-runner';
import { alertRunDeps, sesEmailTransport } from '../composition-root/email-services';
import { lambdaStoresInput } from '../composition-root/lambda-stores';
import { ServiceStores } from '../composition-root/service-stores';
import { AlertEvaluatorEnv, parseEnv } from '../definitions/environment';
import { searchIndexFromEnv } from '../search/search-backend';

const env = parseEnv(AlertEvaluatorEnv);
const index = searchIndexFromEnv(env);
// Webhooks, Slack and PagerDuty go to public addresses only (the guarded transport's default).
const deps = alertRunDeps(new ServiceStores(lambdaStoresInput(env)), {
  index,
  transport: sesEmailTransport(env.AWS_REGION, env.SES_CONFIGURATION_SET),
  webhookOptions: { allowPrivateTargets: false, slackHosts: env.SLACK_WEBHOOK_HOSTS },
  ...(env.NOTIFICATIONS_FROM ? { emailFrom: env.NOTIFICATIONS_FROM } : {}),
});

export async function handler() {
  await index.ensureReady();
  const summary = await runAlerts(deps);
  // One structured line per run: CloudWatch metric filters and alarms read it.
  console.log(JSON.stringify({ level: summary.problems.length > 0 ? 'warn' : 'info', message: 'alert run', ...summary }));
  return summary;
}
