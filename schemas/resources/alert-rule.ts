import * as z from 'zod';
import { ChannelOutcome } from '../channel-outcome';

/**
 * An alert rule (`/~/alerts`): a metric of the events a query selects, over a trailing window,
 * overall or per company / user, checked every `interval_minutes` against a threshold; a crossing
 * fires a notification to its channels, and the way back resolves it (docs/alerts.md).
 */

export const AlertMetricType = z.enum(
  [
    'count',
    'sum_weight',
    'error_rate',
    'avg_latency',
    'p50_latency',
    'p90_latency',
    'p99_latency',
    'unique_users',
    'unique_companies',
    'late_events',
    'quota_used_percent',
    'balance_available',
    'spend_cap_used_percent',
    'reconciliation_drift',
  ],
  {
    error:
      'must be count, sum_weight, error_rate, avg_latency, p50_latency, p90_latency, p99_latency, unique_users, unique_companies, late_events, quota_used_percent, balance_available, spend_cap_used_percent or reconciliation_drift',
  },
);
export type AlertMetricType = z.infer<typeof AlertMetricType>;

const Operator = z.enum(['above', 'below'], { error: 'must be above or below' });

/** A fixed threshold: fires while the value is above (or below) it. */
export const StaticCondition = z.strictObject({
  type: z.literal('static'),
  operator: Operator,
  threshold: z.number().finite(),
});

/**
 * A threshold from the past: the mean of the same window at the same time of day 1…`weeks` weeks
 * before, times `factor` (above) or divided by it (below). `minimum`: the value must also reach it
 * to fire (above), so a quiet baseline does not fire on a handful of events.
 */
export const DynamicCondition = z.strictObject({
  type: z.literal('dynamic'),
  operator: Operator,
  factor: z.number().min(1, 'must be at least 1').max(1000),
  weeks: z.number().int().min(1, 'must be 1 to 4').max(4, 'must be 1 to 4').default(2),
  minimum: z.number().finite().optional(),
});

export const AlertCondition = z.discriminatedUnion('type', [StaticCondition, DynamicCondition], { error: 'must have type static or dynamic' });
export type AlertCondition = z.infer<typeof AlertCondition>;

const Url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);

export const AlertChannels = z.strictObject({
  emails: z
    .array(z.email({ error: 'must be an email address' }).max(320))
    .max(20)
    .default([]),
  /** Billing channels (`/~/billing/channels`): signed webhooks. */
  webhook_channel_ids: z.array(z.string().min(1).max(128)).max(20).default([]),
  /** Slack incoming webhook URLs: https on hooks.slack.com (or a host the deployment allows), checked on save and at send. */
  slack_urls: z.array(Url).max(20).default([]),
  /** PagerDuty Events v2 routing (integration) keys: 32 letters and digits, as PagerDuty issues them. */
  pagerduty_routing_keys: z
    .array(z.string().regex(/^[A-Za-z0-9]{32}$/, { error: 'must be a PagerDuty integration key: 32 letters and digits' }))
    .max(20)
    .default([]),
});
export type AlertChannels = z.infer<typeof AlertChannels>;

const fields = {
  name: z.string().min(1).max(256),
  /** 1 enabled, 0 disabled (kept, not evaluated). */
  state: z.union([z.literal(0), z.literal(1)], { error: 'must be 0 (disabled) or 1 (enabled)' }),
  /** An events query of the search DSL; absent: every event. */
  query: z.record(z.string(), z.unknown()).optional(),
  metric: AlertMetricType,
  /** quota_used_percent only: the governance quota rule whose subscriptions and quotas are watched. */
  quota_rule_id: z.string().min(1).max(128).optional(),
  /** Per-customer alerts: one series per company or user (the busiest 1,000 in the window). */
  group_by: z.enum(['company_id', 'user_id'], { error: 'must be company_id or user_id' }).optional(),
  window_minutes: z.number().int().min(1, 'must be 1 to 10080').max(10_080, 'must be 1 to 10080'),
  interval_minutes: z.number().int().min(1, 'must be 1 to 1440').max(1440, 'must be 1 to 1440'),
  condition: AlertCondition,
  /** After a series fires, it does not fire again for this long (its resolve is still sent); default 0. */
  cooldown_minutes: z.number().int().min(0).max(10_080),
  channels: AlertChannels,
};

export const AlertRuleCreate = z.strictObject({ ...fields, cooldown_minutes: fields.cooldown_minutes.default(0) });
export type AlertRuleCreate = z.infer<typeof AlertRuleCreate>;
export const AlertRuleUpdate = z.strictObject(
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]>;
  },
);
export type AlertRuleUpdate = z.infer<typeof AlertRuleUpdate>;

/** One entry of an alert's history: a firing or a resolve of one series, and where it was sent. */
export const AlertEvent = z.object({
  event_id: z.string(),
  alert_id: z.string(),
  kind: z.enum(['fired', 'resolved']),
  /** `*` for an alert over all events; the company or user id otherwise. */
  series: z.string(),
  value: z.number().nullable(),
  threshold: z.number().nullable(),
  at: z.string(),
  /** When the firing this event belongs to began (a resolve names its firing's time). */
  fired_at: z.string(),
  window_start: z.string(),
  window_end: z.string(),
  /** Per channel key (`email:…`, `webhook:<channel id>`, `slack:<hash>`, `pagerduty:<hash>`): where its message stands. */
  channels: z.record(z.string(), ChannelOutcome),
});
export type AlertEvent = z.infer<typeof AlertEvent>;

/** The body of POST /~/alerts/preview: a rule's measuring members, and which series and how many windows to chart. */
export const AlertPreviewRequest = z.strictObject({
  query: z.record(z.string(), z.unknown()).optional(),
  metric: AlertMetricType,
  group_by: z.enum(['company_id', 'user_id']).optional(),
  window_minutes: z.number().int().min(1).max(10_080),
  condition: AlertCondition,
  /** For a grouped alert: the company or user charted (default: all events together). */
  series: z.string().min(1).max(256).optional(),
  /** Windows charted back from now (default 48). */
  windows: z.number().int().min(2).max(200).default(48),
});
export type AlertPreviewRequest = z.infer<typeof AlertPreviewRequest>;

/** A page of an alert's history: `before` is the `next_before` of the page before. */
export const AlertHistoryQuery = z.object({
  take: z.coerce.number().int().min(1, 'must be 1 to 1000').max(1000, 'must be 1 to 1000').default(50),
  before: z.string().min(1).max(1024).optional(),
});
