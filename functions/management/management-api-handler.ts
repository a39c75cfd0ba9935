import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { routesOf } from '../definitions/routes';
import type { AppStore } from '../organisations/app-store';
import { managementAuthenticator, managementRateLimitHeaders, type ManagementAuthDeps, type ManagementCaller } from '../management-tokens/management-auth';
import type { SigningKeyProvider } from '../management-tokens/signing-key';
import { balanceOperations } from '../billing/balance-operations';
import { catalogOperations } from '../billing/catalog/catalog-operations';
import { channelOperations } from '../billing/channels/channel-operations';
import { reportOperations } from '../billing/reports/report-operations';
import { oauthOperations, type OAuthDeps } from '../oauth/oauth-operations';
import { openApiOperations } from '../openapi/openapi-operations';
import { resourceOperations } from './resource-operations';
import type { SearchableIndex } from '../search/port';
import { createHttpHandler, type HttpHandler } from '../shared/http/handler';

export interface ManagementApiDeps extends ManagementAuthDeps, Pick<OAuthDeps, 'tokenUrlRateLimitPerMinute'> {
  readonly documents: DynamoDBDocumentClient;
  /** Physical name of the resources table (orgs, users, apps, tokens, managed resources, rate counters). */
  readonly resourcesTable: string;
  /** Physical name of the billing table (reports, balances, balance transactions). */
  readonly billingTable: string;
  readonly apps: AppStore;
  readonly signingKey: SigningKeyProvider;
  /** The search index: cohort membership for governance rules. */
  readonly index: SearchableIndex;
  /**
   * Called after a cohort, governance rule or app setting of an app changes, so the rules SDKs
   * fetch (GET /v1/config, /v1/rules) are recomputed now rather than at the next scheduled refresh.
   */
  readonly onGovernanceChange?: (orgId: string, appId: string) => Promise<void>;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: webhook channels may name loopback/private addresses (local mode, tests); false when absent. */
  readonly webhookAllowPrivateTargets?: boolean;
  readonly now?: () => Date;
}

/**
 * The management Lambda: every management route outside `/search/~/...` — OAuth tokens, access
 * tokens and the managed resources (apps, cohorts, dashboards, workspaces, rules, templates, keys,
 * meters) — per org and app, behind the shared management authenticator (scopes, revocation, rate
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
      ...resourceOperations(deps),
      ...balanceOperations(deps),
      ...catalogOperations(deps),
      ...channelOperations(deps),
      ...reportOperations(deps),
    },
  });
}
