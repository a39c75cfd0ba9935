import * as z from 'zod';
import { buckets, ingestStream, tables } from './resources';

/**
 * Each Lambda's environment, validated once when its module loads: a missing variable fails the
 * cold start loudly instead of failing requests one by one.
 */
const name = z.string().min(1);

/**
 * The names of the settings variables, declared once: the schemas below read them and lib/ sets them
 * (the names of tables, buckets and the stream are each definition's `envVar` in resources.ts).
 */
export const settingVariables = {
  region: 'AWS_REGION',
  logLevel: 'LOG_LEVEL',
  searchBackend: 'SEARCH_BACKEND',
  opensearchEndpoint: 'OPENSEARCH_ENDPOINT',
  opensearchReplicas: 'OPENSEARCH_REPLICAS',
  duckdbPath: 'DUCKDB_PATH',
  webhookAllowPrivateTargets: 'WEBHOOK_ALLOW_PRIVATE_TARGETS',
  tokenSigningSecretArn: 'TOKEN_SIGNING_SECRET_ARN',
  managementRateLimitPerMinute: 'MANAGEMENT_RATE_LIMIT_PER_MINUTE',
  customerPagesRateLimitPerMinute: 'CUSTOMER_PAGES_RATE_LIMIT_PER_MINUTE',
  queryTimeBudgetMs: 'QUERY_TIME_BUDGET_MS',
  concurrentQueriesPerOrg: 'CONCURRENT_QUERIES_PER_ORG',
  billingProvidersSecretArn: 'BILLING_PROVIDERS_SECRET_ARN',
  billingTimeBudgetMs: 'BILLING_TIME_BUDGET_MS',
  sesConfigurationSet: 'SES_CONFIGURATION_SET',
  publicBaseUrl: 'PUBLIC_BASE_URL',
  notificationsFrom: 'NOTIFICATIONS_FROM',
  slackWebhookHosts: 'SLACK_WEBHOOK_HOSTS',
  geoIpDatabase: 'GEO_IP_DATABASE',
  governanceRefreshSeconds: 'GOVERNANCE_REFRESH_SECONDS',
} as const;
const v = settingVariables;

const common = {
  [v.region]: z.string().default('us-east-1'),
  [v.logLevel]: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
};

const search = {
  [v.searchBackend]: z.enum(['opensearch', 'duckdb']).default('opensearch'),
  [v.opensearchEndpoint]: z.string().url().optional(),
  /** Replicas per index: 0 on a one-node domain (a replica there can never be placed), 1 otherwise. */
  [v.opensearchReplicas]: z.coerce.number().int().min(0).max(3).default(1),
  [v.duckdbPath]: z.string().optional(),
};

export const CollectorEnv = z.object({
  ...common,
  [ingestStream.envVar]: name,
  [tables.resources.envVar]: name,
  [buckets.uploads.envVar]: name,
});

export const ConsumerEnv = z.object({
  ...common,
  ...search,
  [tables.dedup.envVar]: name,
  // Contract ABIs, to decode Ethereum JSON-RPC calls in API calls.
  [tables.resources.envVar]: name,
  [tables.profiles.envVar]: name,
  [buckets.profileDocuments.envVar]: name,
  [tables.billing.envVar]: name,
  [buckets.archive.envVar]: name,
  [buckets.failedRecords.envVar]: name,
  /** The MMDB file of IP geography (functions/enrichment); default: the one shipped in node_modules. */
  [v.geoIpDatabase]: z.string().min(1).optional(),
});

export const UploadProcessorEnv = z.object({
  ...common,
  [ingestStream.envVar]: name,
  [tables.resources.envVar]: name,
  [buckets.uploads.envVar]: name,
});

/** A true/false switch: `true`/`1` or `false`/`0` (anything else fails the cold start). */
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

/** Hosts, comma-separated, that alert Slack URLs may name besides Slack's own (an operator's relay). */
const slackHosts = {
  [v.slackWebhookHosts]: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host !== ''),
    ),
};

/**
 * Webhook channel URLs are chosen by tenants. On AWS loopback inside a Lambda is its runtime API and
 * private/link-local addresses reach the VPC and metadata endpoints, so channels naming them are
 * refused (400 on `url`) and deliveries resolving to them are refused (`forbidden_target`). Only local
 * mode and tests set this true (receivers on localhost); CDK leaves it unset.
 */
const webhookTargets = {
  [v.webhookAllowPrivateTargets]: flag(false),
  ...slackHosts,
};

/** Every management Lambda authenticates tokens (signing key) and counts the org's rate (resources table). */
const managementAuth = {
  [tables.resources.envVar]: name,
  [v.tokenSigningSecretArn]: name,
  /** Management API queries per org per calendar minute (plus bounded burst credit). */
  [v.managementRateLimitPerMinute]: z.coerce.number().int().positive().default(500),
};

/**
 * The budget of one query of the API (under API Gateway's 30 s integration timeout, so the caller
 * gets the service's 504, not the gateway's) and the queries an org may run at once.
 */
const queryBudget = {
  [v.queryTimeBudgetMs]: z.coerce.number().int().min(100).max(28_000).default(25_000),
  [v.concurrentQueriesPerOrg]: z.coerce.number().int().min(1).max(100).default(10),
};

export const SearchApiEnv = z.object({
  ...common,
  ...search,
  ...managementAuth,
  ...queryBudget,
  [tables.profiles.envVar]: name,
  [buckets.profileDocuments.envVar]: name,
  // Profile writes with a management token go onto the ingest stream, as the collector's do.
  [ingestStream.envVar]: name,
});

/** Shared views: token records, org status and the rate counter (resources table), the search index. */
export const SharedViewApiEnv = z.object({
  ...common,
  ...search,
  ...managementAuth,
  ...queryBudget,
  // A customer's usage page reads balances and what the billing run has reported.
  [tables.billing.envVar]: name,
  /** Customer-page requests per org per minute: their own counter, so a busy portal never spends the management API's rate. */
  [v.customerPagesRateLimitPerMinute]: z.coerce.number().int().positive().default(6000),
});

/** Behavioural emails go through SES on AWS; its configuration set records bounces and complaints. */
const emailDelivery = {
  [v.sesConfigurationSet]: z.string().min(1).optional(),
};

export const ManagementApiEnv = z.object({
  ...common,
  ...search,
  ...managementAuth,
  // A billing report's explanation re-runs its meter's query.
  ...queryBudget,
  ...webhookTargets,
  ...emailDelivery,
  [tables.billing.envVar]: name,
  // Export jobs: their parts' download URLs are signed here, and a cancel deletes them.
  [buckets.exports.envVar]: name,
  /** The billing run's providers secret: providers' webhooks check signatures and read objects with the apps' connections. */
  [v.billingProvidersSecretArn]: z.string().min(1).optional(),
  // Companies and subscriptions a provider's webhook brings in, and a replacement's corrected events, take the collector's path.
  [ingestStream.envVar]: name,
  // A replacement's events with a caller's transaction id are checked against the dedup claims.
  [tables.dedup.envVar]: name,
  /** The sender of an alert's emails when it is run now through the API (the scheduled evaluator has its own). */
  [v.notificationsFrom]: z.email().optional(),
});
/**
 * The scheduled email sender: templates, cohorts and send records (resources table), the search
 * index, the signing key (unsubscribe links), and the management API's URL the links point to.
 */
export const EmailSenderEnv = z.object({
  ...common,
  ...search,
  ...emailDelivery,
  [tables.resources.envVar]: name,
  [v.tokenSigningSecretArn]: name,
  [v.publicBaseUrl]: z.string().url(),
  /** The sender of cohort notification emails (unset: email channels of cohorts fail as not configured). */
  [v.notificationsFrom]: z.email().optional(),
});

/**
 * Alert evaluation (every minute): rules, states and history (resources table), the search index,
 * webhook channels, and SES for email channels (sent from NOTIFICATIONS_FROM).
 */
export const AlertEvaluatorEnv = z.object({
  ...common,
  ...search,
  ...emailDelivery,
  ...slackHosts,
  [tables.resources.envVar]: name,
  [v.notificationsFrom]: z.email().optional(),
});

/** The scheduled export worker: jobs and their queue (resources table), the search index, the parts (exports bucket). */
export const ExportWorkerEnv = z.object({
  ...common,
  ...search,
  [tables.resources.envVar]: name,
  [buckets.exports.envVar]: name,
});

/** The scheduled governance refresh: reads rules and cohorts, searches profiles, writes the membership snapshot. */
export const GovernanceRefreshEnv = z.object({
  ...common,
  ...search,
  [tables.resources.envVar]: name,
  /** How often, within each scheduled minute, the governed apps are refreshed again (refresh-ticks.ts); 60 refreshes once a minute. */
  [v.governanceRefreshSeconds]: z.coerce.number().int().min(1).max(60).default(10),
});

/** The scheduled billing run: meters and catalog (resources table), reports/balances/marks (billing table), the search index, provider connections. */
export const BillingRunEnv = z.object({
  ...common,
  ...search,
  ...webhookTargets,
  [tables.resources.envVar]: name,
  [tables.billing.envVar]: name,
  // Companies and subscriptions synced in from providers take the collector's path.
  [ingestStream.envVar]: name,
  /** Secrets Manager secret holding {"connections": [...], "apps": {...}} (functions/billing/run/provider-registry.ts); absent: webhook channels only. */
  [v.billingProvidersSecretArn]: z.string().min(1).optional(),
  /** Upper bound of one run's work; the Lambda's remaining time minus a minute is used when smaller. */
  [v.billingTimeBudgetMs]: z.coerce.number().int().positive().default(780_000),
});

/**
 * A Lambda's environment as lib/ sets it, checked against the schema the Lambda validates at cold
 * start: a variable the Lambda does not read fails type-checking instead of being silently ignored.
 */
export function lambdaEnvironment<S extends z.ZodObject>(_schema: S, values: { readonly [K in keyof z.input<S>]?: string }): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) environment[key] = value as string;
  return environment;
}

/** The search settings of a Lambda that reads the OpenSearch domain. */
export function openSearchEnvironment(search: { endpointUrl: string; replicas: number }) {
  return { [v.searchBackend]: 'opensearch', [v.opensearchEndpoint]: search.endpointUrl, [v.opensearchReplicas]: String(search.replicas) } as const;
}

export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  return parsed.data;
}
