/** Lambda entry: the management API's OAuth, access-token and resource routes, and the web console at /console/. */
import { join } from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { providerConnections, type ProviderConnectionLookup } from '../billing/run/provider-registry';
import { lambdaStoresInput } from '../composition-root/lambda-stores';
import { ServiceStores } from '../composition-root/service-stores';
import { sesEmailTransport } from '../composition-root/email-services';
import { governanceRefresher, managementApiHandler } from '../composition-root/management-services';
import { ManagementApiEnv, parseEnv } from '../definitions/environment';
import { governanceChangeHook } from '../governance/refresher';
import { secretsManagerSigningKey } from '../management-tokens/signing-key';
import { searchIndexFromEnv } from '../search/search-backend';
import { withConsole } from '../web-console/console-assets';

const env = parseEnv(ManagementApiEnv);
// This Lambda recomputes rule snapshots after governance changes: it reads them fresh (no cache).
const stores = new ServiceStores(
  lambdaStoresInput(env, {
    ruleConfigCacheTtlMs: 0,
    managementRateLimitPerMinute: env.MANAGEMENT_RATE_LIMIT_PER_MINUTE,
    queryTimeBudgetMs: env.QUERY_TIME_BUDGET_MS,
    concurrentQueriesPerOrg: env.CONCURRENT_QUERIES_PER_ORG,
  }),
);
const index = searchIndexFromEnv(env);
const secrets = new SecretsManagerClient({ region: env.AWS_REGION });
let connections: Promise<ProviderConnectionLookup> | undefined;
/** The apps' provider connections, read on the first provider webhook (not at every cold start); read again after a failure. */
function providerConnectionsOnce(): Promise<ProviderConnectionLookup> {
  const arn = env.BILLING_PROVIDERS_SECRET_ARN;
  if (!arn) return Promise.resolve(providerConnections({}));
  connections ??= secrets.send(new GetSecretValueCommand({ SecretId: arn })).then(
    (secret) => providerConnections(JSON.parse(secret.SecretString ?? '{}')),
    (error: unknown) => {
      connections = undefined;
      throw error;
    },
  );
  return connections;
}

const api = managementApiHandler(stores, {
  index,
  signingKey: secretsManagerSigningKey(secrets, env.TOKEN_SIGNING_SECRET_ARN),
  providerConnections: providerConnectionsOnce,
  // Governance changes recompute the app's rule membership before the answer (the schedule catches the rest).
  onGovernanceChange: governanceChangeHook(governanceRefresher(stores, index)),
  webhookAllowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
  slackHosts: env.SLACK_WEBHOOK_HOSTS,
  // A template's test message goes out as the scheduled sender's do: through SES.
  emailTransport: sesEmailTransport(env.AWS_REGION, env.SES_CONFIGURATION_SET),
  ...(env.NOTIFICATIONS_FROM ? { notificationsFrom: env.NOTIFICATIONS_FROM } : {}),
});

// The console's built files travel in the bundle (lib/management-api.ts builds them into console/); it
// calls the API on the origin it is served from, so it needs no URL of its own.
export const handler = withConsole(api, { distDir: join(__dirname, 'console') });
