import * as z from 'zod';

/**
 * How long an app's events are kept, in days: at least the collector's 30-day acceptance window
 * plus the dedup claims' 5 more (a late event may still arrive and be billed), at most ten years.
 */
export const DATA_RETENTION_DAYS = { min: 35, max: 3650 } as const;

/** Per-app settings that feed GET /v1/config and collector rules. */
export const AppSettings = z.object({
  sample_rate: z.number().int().min(0).max(100).default(100),
  user_sample_rate: z.record(z.string(), z.number().int().min(0).max(100)).default({}),
  company_sample_rate: z.record(z.string(), z.number().int().min(0).max(100)).default({}),
  regex_config: z
    .array(
      z.object({
        conditions: z.array(z.object({ path: z.string(), value: z.string() })),
        sample_rate: z.number().int().min(0).max(100),
      }),
    )
    .default([]),
  /** Accept events older than the 30-day window (backfill). */
  backfill_enabled: z.boolean().default(false),
  /** The app's route templates (`/orders/:order_id`), tried in order before ids are found automatically. */
  route_templates: z.array(z.string()).default([]),
  /** Events older than this many days are deleted (functions/retention); null keeps them forever. */
  data_retention_days: z.number().int().nullable().default(null),
});
export type AppSettings = z.infer<typeof AppSettings>;

export const App = z.object({
  org_id: z.string(),
  app_id: z.string(),
  name: z.string(),
  /** The Collector application id SDKs send (≥ 50 characters: moesif-nodejs refuses shorter). */
  collector_application_id: z.string().min(50),
  /** The caller's own name for the app (spec: custom_app_id). */
  custom_app_id: z.string().optional(),
  time_zone: z.string().default('UTC'),
  week_starts_on: z.number().int().min(0).max(6).default(0),
  settings: AppSettings,
  created_at: z.string(),
  modified_at: z.string(),
  /**
   * Content hash of the rules' cohort membership (GET /v1/config), set by the governance refresher:
   * it rides on the app so every collector answer's config ETag reflects membership without a read.
   */
  rules_config_hash: z.string().optional(),
});
export type App = z.infer<typeof App>;
