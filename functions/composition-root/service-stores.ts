import { AlertStore } from '../alerts/alert-store';
import { AppRegistry } from '../resources/app-registry';
import { ALERTING_APPS_PARTITION } from '../resources/keys';
import { BalanceLedger } from '../billing/balances/balance-ledger';
import { BalanceStore } from '../billing/balances/balance-store';
import { ReportStore } from '../billing/reports/report-store';
import type { ReportTenant } from '../billing/reports/report-types';
import { BalanceProbe } from '../billing/run/balance-probe';
import { RunStateStore } from '../billing/run/run-state-store';
import { CohortWatchStore } from '../cohort-notifications/cohort-watch-store';
import { EmailSendStore } from '../emails/email-send-store';
import { RetainingApps } from '../retention';
import { GovernedApps } from '../governance/governed-apps';
import { ExportFiles } from '../exports/export-files';
import { ExportJobs } from '../exports/export-jobs';
import { AppPurger } from '../resources/app-purge';
import { ResourceStore } from '../resources/resource-store';
import { TokenStore } from '../management-tokens/token-store';
import { OrgStatusCache } from '../organisations/org-status';
import { OrgUserStore } from '../organisations/org-user-store';
import { DEFAULT_MANAGEMENT_RATE_LIMIT, STATEMENT_CHECKS_PER_MINUTE } from '../rate-limit/rate-limit-policy';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { FairShare } from '../rate-limit/fair-share';
import { QuerySlots } from '../rate-limit/query-slots';
import { DEFAULT_SIGN_IN_POLICY, DynamoFailureCounters, SignInThrottle } from '../rate-limit/sign-in-throttle';
import type { QueryBudgetDeps } from '../search/query-budget';
import { ConsoleSessionStore } from '../console-sessions/session-store';
import {
  DEFAULT_CONCURRENT_QUERIES_PER_ORG,
  DEFAULT_CUSTOMER_PAGES_RATE_LIMIT,
  DEFAULT_SEARCH_CONCURRENCY,
  DEFAULT_QUERY_TIME_BUDGET_MS,
  IngestStores,
} from './ingest-stores';

export { IngestStores, type ServiceStoresInput, type StorageNames, type StoreSettings } from './ingest-stores';

/** Every store of the service: the ingest ones, and those of the management API, governance and billing. */
export class ServiceStores extends IngestStores {
  // Org users, tokens and rate limits (resources table).
  get users(): OrgUserStore {
    return this.once('users', () => new OrgUserStore(this.documents, this.resourcesTable));
  }
  get tokens(): TokenStore {
    return this.once('tokens', () => new TokenStore(this.documents, this.resourcesTable));
  }
  get consoleSessions(): ConsoleSessionStore {
    return this.once('consoleSessions', () => new ConsoleSessionStore(this.documents, this.resourcesTable));
  }
  get orgStatus(): OrgStatusCache {
    return this.once(
      'orgStatus',
      () => new OrgStatusCache(this.documents, this.resourcesTable, { ttlMs: this.settings.orgStatusTtlMs, now: () => this.now().getTime() }),
    );
  }
  get managementRateLimiter(): RateLimiter {
    return this.rateLimiter('managementRateLimiter', this.settings.managementRateLimitPerMinute ?? DEFAULT_MANAGEMENT_RATE_LIMIT);
  }
  /** Failed password sign-ins per account and source (the token URL and the console's sign-in). */
  get signInThrottle(): SignInThrottle {
    return this.once(
      'signInThrottle',
      () => new SignInThrottle(new DynamoFailureCounters(this.documents, this.resourcesTable), DEFAULT_SIGN_IN_POLICY, () => this.now().getTime()),
    );
  }
  /**
   * Customer pages' own counter: an API company's portal, loaded by its many customers, must not
   * spend the rate its own scripts and console use (nor the reverse). Queries still share the org's
   * concurrent-query budget.
   */
  get customerPagesRateLimiter(): RateLimiter {
    return this.rateLimiter(
      'customerPagesRateLimiter',
      this.settings.customerPagesRateLimitPerMinute ?? DEFAULT_CUSTOMER_PAGES_RATE_LIMIT,
      'CUSTOMER_PAGES_MINUTE',
    );
  }
  /**
   * Checks of a validly signed statement (an open route): each recomputes the period from its events,
   * so the org whose events they are bounds how often anyone holding one of its statements can ask.
   */
  get statementChecksRateLimiter(): RateLimiter {
    return this.rateLimiter(
      'statementChecksRateLimiter',
      this.settings.statementChecksPerMinute ?? STATEMENT_CHECKS_PER_MINUTE,
      'STATEMENT_CHECKS_MINUTE',
      'statement checks',
    );
  }
  /** One per-org counter of the resources table, built once under `name`; `bucket` keeps its items apart from the others'. */
  private rateLimiter(name: string, limitPerMinute: number, bucket?: string, counted?: string): RateLimiter {
    return this.once(
      name,
      () =>
        new RateLimiter(this.documents, this.resourcesTable, {
          limitPerMinute,
          ...(bucket ? { bucket } : {}),
          ...(counted ? { counted } : {}),
          now: () => this.now().getTime(),
        }),
    );
  }

  /** Each query of the API: its org's concurrent-query slots, the process's fair share of the engine and its time budget. */
  get queryBudget(): QueryBudgetDeps {
    return this.once('queryBudget', () => {
      const queryTimeMs = this.settings.queryTimeBudgetMs ?? DEFAULT_QUERY_TIME_BUDGET_MS;
      // A slot outlives its query's budget by a margin, so only a holder that died leaves it to expire.
      const slots = new QuerySlots(this.documents, this.resourcesTable, {
        slots: this.settings.concurrentQueriesPerOrg ?? DEFAULT_CONCURRENT_QUERIES_PER_ORG,
        leaseMs: queryTimeMs + 5_000,
        now: () => this.now().getTime(),
      });
      return { querySlots: slots, queryTimeMs, fairShare: new FairShare(this.settings.searchConcurrency ?? DEFAULT_SEARCH_CONCURRENCY) };
    });
  }

  // Managed resources and governance (resources table).
  get resources(): ResourceStore {
    return this.once('resources', () => new ResourceStore(this.documents, this.resourcesTable, this.now));
  }
  // Bulk exports: jobs beside the app's resources, parts in the exports bucket.
  get exportJobs(): ExportJobs {
    return this.once('exportJobs', () => new ExportJobs(this.resources));
  }
  get exportFiles(): ExportFiles {
    return this.once('exportFiles', () => new ExportFiles(this.input.clients.s3, this.input.names.buckets.exports));
  }
  get appPurger(): AppPurger {
    return this.once('appPurger', () => new AppPurger(this.documents, this.resourcesTable));
  }
  /** Behavioural emails' send records and unsubscribes (beside the templates). */
  get emailSends(): EmailSendStore {
    return this.once('emailSends', () => new EmailSendStore(this.documents, this.resourcesTable));
  }
  /** Cohort notifications: members as last seen, changes, notifications (beside the cohorts). */
  get cohortWatch(): CohortWatchStore {
    return this.once('cohortWatch', () => new CohortWatchStore(this.documents, this.resourcesTable));
  }
  get retainingApps(): RetainingApps {
    return this.once('retainingApps', () => new RetainingApps(this.documents, this.resourcesTable));
  }
  get governedApps(): GovernedApps {
    return this.once('governedApps', () => new GovernedApps(this.documents, this.resourcesTable));
  }
  /** Alerts: each series' state, firings and resolves with their deliveries (beside the rules). */
  get alerts(): AlertStore {
    return this.once('alerts', () => new AlertStore(this.documents, this.resourcesTable));
  }
  /** The apps with alert rules, which the alert schedule walks. */
  get alertingApps(): AppRegistry {
    return this.once('alertingApps', () => new AppRegistry(this.documents, this.resourcesTable, ALERTING_APPS_PARTITION));
  }

  // Billing (billing table).
  get reports(): ReportStore {
    return this.once('reports', () => new ReportStore(this.documents, this.billingTable));
  }
  get runState(): RunStateStore {
    return this.once('runState', () => new RunStateStore(this.documents, this.billingTable));
  }
  get balances(): BalanceLedger {
    return this.once('balances', () => new BalanceLedger(new BalanceStore(this.documents, this.billingTable), { now: this.now }));
  }
  /** Which subscriptions of an app have a balance (one per app and billing run: it caches). */
  balanceProbe(tenant: ReportTenant): BalanceProbe {
    return new BalanceProbe(this.documents, this.billingTable, tenant);
  }
}
