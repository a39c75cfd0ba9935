/** Lambda entry: the scheduled behavioural email sender (EventBridge, every 15 minutes). */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { emailSender, emailTransport } from '../composition-root/email-services';
import { lambdaStoresInput } from '../composition-root/lambda-stores';
import { ServiceStores } from '../composition-root/service-stores';
import { EmailSenderEnv, parseEnv } from '../definitions/environment';
import { secretsManagerSigningKey } from '../management-tokens/signing-key';
import { searchIndexFromEnv } from '../search/search-backend';

const env = parseEnv(EmailSenderEnv);
const index = searchIndexFromEnv(env);
const send = emailSender(new ServiceStores(lambdaStoresInput(env)), {
  index,
  signingKey: secretsManagerSigningKey(new SecretsManagerClient({ region: env.AWS_REGION }), env.TOKEN_SIGNING_SECRET_ARN),
  transport: emailTransport({ kind: 'ses', region: env.AWS_REGION, ...(env.SES_CONFIGURATION_SET ? { sesConfigurationSet: env.SES_CONFIGURATION_SET } : {}) }),
  publicBaseUrl: env.PUBLIC_BASE_URL,
});

export const handler = async () => {
  await index.ensureReady();
  const summary = await send();
  // One structured line per run: CloudWatch metric filters and alarms read it.
  console.log(JSON.stringify({ level: summary.problems.length > 0 ? 'warn' : 'info', message: 'email run', ...summary }));
  return summary;
};
