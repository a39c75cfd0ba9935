/** Lambda entry: the behavioural email sender and cohort notifications (EventBridge schedule, every 15 minutes), and the recorder of SES bounces and complaints. */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { cohortNotifier, emailSender, sesEmailTransport } from '../composition-root/email-services';
import { lambdaStoresInput } from '../composition-root/lambda-stores';
import { ServiceStores } from '../composition-root/service-stores';
import { EmailSenderEnv, parseEnv } from '../definitions/environment';
import { secretsManagerSigningKey } from '../management-tokens/signing-key';
import { searchIndexFromEnv } from '../search/search-backend';
import { recordSesEvent, type SesEvent } from '../emails/ses-events';

const env = parseEnv(EmailSenderEnv);
const index = searchIndexFromEnv(env);
const stores = new ServiceStores(lambdaStoresInput(env));
const transport = sesEmailTransport(env.AWS_REGION, env.SES_CONFIGURATION_SET);
const send = emailSender(stores, {
  index,
  signingKey: secretsManagerSigningKey(new SecretsManagerClient({ region: env.AWS_REGION }), env.TOKEN_SIGNING_SECRET_ARN),
  transport,
  publicBaseUrl: env.PUBLIC_BASE_URL,
});
// Cohort notifications go out on the same schedule, through the same transport (webhooks to public URLs only).
const notify = cohortNotifier(stores, { index, transport, ...(env.NOTIFICATIONS_FROM ? { emailFrom: env.NOTIFICATIONS_FROM } : {}) });

/** Two sources: the schedule (send) and SES's bounce and complaint events (record them). */
export const handler = async (event: SesEvent = {}) => {
  if (event.source === 'aws.ses') {
    const outcome = await recordSesEvent(stores.emailSends, event, new Date());
    console.log(JSON.stringify({ level: outcome === 'not-ours' ? 'warn' : 'info', message: 'ses event', detailType: event['detail-type'], outcome }));
    return { outcome };
  }
  await index.ensureReady();
  // Two independent jobs on one schedule: one failing must not keep the other from running.
  const [emails, notifications] = await Promise.allSettled([send(), notify()]);
  for (const [message, outcome] of [
    ['email run', emails],
    ['cohort notifications', notifications],
  ] as const) {
    // One structured line per job and run: CloudWatch metric filters and alarms read it.
    if (outcome.status === 'rejected') console.error(JSON.stringify({ level: 'error', message: `${message} failed`, error: String(outcome.reason) }));
    else console.log(JSON.stringify({ level: outcome.value.problems.length > 0 ? 'warn' : 'info', message, ...outcome.value }));
  }
  if (emails.status === 'rejected') throw emails.reason;
  if (notifications.status === 'rejected') throw notifications.reason;
  return { emails: emails.value, notifications: notifications.value };
};
