/** Lambda entry: the scheduled billing run (EventBridge, every 5 minutes): first the due provider syncs in, then every app with meters. */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { BillingRunEnv, parseEnv } from '../definitions/environment';
import { billingRunDeps, completenessDeps, providerSyncDeps, reconcileDeps } from '../composition-root/billing-services';
import { reconcileDueMeters } from '../billing/reconcile/reconcile-due';
import { measureDueLateness } from '../billing/completeness/lateness-due';
import { lambdaStoresInput } from '../composition-root/lambda-stores';
import { ServiceStores } from '../composition-root/service-stores';
import { searchIndexFromEnv } from '../search/search-backend';
import { embeddedMetrics } from '../shared/metrics';
import { appsWithMeters, runBilling, type BillingRunSummary } from '../billing/run/billing-run';
import { providerClients, providerConnections, type ProviderClientLookup, type ProviderConnectionLookup } from '../billing/run/provider-registry';
import { runDueSyncs } from '../billing/sync/sync-run';

const env = parseEnv(BillingRunEnv);
const stores = new ServiceStores(lambdaStoresInput(env));
const index = searchIndexFromEnv(env);
const secrets = new SecretsManagerClient({ region: env.AWS_REGION });
let lookup: Promise<{ clients: ProviderClientLookup; connections: ProviderConnectionLookup }> | undefined;
/** The share of a tick the syncs in may take (a large first import goes on in the next ticks, from its cursor). */
const SYNC_SHARE = 0.3;
// The FailedReports alarm reads this (namespace, name and dimension as FAILED_REPORTS_METRIC in lib/monitoring.ts).
const metrics = embeddedMetrics('UsageAnalytics/Billing', { Service: 'billing-run' });

async function loadProviders(): Promise<{ clients: ProviderClientLookup; connections: ProviderConnectionLookup }> {
  const document: unknown = env.BILLING_PROVIDERS_SECRET_ARN
    ? JSON.parse((await secrets.send(new GetSecretValueCommand({ SecretId: env.BILLING_PROVIDERS_SECRET_ARN }))).SecretString ?? '{}')
    : {};
  return { clients: providerClients(document), connections: providerConnections(document) };
}

export async function handler(_event: unknown, context?: { getRemainingTimeInMillis?: () => number }): Promise<BillingRunSummary> {
  lookup ??= loadProviders().catch((error: unknown) => {
    lookup = undefined;
    throw error;
  });
  const { clients: providerClient, connections } = await lookup;
  // Stop taking new windows with a margin before the Lambda timeout; the next run continues.
  let remaining = context?.getRemainingTimeInMillis?.() ?? env.BILLING_TIME_BUDGET_MS;
  const syncStarted = Date.now();
  // A sync that cannot run (its progress unreadable) must not keep the tick from billing.
  try {
    const syncs = await runDueSyncs(providerSyncDeps(stores, connections), Math.floor(Math.min(env.BILLING_TIME_BUDGET_MS, remaining) * SYNC_SHARE));
    if (syncs.synced + syncs.failed > 0) console.log(JSON.stringify({ message: 'provider syncs', ...syncs }));
  } catch (error) {
    console.error(JSON.stringify({ message: 'provider syncs failed', error: error instanceof Error ? error.message : String(error) }));
  }
  remaining -= Date.now() - syncStarted;
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
  // Reconciliation with Stripe when due (every 6 hours a meter), in what is left of the tick; the
  // apps and meters are listed once for it and the lateness measurement after it.
  const left = (context?.getRemainingTimeInMillis?.() ?? 0) - 60_000;
  const listed = left > 10_000 ? appsWithMeters({ resources: stores.resources }) : undefined;
  listed?.catch(() => undefined);
  if (listed) {
    const reconciled = await reconcileDueMeters(
      reconcileDeps(stores, index, async () => connections),
      left,
      (line) => console.error(line),
      listed,
    ).catch((error: unknown) => {
      console.error(JSON.stringify({ message: 'reconciliation failed', error: error instanceof Error ? error.message : String(error) }));
      return { checked: 0, failed: 0 };
    });
    if (reconciled.checked + reconciled.failed > 0) console.log(JSON.stringify({ message: 'reconciliations', ...reconciled }));
  }
  // Each meter's lateness once a day (what the grace period follows), in what is left after that.
  const rest = (context?.getRemainingTimeInMillis?.() ?? 0) - 60_000;
  if (listed && rest > 10_000) {
    const lateness = await measureDueLateness(completenessDeps(stores, index), rest, (line) => console.error(line), listed).catch((error: unknown) => {
      console.error(JSON.stringify({ message: 'lateness measurement failed', error: error instanceof Error ? error.message : String(error) }));
      return { measured: 0, failed: 0 };
    });
    if (lateness.measured + lateness.failed > 0) console.log(JSON.stringify({ message: 'lateness measured', ...lateness }));
  }
  return summary;
}
