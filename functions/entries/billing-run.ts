/** Lambda entry: the scheduled billing run (EventBridge, every 5 minutes) over every app with meters. */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { BillingRunEnv, parseEnv } from '../definitions/environment';
import { billingRunDeps } from '../composition-root/billing-services';
import { lambdaStoresInput } from '../composition-root/lambda-stores';
import { ServiceStores } from '../composition-root/service-stores';
import { searchIndexFromEnv } from '../search/search-backend';
import { embeddedMetrics } from '../shared/metrics';
import { runBilling, type BillingRunSummary } from '../billing/run/billing-run';
import { providerClients, type ProviderClientLookup } from '../billing/run/provider-registry';

const env = parseEnv(BillingRunEnv);
const stores = new ServiceStores(lambdaStoresInput(env));
const index = searchIndexFromEnv(env);
const secrets = new SecretsManagerClient({ region: env.AWS_REGION });
let lookup: Promise<ProviderClientLookup> | undefined;
// The FailedReports alarm reads this (namespace, name and dimension as FAILED_REPORTS_METRIC in lib/monitoring.ts).
const metrics = embeddedMetrics('UsageAnalytics/Billing', { Service: 'billing-run' });

async function loadProviders(): Promise<ProviderClientLookup> {
  if (!env.BILLING_PROVIDERS_SECRET_ARN) return providerClients({});
  const secret = await secrets.send(new GetSecretValueCommand({ SecretId: env.BILLING_PROVIDERS_SECRET_ARN }));
  return providerClients(JSON.parse(secret.SecretString ?? '{}'));
}

export async function handler(_event: unknown, context?: { getRemainingTimeInMillis?: () => number }): Promise<BillingRunSummary> {
  lookup ??= loadProviders().catch((error: unknown) => {
    lookup = undefined;
    throw error;
  });
  const providerClient = await lookup;
  // Stop taking new windows with a margin before the Lambda timeout; the next run continues.
  const remaining = context?.getRemainingTimeInMillis?.() ?? env.BILLING_TIME_BUDGET_MS;
  const summary = await runBilling({
    now: new Date(),
    timeBudgetMs: Math.max(10_000, Math.min(env.BILLING_TIME_BUDGET_MS, remaining - 60_000)),
    deps: billingRunDeps(stores, { index, providerClient, webhookOptions: { allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS } }),
  });
  for (const error of summary.errors)
    console.error(JSON.stringify({ message: 'billing meter failed', tenant: error.tenant, meter_id: error.meterId, error: error.message }));
  for (const warning of summary.warnings)
    console.warn(
      JSON.stringify({
        message: 'billing meter bills nothing as set up',
        tenant: warning.tenant,
        meter_id: warning.meterId,
        meter_name: warning.meterName,
        code: warning.code,
        reason: warning.message,
      }),
    );
  console.log(JSON.stringify({ message: 'billing run', ...summary, errors: summary.errors.length, warnings: summary.warnings.length }));
  metrics({ FailedReports: summary.failed, MeterErrors: summary.errors.length });
  return summary;
}
