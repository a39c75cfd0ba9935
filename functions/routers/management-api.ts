import { alertOperations } from '../alerts/alert-operations';
import type { AlertRunDeps } from '../alerts/alert-runner';
import { routesOf } from '../definitions/routes';
import { managementAuthenticator, managementRateLimitHeaders, type ManagementAuthDeps, type ManagementCaller } from '../management-tokens/management-auth';
import type { RateLimiter } from '../rate-limit/rate-limiter';
import { balanceOperations, type BalanceOperationDeps } from '../billing/balance-operations';
import { syncOperations, type SyncOperationDeps } from '../billing/sync/sync-operations';
import { reconcileOperations } from '../billing/reconcile/reconcile-operations';
import { completenessOperations } from '../billing/completeness/completeness-operations';
import { voidOperations, type ReplaceDeps } from '../event-voids';
import { simulationOperations } from '../billing/simulation/simulation-operations';
import type { SimulationDeps } from '../billing/simulation/price-simulation';
import type { CompletenessDeps } from '../billing/completeness/meter-completeness';
import type { ReconcileDeps } from '../billing/reconcile/reconciliation';
import { catalogOperations, type CatalogDeps } from '../billing/catalog/catalog-operations';
import { channelOperations, type ChannelDeps } from '../billing/channels/channel-operations';
import { meterCheckOperations } from '../billing/meter-check/meter-check-operations';
import { reportOperations, type ReportOperationDeps } from '../billing/reports/report-operations';
import { exportOperations, type ExportOperationDeps } from '../exports/export-operations';
import { oauthOperations, type OAuthDeps } from '../oauth/oauth-operations';
import { consoleSessionOperations, type ConsoleSessionDeps } from '../console-sessions/console-session-operations';
import { openApiOperations } from '../openapi/openapi-operations';
import { resourceOperations, type ResourceOperationsDeps } from './resource-operations';
import { cohortMemberOperations } from '../management/cohort-members';
import type { CohortSources } from '../cohorts/cohort-members';
import { signedTokenOperations } from '../shared-views/signed-token-operations';
import { customerTokenOperations } from '../customer-portal/access/customer-token-operations';
import { statementKeyOperations } from '../customer-portal/statements/statement-operations';
import { planChangeOperations } from '../customer-portal/usage/plan-change-operations';
import type { CustomerUsageDeps } from '../customer-portal/usage/customer-usage';
import { emailOperations, type EmailOperationDeps } from '../emails/email-operations';
import { ethAbiOperations } from '../ethereum/eth-abi-operations';
import { ingestBacklogOperations, type IngestBacklogProbe } from '../ingest/backlog/ingest-backlog';
import { createHttpHandler, type HttpHandler } from '../shared/http/handler';

/** Everything the management routes use: the stores and clients the composition root builds. */
export interface ManagementApiDeps
  extends ManagementAuthDeps,
    OAuthDeps,
    ConsoleSessionDeps,
    ResourceOperationsDeps,
    BalanceOperationDeps,
    CatalogDeps,
    ChannelDeps,
    ReportOperationDeps,
    ExportOperationDeps,
    EmailOperationDeps {
  /** The ingest backlog, where the deployment measures it (the local journal); absent on AWS. */
  readonly ingestBacklog?: IngestBacklogProbe;
  /** Alert rules' stores and senders (their history, "run now" and previews). */
  readonly alerting: AlertRunDeps;
  /** Runs an app's requested provider sync at once (locally); on AWS the billing schedule takes it up. */
  readonly onSyncRequested?: (tenant: { orgId: string; appId: string }) => void;
  /** What providers' webhooks need (the apps' connections); none: they are refused. */
  readonly providerWebhooks?: SyncOperationDeps['webhooks'];
  /** What reconciling a meter with its provider reads (the apps' connections); none: not served. */
  readonly reconcile?: ReconcileDeps;
  /** What a meter's completeness reads (lateness, cursors). */
  readonly completeness: CompletenessDeps;
  /** What computing a cohort's members reads (cohort member lists and previews). */
  readonly cohortSources: CohortSources;
  /** What a customer's usage this period reads (a price change's preview starts from it). */
  readonly customerUsage: CustomerUsageDeps;
  /** Checks of signed statements per org (the open verification route). */
  readonly statementChecks: RateLimiter;
  /** What pricing past usage under another price reads (the run's period totals, the catalog, subscriptions). */
  readonly simulation: SimulationDeps;
  /** What voiding and replacing events needs (the index, the audit log, billing's late marks, the collector's intake). */
  readonly eventVoids: ReplaceDeps;
}

/**
 * The management Lambda: every management route outside `/search/~/...` — OAuth tokens, access
 * tokens and the managed resources (apps, cohorts, dashboards, workspaces, rules, templates, keys,
 * meters, exports) — per org and app, behind the shared management authenticator (scopes, revocation, rate
 * limit, org status).
 */
export function createManagementApiHandler(deps: ManagementApiDeps): HttpHandler {
  return createHttpHandler<ManagementCaller | undefined>({
    routes: routesOf({ lambda: 'management' }),
    authenticate: managementAuthenticator(deps),
    extraHeaders: managementRateLimitHeaders,
    operations: {
      ...openApiOperations('management'),
      ...oauthOperations(deps),
      ...consoleSessionOperations(deps),
      ...resourceOperations(deps),
      ...cohortMemberOperations(deps),
      ...alertOperations(deps.alerting),
      ...balanceOperations(deps),
      ...syncOperations({
        resources: deps.resources,
        ...(deps.onSyncRequested ? { startNow: deps.onSyncRequested } : {}),
        ...(deps.providerWebhooks ? { webhooks: deps.providerWebhooks } : {}),
        ...(deps.now ? { now: deps.now } : {}),
      }),
      ...reconcileOperations(deps.reconcile),
      ...completenessOperations(deps.completeness),
      ...voidOperations(deps.eventVoids),
      ...simulationOperations(deps.simulation),
      ...planChangeOperations({ ...deps.customerUsage, now: deps.now ?? (() => new Date()) }),
      ...catalogOperations(deps),
      ...channelOperations(deps),
      ...reportOperations(deps),
      ...meterCheckOperations(deps),
      ...exportOperations(deps),
      ...emailOperations(deps),
      ...ingestBacklogOperations(deps),
      ...ethAbiOperations({ resources: deps.resources, ...(deps.now ? { now: deps.now } : {}) }),
      ...signedTokenOperations({ store: deps.resources, signingKey: deps.signingKey, ...(deps.now ? { now: deps.now } : {}) }),
      ...statementKeyOperations({
        ...deps.customerUsage,
        signingKey: deps.signingKey,
        apps: deps.apps,
        statementChecks: deps.statementChecks,
        ...(deps.now ? { now: deps.now } : {}),
      }),
      ...customerTokenOperations({ store: deps.resources, index: deps.index, signingKey: deps.signingKey, ...(deps.now ? { now: deps.now } : {}) }),
    },
  });
}
