/** Lambda entry: the behavioural email sender and cohort notifications (EventBridge schedule, every 15 minutes), and the recorder of SES bounces and complaints. */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { cohortNotifier, emailSender, sesEmailTransport } from '../composition-root/email-services';
import { lambdaStoresInput } from '../composition-root/lambda-stores';
import { ServiceStores } from '../composition-root/service-stores';
import { EmailSenderEnv, parseEnv } from '../definitions/environment';
import { secretsManagerSigningKey } from '../management-tokens/signing-key';
import { searchIndexFromEnv } from '../search/search-backend';
import { recordSesEvent, type SesEvent } from './ses-events';

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
  const summary = await send();
  // One structured line per run: CloudWatch metric filters and alarms read it.
  console.log(JSON.stringify({ level: summary.problems.length > 0 ? 'warn' : 'info', message: 'email run', ...summary }));
  const notifications = await notify();
  console.log(JSON.stringify({ level: notifications.problems.length > 0 ? 'warn' : 'info', message: 'cohort notifications', ...notifications }));
  return { emails: summary, notifications };
};
