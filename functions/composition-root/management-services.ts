import type { EmailTransport } from '../emails/email-transport';
import type { ExportRef } from '../exports/export-jobs';
import { GovernanceRefresher } from '../governance/refresher';
import type { IngestBacklogProbe } from '../ingest/backlog/ingest-backlog';
import { createManagementApiHandler } from '../routers/management-api';
import type { SigningKeyProvider } from '../management-tokens/signing-key';
import type { SearchableIndex } from '../search/port';
import type { HttpHandler } from '../shared/http/handler';
import { alertRunDeps } from './email-services';
import { cohortSources } from './cohort-sources';
import { DataRetention } from '../retention';
import { governanceBillingFacts } from './governance-billing-facts';
import { queryTimeIndex } from './query-time-index';
import type { ServiceStores } from './service-stores';
import type { ProviderConnectionLookup } from '../billing/run/provider-registry';
import { completenessDeps, providerWebhookDeps, reconcileDeps } from './billing-services';
import { replacementIntake } from './replacement-intake';
import { customerUsageDeps } from './customer-usage-services';

/** The management API and the governance refresher, wired from the stores. */

export interface ManagementServiceOptions {
  readonly index: SearchableIndex;
  readonly signingKey: SigningKeyProvider;
}

export function managementApiHandler(
  stores: ServiceStores,
  options: ManagementServiceOptions & {
    /** Recomputes an app's rule membership after a cohort, rule or app-setting change. */
    onGovernanceChange?: (orgId: string, appId: string) => Promise<void>;
    /** WEBHOOK_ALLOW_PRIVATE_TARGETS: webhook channels may name loopback/private addresses. */
    webhookAllowPrivateTargets: boolean;
    /** SLACK_WEBHOOK_HOSTS: hosts besides Slack's own that alert Slack URLs may name. */
    slackHosts?: readonly string[];
    /** Starts a new export at once (locally); on AWS the scheduled export worker takes it within a minute. */
    onExportCreated?: (ref: ExportRef) => void;
    /** Runs a requested provider sync at once (locally); on AWS the billing run takes it up within its 5 minutes. */
    onSyncRequested?: (tenant: { orgId: string; appId: string }) => void;
    /** The apps' provider connections (the billing providers document), read when a provider's webhook first needs them; none: refused. */
    providerConnections?: () => Promise<ProviderConnectionLookup>;
    /** Where a template's test message goes (the email sender's transport). */
    emailTransport: EmailTransport;
    /** The ingest backlog, where the deployment measures it (the local journal). */
    ingestBacklog?: IngestBacklogProbe;
    /** The sender of alert emails (NOTIFICATIONS_FROM); none: alert email channels fail as not configured. */
    notificationsFrom?: string;
    /** PagerDuty's Events API v2 URL, when not PagerDuty's own (tests). */
    pagerDutyUrl?: string;
  },
): HttpHandler {
  return createManagementApiHandler({
    index: queryTimeIndex(stores, options.index),
    signingKey: options.signingKey,
    ...(options.onGovernanceChange ? { onGovernanceChange: options.onGovernanceChange } : {}),
    webhookAllowPrivateTargets: options.webhookAllowPrivateTargets,
    apps: stores.apps,
    users: stores.users,
    tokens: stores.tokens,
    consoleSessions: stores.consoleSessions,
    orgStatus: stores.orgStatus,
    rateLimiter: stores.managementRateLimiter,
    statementChecks: stores.statementChecksRateLimiter,
    signInThrottle: stores.signInThrottle,
    resources: stores.resources,
    purger: stores.appPurger,
    retention: stores.retainingApps,
    balances: stores.balances,
    cohortSources: cohortSources(stores, options.index),
    ruleMembership: async (orgId, appId) => (await stores.ruleConfigs.read(orgId, appId)).assignments,
    reports: stores.reports,
    runState: stores.runState,
    ...stores.queryBudget,
    exportJobs: stores.exportJobs,
    exportFiles: stores.exportFiles,
    ...(options.onExportCreated ? { onExportCreated: options.onExportCreated } : {}),
    ...(options.onSyncRequested ? { onSyncRequested: options.onSyncRequested } : {}),
    ...(options.providerConnections
      ? {
          providerWebhooks: providerWebhookDeps(stores, options.providerConnections),
          reconcile: reconcileDeps(stores, options.index, options.providerConnections),
        }
      : {}),
    completeness: completenessDeps(stores, options.index),
    customerUsage: customerUsageDeps(stores, options.index),
    simulation: {
      index: queryTimeIndex(stores, options.index),
      cohortSources: cohortSources(stores, options.index),
      resources: stores.resources,
      reportedTotals: (tenant) => stores.runState.totalsReader(tenant),
      now: stores.now,
    },
    eventVoids: {
      // The index as searches see it: a void's query may name the app's virtual event types.
      index: queryTimeIndex(stores, options.index),
      resources: stores.resources,
      changedHours: (tenant, hours, at) => stores.lateWindows.markChanged(tenant.orgId, tenant.appId, hours, at),
      intake: replacementIntake(stores),
      now: stores.now,
    },
    emailSends: stores.emailSends,
    emailTransport: options.emailTransport,
    ...(options.ingestBacklog ? { ingestBacklog: options.ingestBacklog } : {}),
    alerting: alertRunDeps(stores, {
      index: options.index,
      transport: options.emailTransport,
      webhookOptions: { allowPrivateTargets: options.webhookAllowPrivateTargets, ...(options.slackHosts ? { slackHosts: options.slackHosts } : {}) },
      ...(options.notificationsFrom ? { emailFrom: options.notificationsFrom } : {}),
      ...(options.pagerDutyUrl ? { pagerDutyUrl: options.pagerDutyUrl } : {}),
    }),
    now: stores.now,
  });
}

export function governanceRefresher(stores: ServiceStores, index: SearchableIndex): GovernanceRefresher {
  const billing = governanceBillingFacts(stores, index);
  return new GovernanceRefresher({
    apps: stores.apps,
    governedApps: stores.governedApps,
    purger: stores.appPurger,
    rules: stores.rules,
    configs: stores.ruleConfigs,
    // Behavioural cohorts may name virtual event types.
    index: queryTimeIndex(stores, index),
    billing,
    retention: new DataRetention({
      apps: stores.apps,
      registry: stores.retainingApps,
      index,
      subscriptions: billing,
      now: stores.now,
    }),
    now: stores.now,
  });
}
