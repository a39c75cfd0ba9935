import * as z from 'zod';
import { buckets, ingestStream, tables } from './resources';

/**
 * Each Lambda's environment, validated once when its module loads: a missing variable fails the
 * cold start loudly instead of failing requests one by one.
 */
const name = z.string().min(1);

const common = {
  AWS_REGION: z.string().default('us-east-1'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
};

const search = {
  SEARCH_BACKEND: z.enum(['opensearch', 'duckdb']).default('opensearch'),
  OPENSEARCH_ENDPOINT: z.string().url().optional(),
  /** Replicas per index: 0 on a one-node domain (a replica there can never be placed), 1 otherwise. */
  OPENSEARCH_REPLICAS: z.coerce.number().int().min(0).max(3).default(1),
  DUCKDB_PATH: z.string().optional(),
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
  [tables.profiles.envVar]: name,
  [buckets.profileDocuments.envVar]: name,
  [tables.billing.envVar]: name,
  [buckets.archive.envVar]: name,
  [buckets.failedRecords.envVar]: name,
});

export const UploadProcessorEnv = z.object({
  ...common,
  [ingestStream.envVar]: name,
  [tables.resources.envVar]: name,
  [buckets.uploads.envVar]: name,
});

/** A true/false switch: `true`/`1` or `false`/`0` (anything else fails the cold start). */
const flag = (fallback: boolean) => z.enum(['true', 'false', '1', '0']).default(fallback ? 'true' : 'false').transform((v) => v === 'true' || v === '1');

/**
 * Webhook channel URLs are chosen by tenants. On AWS loopback inside a Lambda is its runtime API and
 * private/link-local addresses reach the VPC and metadata endpoints, so channels naming them are
 * refused (400 on `url`) and deliveries resolving to them are refused (`forbidden_target`). Only local
 * mode and tests set this true (receivers on localhost); CDK leaves it unset.
 */
const webhookTargets = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag(false),
};

/** Every management Lambda authenticates tokens (signing key) and counts the org's rate (resources table). */
const managementAuth = {
  [tables.resources.envVar]: name,
  TOKEN_SIGNING_SECRET_ARN: name,
  /** Management API queries per org per calendar minute (plus bounded burst credit). */
  MANAGEMENT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(500),
};

export const SearchApiEnv = z.object({
  ...common,
  ...search,
  ...managementAuth,
  [tables.profiles.envVar]: name,
  [buckets.profileDocuments.envVar]: name,
  // Profile writes with a management token go onto the ingest stream, as the collector's do.
  [ingestStream.envVar]: name,
});

export const ManagementApiEnv = z.object({
  ...common,
  ...search,
  ...managementAuth,
  ...webhookTargets,
  [tables.billing.envVar]: name,
});

/** The scheduled governance refresh: reads rules and cohorts, searches profiles, writes the membership snapshot. */
export const GovernanceRefreshEnv = z.object({
  ...common,
  ...search,
  [tables.resources.envVar]: name,
});

/** The scheduled billing run: meters and catalog (resources table), reports/balances/marks (billing table), the search index, provider connections. */
export const BillingRunEnv = z.object({
  ...common,
  ...search,
  ...webhookTargets,
  [tables.resources.envVar]: name,
  [tables.billing.envVar]: name,
  /** Secrets Manager secret holding {"connections": [...], "apps": {...}} (functions/billing/run/provider-registry.ts); absent: webhook channels only. */
  BILLING_PROVIDERS_SECRET_ARN: z.string().min(1).optional(),
  /** Upper bound of one run's work; the Lambda's remaining time minus a minute is used when smaller. */
  BILLING_TIME_BUDGET_MS: z.coerce.number().int().positive().default(780_000),
});

export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  return parsed.data;
}
