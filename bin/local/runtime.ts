import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { billingRunDeps, completenessDeps, providerSyncDeps, reconcileDeps } from '../../functions/composition-root/billing-services';
import { providerClients, providerConnections } from '../../functions/billing/run/provider-registry';
import { collectorHandler, uploadProcessorDeps } from '../../functions/composition-root/ingest-services';
import { consumerHandler } from '../../functions/composition-root/consumer-services';
import { openCallerEnricher } from '../../functions/enrichment';
import { governanceRefresher, managementApiHandler } from '../../functions/composition-root/management-services';
import { searchApiHandler } from '../../functions/composition-root/search-services';
import { sharedViewApiHandler } from '../../functions/composition-root/shared-view-services';
import { ServiceStores } from '../../functions/composition-root/service-stores';
import type { BillingRunDeps } from '../../functions/billing/run/billing-run';
import { governanceChangeHook, type GovernanceRefresher } from '../../functions/governance/refresher';
import { KinesisPublisher, type RecordPublisher } from '../../functions/ingest/stream/publisher';
import { processUpload } from '../../functions/ingest/uploads/process-upload';
import type { AppStore } from '../../functions/organisations/app-store';
import type { SearchableIndex } from '../../functions/search/port';
import { destroyAwsClients, type AwsClients, type AwsEndpoints } from '../../functions/shared/aws/clients';
import { ServiceUnavailableError } from '../../functions/shared/errors';
import { errorResult } from '../../functions/shared/http/error-response';
import type { HttpHandler } from '../../functions/shared/http/handler';
import { noMetrics } from '../../functions/shared/metrics';
import { retryableOnce } from '../../functions/shared/retryable-once';
import { startPeriodicRefresh } from './periodic-refresh';
import { withConsole } from '../../functions/web-console/console-assets';
import { answerRecorder } from './answer-log';
import { openLocalSearchIndex, type LocalSearchBackend, type LocalSearchIndex } from './local-search-index';
import { CONSOLE_DIST } from './console-build';
import { localProviderDocument, startLocalBilling, type LocalBilling } from './periodic-billing';
import { startLocalProviderSync, type LocalProviderSync } from './periodic-provider-sync';
import { startLocalExports, type LocalExports } from './periodic-exports';
import type { ScheduledTask } from './scheduled-task';
import type { AlertRunSummary } from '../../functions/alerts/alert-runner';
import { startNotificationJobs } from './notification-jobs';
import { localEmailTransport } from '../../functions/composition-root/local-email-transport';
import type { NotificationRunSummary } from '../../functions/cohort-notifications/cohort-notifier';
import type { EmailRunSummary, EmailSenderHooks, EmailSenderSettings } from '../../functions/emails/email-sender';
import type { EmailTransport } from '../../functions/emails/email-transport';
import type { ExportRunLimits } from '../../functions/exports/export-runner';
import { exportRunDeps } from '../../functions/composition-root/export-services';
import { createLocalAwsClients } from './local-aws-clients';
import { managementDispatcher } from './management-dispatch';
import { bootstrapLocal, loadOrCreateSigningKey, type LocalCredentials } from './bootstrap';
import { startEmulators, type RunningEmulators } from './emulators';
import { startHttpServer, type LocalHttpServer } from './http-server';
import { provision, type ProvisionedNames } from './provision';
import { IngestJournal } from './ingest-journal';
import { RUNTIME_FILE, type RuntimeFile } from './runtime-file';
import { StreamPoller } from './stream-poller';
import type { ClaimMode } from '../../functions/ingest/consumer/dedup-store';
import { UploadWatcher } from './upload-watcher';

/** The default INGEST_BACKLOG_LIMIT_MS: a minute of acknowledged records not yet consumed. */
export const DEFAULT_INGEST_BACKLOG_LIMIT_MS = 60_000;

/** How the local runtime writes dedup claims: in transactions, which DynamoDB Local commits at once. */
export const LOCAL_DEDUP_CLAIMS: ClaimMode = 'transactions';

export interface LocalRuntimeOptions {
  /** DuckDB file, checkpoints, signing key and local.json live here. */
  readonly dataDir: string;
  /** Use emulators that are already running (tests); otherwise start them, persisting under dataDir. */
  readonly endpoints?: Required<AwsEndpoints>;
  /** Physical resource names are `${prefix}${logicalName}`. */
  readonly prefix?: string;
  readonly host?: string;
  readonly collectorPort?: number;
  readonly managementPort?: number;
  readonly log?: (line: string) => void;
  /** Embedded DuckDB (default) or OpenSearch: a cluster, or a node started in DATA_DIR/opensearch. */
  readonly search?: LocalSearchBackend;
  /** Tests wrap the search index to inject failures. */
  readonly wrapSearchIndex?: (index: SearchableIndex) => SearchableIndex;
  readonly pollerRetryDelayMs?: number;
  /** How often the governance membership of every app with rules is recomputed (the AWS schedule is 1 min). Default 15 s; 0 turns it off. */
  readonly governanceRefreshMs?: number;
  /** Management API limits and clock (tests lower the rate limit, fix the clock, shorten the org-status cache). */
  readonly managementAuth?: {
    rateLimitPerMinute?: number;
    orgStatusTtlMs?: number;
    customerPagesRateLimitPerMinute?: number;
    statementChecksPerMinute?: number;
    now?: () => Date;
  };
  /** Each query of the API: its time budget and the queries one org may run at once (defaults as on AWS). */
  readonly queryBudget?: { timeMs?: number; concurrentPerOrg?: number; searchConcurrency?: number };
  /**
   * How often the billing run runs (the AWS schedule is 5 min). Default: 60 s (npm start reads BILLING_INTERVAL_MS)
   * when the runtime starts its own emulators (npm start), off (0) on shared emulators (tests).
   */
  readonly billingIntervalMs?: number;
  /** Passes of the export worker over its queue (default 5 s; a new job starts at once); 0 turns the timer off. */
  readonly exportIntervalMs?: number;
  /** Part and page sizes of the export worker (tests use small ones); default the service's. */
  readonly exportLimits?: Pick<ExportRunLimits, 'pageSize' | 'partRows' | 'partBytes'>;
  /**
   * WEBHOOK_ALLOW_PRIVATE_TARGETS: webhook channels and deliveries may target loopback/private addresses.
   * Default true here (local receivers); the Lambdas default to false.
   */
  readonly webhookAllowPrivateTargets?: boolean;
  /**
   * How long stop() consumes what is still on the stream before it stops anyway (default: until empty).
   * What is left stays in the journal and is consumed after the next start.
   */
  readonly shutdownDrainMs?: number;
  /**
   * INGEST_BACKLOG_LIMIT_MS: past this age of the oldest acknowledged record not yet consumed, the
   * collector answers 503 with Retry-After rather than take a backlog it cannot drain (default 60 s).
   */
  readonly ingestBacklogLimitMs?: number;
  /** The built console served at /console/ (default console/dist). */
  readonly consoleDist?: string;
  /**
   * Behavioural emails: to the SMTP server at `smtpUrl` (SMTP_URL), else as .eml files in `outboxDir`
   * (default DATA_DIR/outbox), sent every `intervalMs` (EMAIL_INTERVAL_MS; default 60 s under npm start,
   * off on shared emulators, i.e. tests, which call emails.runOnce()).
   */
  readonly email?: { smtpUrl?: string; outboxDir?: string; intervalMs?: number; settings?: EmailSenderSettings; hooks?: EmailSenderHooks; now?: () => Date };
  /**
   * Cohort notifications: how often entries and departures are looked for and sent (default the
   * governance refresh's interval under npm start, off on shared emulators: tests call runOnce()),
   * and the sender of their emails (default notifications@localhost).
   */
  readonly cohortNotifications?: { intervalMs?: number; emailFrom?: string; now?: () => Date };
  /**
   * Alert evaluation: every `intervalMs` (default 60 s; 0: only `alerts.runOnce()` and the API's
   * "run now"); `pagerDutyUrl` replaces PagerDuty's Events API (tests point it at a receiver).
   */
  readonly alerts?: { intervalMs?: number; pagerDutyUrl?: string; now?: () => Date };
}

export interface LocalRuntime {
  readonly credentials: LocalCredentials;
  readonly clients: AwsClients;
  readonly names: ProvisionedNames;
  readonly index: SearchableIndex;
  readonly poller: StreamPoller;
  /** Recomputes rule membership (GET /v1/config); runs on its timer and after every governance change. */
  readonly governance: GovernanceRefresher;
  readonly uploads: UploadWatcher;
  readonly apps: AppStore;
  /** Every store, as the composition root built them (tests read and write through them). */
  readonly stores: ServiceStores;
  /** What the billing run reads and writes (tests run it with their own settings and hooks). */
  readonly billingDeps: BillingRunDeps;
  /** The billing run: on its timer, and `runOnce` on demand (npm run billing -- --now). */
  readonly billing: LocalBilling;
  /** The sync in from billing providers: on the billing run's timer, at once when asked for, and `runOnce` on demand. */
  readonly providerSync: LocalProviderSync;
  readonly exports: LocalExports;
  /** The email sender: on its timer, and `runOnce` on demand (npm run emails -- --now). */
  readonly emails: ScheduledTask<EmailRunSummary>;
  /** Cohort notifications: on their timer, and `runOnce` on demand. */
  readonly cohortNotifications: ScheduledTask<NotificationRunSummary>;
  /** Alert evaluation: on its timer, and `runOnce` on demand (npm run alerts -- --now). */
  readonly alerts: ScheduledTask<AlertRunSummary>;
  /** Where emails go: `outbox` (files under outboxDir) or `smtp`. */
  readonly emailTransport: EmailTransport;
  /** True when this start created the local admin user's password (printed once by npm start). */
  readonly adminPasswordCreated: boolean;
  /** Resolves once everything on the stream has been consumed. */
  waitUntilConsumed(timeoutMs?: number): Promise<void>;
  /** Stops taking requests, finishes in-flight ones, drains the stream, stops the emulators it started. */
  stop(): Promise<void>;
}

/**
 * The local runtime: the same handlers as the Lambdas, wired to DynamoDB Local, kinesis-local,
 * s3rver and DuckDB, behind two HTTP servers, with a poller in place of the event source mapping.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const log = options.log ?? (() => {});
  await mkdir(options.dataDir, { recursive: true });
  let emulators: RunningEmulators | undefined;
  const endpoints = options.endpoints ?? (emulators = await startEmulators({ dataDir: join(options.dataDir, 'emulators'), log })).endpoints;
  let search: LocalSearchIndex | undefined;
  try {
    const region = 'local';
    const clients = createLocalAwsClients(endpoints);
    const names = await provision(clients, options.prefix ?? 'local-');
    // Where command-line tools (npm run quarantine) find this runtime's emulators and resources; removed on stop.
    const runtimeFile = join(options.dataDir, RUNTIME_FILE);
    await writeFile(runtimeFile, JSON.stringify({ pid: process.pid, endpoints, names } satisfies RuntimeFile, null, 2));
    search = await openLocalSearchIndex(options.dataDir, options.search ?? { backend: 'duckdb' }, log);
    log(`searching in ${search.description}`);
    const index = options.wrapSearchIndex ? options.wrapSearchIndex(search.index) : search.index;
    const signingKeyBytes = await loadOrCreateSigningKey(options.dataDir);

    // Every record is journaled (synced to disk) before the stream gets it and the collector answers;
    // what an earlier run journaled and never finished goes back on the stream before anything new.
    const stream = new KinesisPublisher(clients.kinesis, names.stream);
    const { journal, unfinished } = await IngestJournal.open(join(options.dataDir, 'journal'));
    if (unfinished.length > 0) {
      log(`journal: putting ${unfinished.length} acknowledged record(s) that were not consumed before the last stop back on the stream`);
      await stream.publish(unfinished);
    }
    const backlogLimitMs = options.ingestBacklogLimitMs ?? DEFAULT_INGEST_BACKLOG_LIMIT_MS;
    const publisher = journal.publisherOver(stream, backlogLimitMs);
    // One process, one set of stores (the same composition as the Lambdas'): the collector and the
    // refresher share one rule snapshot store, so a refresh is visible to GET /v1/config at once.
    const { managementAuth = {} } = options;
    const stores = new ServiceStores({
      clients,
      names,
      publisher,
      settings: {
        // DynamoDB Local commits a transaction at once and each statement by itself (dedup-store.ts).
        dedupClaims: LOCAL_DEDUP_CLAIMS,
        ...(managementAuth.rateLimitPerMinute === undefined ? {} : { managementRateLimitPerMinute: managementAuth.rateLimitPerMinute }),
        ...(managementAuth.customerPagesRateLimitPerMinute === undefined
          ? {}
          : { customerPagesRateLimitPerMinute: managementAuth.customerPagesRateLimitPerMinute }),
        ...(managementAuth.statementChecksPerMinute === undefined ? {} : { statementChecksPerMinute: managementAuth.statementChecksPerMinute }),
        ...(managementAuth.orgStatusTtlMs === undefined ? {} : { orgStatusTtlMs: managementAuth.orgStatusTtlMs }),
        ...(options.queryBudget?.timeMs === undefined ? {} : { queryTimeBudgetMs: options.queryBudget.timeMs }),
        ...(options.queryBudget?.concurrentPerOrg === undefined ? {} : { concurrentQueriesPerOrg: options.queryBudget.concurrentPerOrg }),
        ...(options.queryBudget?.searchConcurrency === undefined ? {} : { searchConcurrency: options.queryBudget.searchConcurrency }),
        ...(managementAuth.now ? { now: managementAuth.now } : {}),
      },
    });
    const apps = stores.apps;
    // Records put by the management API's profile writes are read at once too (the poller is built below).
    let nudgePoller = () => {};
    const publishAndNudge: RecordPublisher = {
      publish: async (entries) => {
        await publisher.publish(entries);
        nudgePoller();
      },
    };
    const governance = governanceRefresher(stores, index);
    // Started below, once everything it reads is; a job created before that waits for its first pass.
    let exports: LocalExports = { kick: () => {}, runOnce: async () => ({ ran: 0, cleared: 0, errors: [] }), stop: async () => {} };
    const providersDocument = await localProviderDocument(join(options.dataDir, 'billing-providers.json'));
    let providerSync: LocalProviderSync = { kick: () => {}, runOnce: async () => ({ synced: 0, failed: 0 }), stop: async () => {} };
    const collectorApi = collectorHandler(stores, region);
    const signingKey = async () => signingKeyBytes;
    const webhookAllowPrivateTargets = options.webhookAllowPrivateTargets ?? true;
    const mailTransport = localEmailTransport({
      ...(options.email?.smtpUrl ? { smtpUrl: options.email.smtpUrl } : {}),
      outboxDir: options.email?.outboxDir ?? join(options.dataDir, 'outbox'),
    });
    const managementHandler = managementDispatcher({
      search: searchApiHandler(stores, { index, signingKey, ready: retryableOnce(() => index.ensureReady()), publisher: publishAndNudge }),
      'shared-views': sharedViewApiHandler(stores, { index, signingKey, ready: retryableOnce(() => index.ensureReady()) }),
      management: managementApiHandler(stores, {
        index,
        signingKey,
        onGovernanceChange: governanceChangeHook(governance, log),
        webhookAllowPrivateTargets,
        onExportCreated: () => exports.kick(),
        onSyncRequested: () => providerSync.kick(),
        providerConnections: async () => providerConnections(providersDocument),
        emailTransport: mailTransport,
        ingestBacklog: journal.backlogProbe(backlogLimitMs),
        notificationsFrom: options.cohortNotifications?.emailFrom ?? 'notifications@localhost',
        ...(options.alerts?.pagerDutyUrl ? { pagerDutyUrl: options.alerts.pagerDutyUrl } : {}),
      }),
    });
    const consumer = consumerHandler(stores, index, noMetrics, openCallerEnricher());
    const quarantine = stores.quarantine;

    const poller = new StreamPoller({
      kinesis: clients.kinesis,
      streamName: names.stream,
      handler: consumer,
      onFailure: quarantine,
      onFinished: (records) => journal.markDone(records),
      // Emulators of our own keep the stream in memory: each start reads a fresh stream from its start.
      // Shared emulators (tests) keep it across runtimes, so the position is kept too.
      checkpointFile: options.endpoints ? join(options.dataDir, `checkpoints-${names.stream}.json`) : undefined,
      retryDelayMs: options.pollerRetryDelayMs,
      log,
    });
    await poller.start();
    nudgePoller = () => poller.nudge();
    const uploads = new UploadWatcher({
      s3: clients.s3,
      bucket: names.buckets.uploads,
      process: async (key) => {
        await processUpload(uploadProcessorDeps(stores), key);
        poller.nudge();
      },
      log,
    });
    uploads.start();

    // The servers listen first (their URLs go into local.json) but answer 503 until bootstrap is done,
    // so a 200 from /health/probe means the service and its credentials are ready.
    let ready = false;
    const gate =
      (handler: HttpHandler): HttpHandler =>
      async (event, context) =>
        ready ? handler(event, context) : errorResult(new ServiceUnavailableError('The local service is still starting; retry shortly'));
    const host = options.host ?? '127.0.0.1';
    const servers: LocalHttpServer[] = [];
    // Accepted records are read at once, whatever back-off the idle poller is in.
    const collectAndNudge: HttpHandler = async (event, context) => {
      const result = await collectorApi(event, context);
      poller.nudge();
      return result;
    };
    const collector = await startHttpServer({
      port: options.collectorPort ?? 0,
      host,
      handler: gate(collectAndNudge),
      log,
      onAnswer: answerRecorder('collector'),
    });
    servers.push(collector);
    // The console is served beside the API (/console/) and calls it on the origin it was loaded from.
    let consoleOrgId: string | undefined;
    const management = await startHttpServer({
      port: options.managementPort ?? 0,
      host,
      handler: withConsole(gate(managementHandler), {
        orgId: () => consoleOrgId,
        collectorUrl: () => collector.url,
        distDir: options.consoleDist ?? CONSOLE_DIST,
      }),
      log,
      onAnswer: answerRecorder('management'),
    });
    servers.push(management);

    const { credentials, adminPasswordCreated } = await bootstrapLocal({
      dataDir: options.dataDir,
      apps,
      tokens: stores.tokens,
      users: stores.users,
      signingKey: signingKeyBytes,
      collectorUrl: collector.url,
      managementUrl: management.url,
    });
    consoleOrgId = credentials.org_id;
    ready = true;
    const governanceRefreshMs = options.governanceRefreshMs ?? 15_000;
    const governanceTimer = governanceRefreshMs > 0 ? startPeriodicRefresh(governance, governanceRefreshMs, log) : undefined;
    const billingIntervalMs = options.billingIntervalMs ?? (options.endpoints ? 0 : 60_000);
    const billingDeps = billingRunDeps(stores, {
      index,
      providerClient: providerClients(providersDocument),
      webhookOptions: { allowPrivateTargets: webhookAllowPrivateTargets },
    });
    const billing = startLocalBilling(billingDeps, billingIntervalMs, log);
    providerSync = startLocalProviderSync(
      providerSyncDeps(stores, providerConnections(providersDocument)),
      reconcileDeps(stores, index, async () => providerConnections(providersDocument)),
      completenessDeps(stores, index),
      billingIntervalMs,
      log,
    );
    exports = startLocalExports(exportRunDeps(stores, index), options.exportIntervalMs ?? 5_000, log, options.exportLimits);
    const { emails, cohortNotifications, alerts } = startNotificationJobs(stores, {
      index,
      transport: mailTransport,
      signingKey,
      publicBaseUrl: management.url,
      webhookAllowPrivateTargets,
      defaultIntervalMs: options.endpoints ? 0 : undefined,
      governanceRefreshMs,
      options,
      log,
    });

    let stopping: Promise<void> | undefined;
    return {
      credentials,
      clients,
      names,
      index,
      poller,
      uploads,
      governance,
      apps,
      stores,
      billingDeps,
      billing,
      providerSync,
      exports,
      emails,
      cohortNotifications,
      alerts,
      emailTransport: mailTransport,
      adminPasswordCreated,
      waitUntilConsumed: (timeoutMs) => poller.waitUntilIdle(timeoutMs),
      stop: () =>
        (stopping ??= (async () => {
          await Promise.all(servers.map((s) => s.close()));
          await uploads.stop();
          await governanceTimer?.stop();
          await billing.stop();
          await providerSync.stop();
          await exports.stop();
          await emails.stop();
          await cohortNotifications.stop();
          await alerts.stop();
          await poller.stop({ drain: true, drainTimeoutMs: options.shutdownDrainMs });
          if (journal.openEntries > 0) log(`journal: ${journal.openEntries} record(s) not yet consumed are kept for the next start`);
          await journal.close();
          await rm(runtimeFile, { force: true });
          await search?.close();
          // Open keep-alive sockets would hold kinesis-local's shutdown (and its final snapshot) for ~30 s.
          destroyAwsClients(clients);
          await emulators?.stop();
        })()),
    };
  } catch (error) {
    await search?.close();
    await emulators?.stop();
    throw error;
  }
}
