/**
 * `npm start`: the whole service on this machine — DynamoDB Local, kinesis-local, s3rver and DuckDB,
 * the collector on COLLECTOR_PORT (3000) and the management API on MANAGEMENT_PORT (3001).
 * Data persists under DATA_DIR (.data). Ctrl-C / SIGTERM drains and stops everything.
 */
import { resolve } from 'node:path';
import * as z from 'zod';
import { DEFAULT_INGEST_BACKLOG_LIMIT_MS, startLocalRuntime } from './local/runtime';
import { ensureConsoleBuilt } from './local/console-build';
import { DEFAULT_MEMORY_LIMIT } from '../functions/search/duckdb/duckdb-index';
import { MEMORY_LIMIT } from '../functions/search/duckdb/memory-sizes';

const LocalEnv = z.object({
  COLLECTOR_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  MANAGEMENT_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  DATA_DIR: z.string().default('.data'),
  HOST: z.string().default('127.0.0.1'),
  QUIET: z.enum(['0', '1', 'true', 'false']).default('0'),
  MANAGEMENT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(500),
  CUSTOMER_PAGES_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(6000),
  /** How long one query of the API may run before it is stopped with 504 (AWS: the same default). */
  QUERY_TIME_BUDGET_MS: z.coerce.number().int().min(100).default(25_000),
  /** Queries one org may run at once; more are answered 429 (AWS: the same default). */
  CONCURRENT_QUERIES_PER_ORG: z.coerce.number().int().min(1).default(10),
  /** Queries of all orgs run at once, shared fairly between orgs (functions/rate-limit/fair-share.ts). */
  SEARCH_CONCURRENCY: z.coerce.number().int().min(1).default(4),
  /** How often the local billing run runs; 0 turns it off (AWS: every 5 minutes). */
  BILLING_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  /** How often governance-rule membership is recomputed; 0 turns it off (AWS: every minute). */
  GOVERNANCE_REFRESH_MS: z.coerce.number().int().min(0).default(10_000),
  /** Webhook channels on localhost/private addresses (local receivers); `false` behaves like AWS (functions/definitions/environment.ts). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false', '1', '0']).default('true'),
  /** On SIGTERM/Ctrl-C, how long the backlog on the stream is consumed before stopping; the rest stays journaled for the next start. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).default(60_000),
  /** Behavioural emails go to this SMTP server (smtp://user:pass@host:port, smtps://…); unset: .eml files in DATA_DIR/outbox. */
  SMTP_URL: z.string().url().optional(),
  /** How often the email sender runs; 0 turns it off (AWS: every 15 minutes). */
  EMAIL_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  /** How often due alerts are evaluated; 0 turns it off (AWS: every minute). */
  ALERT_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  /** Where searches run: embedded DuckDB, or OpenSearch as on AWS (OPENSEARCH_ENDPOINT, or a node started in DATA_DIR/opensearch). */
  SEARCH_BACKEND: z.enum(['duckdb', 'opensearch']).default('duckdb'),
  OPENSEARCH_ENDPOINT: z.string().url().optional(),
  /** Past this age of the oldest acknowledged record not yet consumed, the collector answers 503 with Retry-After. */
  INGEST_BACKLOG_LIMIT_MS: z.coerce.number().int().min(1_000).default(DEFAULT_INGEST_BACKLOG_LIMIT_MS),
  /** The embedded index's memory budget (DuckDB memory_limit); larger work spills to DATA_DIR. */
  SEARCH_MEMORY_LIMIT: z.string().regex(MEMORY_LIMIT, 'a size such as 1GB or 512MB').default(DEFAULT_MEMORY_LIMIT),
});

async function main(): Promise<void> {
  const env = LocalEnv.parse(process.env);
  const quiet = env.QUIET === '1' || env.QUIET === 'true';
  const log = (line: string) => {
    if (!quiet) console.error(`[local] ${line}`);
  };
  const dataDir = resolve(env.DATA_DIR);
  await ensureConsoleBuilt({ log });
  console.error(`[local] starting emulators (data in ${dataDir}) ...`);
  const runtime = await startLocalRuntime({
    dataDir,
    collectorPort: env.COLLECTOR_PORT,
    managementPort: env.MANAGEMENT_PORT,
    host: env.HOST,
    log,
    managementAuth: { rateLimitPerMinute: env.MANAGEMENT_RATE_LIMIT_PER_MINUTE, customerPagesRateLimitPerMinute: env.CUSTOMER_PAGES_RATE_LIMIT_PER_MINUTE },
    queryBudget: { timeMs: env.QUERY_TIME_BUDGET_MS, concurrentPerOrg: env.CONCURRENT_QUERIES_PER_ORG, searchConcurrency: env.SEARCH_CONCURRENCY },
    search:
      env.SEARCH_BACKEND === 'opensearch'
        ? { backend: 'opensearch', ...(env.OPENSEARCH_ENDPOINT ? { endpoint: env.OPENSEARCH_ENDPOINT } : {}) }
        : { backend: 'duckdb', memoryLimit: env.SEARCH_MEMORY_LIMIT },
    billingIntervalMs: env.BILLING_INTERVAL_MS,
    governanceRefreshMs: env.GOVERNANCE_REFRESH_MS,
    webhookAllowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true' || env.WEBHOOK_ALLOW_PRIVATE_TARGETS === '1',
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    ingestBacklogLimitMs: env.INGEST_BACKLOG_LIMIT_MS,
    email: { ...(env.SMTP_URL ? { smtpUrl: env.SMTP_URL } : {}), intervalMs: env.EMAIL_INTERVAL_MS },
    alerts: { intervalMs: env.ALERT_INTERVAL_MS },
  });
  const c = runtime.credentials;
  console.log(
    [
      '',
      'Usage analytics service is running locally.',
      `  Collector API:      ${c.collector_url}`,
      `  Management API:     ${c.management_url}`,
      `  Console:            ${c.management_url}/console/  (sign in as admin)`,
      `  Org / app:          ${c.org_id} / ${c.app_id}`,
      `  Collector app id:   ${c.collector_application_id}`,
      `  Management token:   ${c.management_token}`,
      runtime.adminPasswordCreated
        ? `  Admin user:         ${c.admin_username} / ${c.admin_password}   (shown once; also in local.json)`
        : `  Admin user:         ${c.admin_username} (password in local.json)`,
      `  Saved to:           ${resolve(dataDir, 'local.json')}`,
      `  Emails:             ${runtime.emailTransport.name === 'smtp' ? 'to SMTP_URL' : `as .eml files in ${resolve(dataDir, 'outbox')} (set SMTP_URL to send them)`}`,
      '',
      `Try: curl -X POST ${c.collector_url}/v1/events -H 'Content-Type: application/json' \\`,
      `       -H 'X-Service-Application-Id: ${c.collector_application_id}' \\`,
      `       -d '{"request":{"time":"${new Date().toISOString()}","uri":"https://api.example.com/items?page=1","verb":"GET","headers":{}},"response":{"time":"${new Date().toISOString()}","status":200,"headers":{}},"user_id":"u1"}'`,
      '',
    ].join('\n'),
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`[local] ${signal}: finishing in-flight requests, draining the stream, stopping emulators ...`);
    runtime.stop().then(
      () => {
        console.error('[local] stopped');
        process.exit(0);
      },
      (error: unknown) => {
        console.error('[local] shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // `npm start` leaves npm as this process's parent. If the parent dies (even by kill -9), this
  // process is handed to init: it then stops as on SIGTERM, so no kill leaves it and its emulators orphaned.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) shutdown(`parent process ${parent} exited`);
  }, 500).unref();
}

main().catch((error: unknown) => {
  console.error('[local] failed to start:', error);
  process.exit(1);
});
