import * as z from 'zod';
import { DATA_RETENTION_DAYS } from '../app';
import { TimeZoneName } from '../time-zone';
import { RegexRule } from './regex-rule';

/** Bodies of POST /~/apps and POST /~/apps/{id} (spec: App create / update, plus the app's settings). */

const percent = z.number().int().min(0).max(100);

/** A route template an app names (`/orders/:order_id/items/:item_id`): a path whose `:name` segments match any one segment. */
export const RoutePattern = z
  .string()
  .max(256)
  .regex(/^\//, { error: 'a route template starts with /' })
  .regex(/^[^?#\s]*$/, { error: 'a route template is a path: no query string, fragment or spaces' })
  .refine((pattern) => pattern.split('/').every((segment) => !segment.startsWith(':') || /^:[A-Za-z_][A-Za-z0-9_]*$/.test(segment)), {
    error: 'a parameter segment is :name, with letters, digits and _',
  });

/** The app settings a caller may set (sampling, backfill, route templates, data retention); the first three feed GET /v1/config. */
const settingsFields = {
  sample_rate: percent.optional(),
  user_sample_rate: z.record(z.string().min(1).max(256), percent).optional(),
  company_sample_rate: z.record(z.string().min(1).max(256), percent).optional(),
  regex_config: z
    .array(RegexRule.extend({ sample_rate: percent }))
    .max(50)
    .optional(),
  backfill_enabled: z.boolean().optional(),
  /** Patterns tried in order before ids are found automatically; they apply to API calls indexed from then on. */
  route_templates: z.array(RoutePattern).max(100).optional(),
  data_retention_days: z.number().int().min(DATA_RETENTION_DAYS.min).max(DATA_RETENTION_DAYS.max).nullable().optional().meta({
    description:
      "Days an event is kept; older ones are deleted within the hour (never inside a subscription's current billing period). null (the default) keeps every event.",
  }),
};

const appFields = {
  /** A TZ database name (also checked against the TZ database). */
  time_zone: TimeZoneName.optional(),
  week_starts_on: z.number().int().min(0).max(6).optional(),
  custom_app_id: z.string().min(1).max(128).optional(),
  ...settingsFields,
};

export const AppCreate = z.strictObject({ name: z.string().min(1).max(256), ...appFields });
export type AppCreate = z.infer<typeof AppCreate>;

export const AppUpdate = z.strictObject({ name: z.string().min(1).max(256).optional(), ...appFields });
export type AppUpdate = z.infer<typeof AppUpdate>;

export const APP_SETTING_FIELDS = Object.keys(settingsFields) as (keyof typeof settingsFields)[];
