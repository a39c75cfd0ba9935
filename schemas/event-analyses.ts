import * as z from 'zod';

/**
 * Funnels and retention over events: the request bodies of POST /search/~/funnels/events and
 * POST /search/~/retention/events, and their answers. Step and event queries are search-DSL queries
 * (checked by functions/search/dsl, whose refinements have no JSON Schema form).
 */

/** Whose journey is followed: each distinct value is one actor; events without it take no part. */
export const AnalysisActor = z.enum(['user_id', 'company_id']);
export type AnalysisActor = z.infer<typeof AnalysisActor>;

/** A DSL query such as `{"term": {"request.verb": "POST"}}`. */
const EventQuery = z.record(z.string(), z.unknown());

/** Steps of a funnel: 2 to 10 (each step's events are filtered separately, so the count is bounded). */
export const MAX_FUNNEL_STEPS = 10;

export const FunnelStepBody = z.strictObject({
  name: z.string().min(1).max(128).optional().meta({ description: 'Shown in the answer; default "Step n".' }),
  query: EventQuery.meta({ description: 'The events that make this step (a search-DSL query).' }),
});

export const FunnelBody = z.strictObject({
  steps: z.array(FunnelStepBody).min(2).max(MAX_FUNNEL_STEPS),
  by: AnalysisActor.default('user_id'),
  conversion_window: z
    .string()
    .max(16)
    .default('1d')
    .meta({ description: 'How long after entering (the first step) the later steps may happen: 30m, 12h, 7d (ms, s, m, h, d). Default 1d; at most 366d.' }),
});
export type FunnelBody = z.infer<typeof FunnelBody>;

export const FunnelStepAnswer = z.object({
  name: z.string(),
  entered: z.int().meta({ description: 'Actors that reached this step.' }),
  converted: z.int().nullable().meta({ description: 'Of those, actors that went on to the next step within the window (null for the last step).' }),
  conversion_rate: z.number().nullable().meta({ description: 'converted / entered (null for the last step, 0 when none entered).' }),
  overall_conversion_rate: z.number().meta({ description: "entered / the first step's entered (0 when nobody entered the funnel)." }),
  median_time_to_convert_ms: z.number().nullable().meta({
    description:
      'Median time from this step to the next over the actors that converted (the mean of the middle two for an even count); null when none did or for the last step.',
  }),
});

export const FunnelAnswer = z.object({
  by: AnalysisActor,
  conversion_window_ms: z.int(),
  steps: z.array(FunnelStepAnswer),
  exact: z.boolean().meta({ description: 'False only when the OpenSearch backend met its documented cap (docs/management-api.md, Funnels and retention).' }),
});
export type FunnelAnswer = z.infer<typeof FunnelAnswer>;

/** Periods a retention table follows after each cohort's own. */
export const MAX_RETENTION_PERIODS = 104;

export const RetentionBody = z.strictObject({
  first_event: EventQuery.meta({ description: 'The events that put an actor in a cohort: the calendar period of its first one in the window.' }),
  return_event: EventQuery.meta({ description: 'The events that count as coming back.' }),
  by: AnalysisActor.default('user_id'),
  interval: z.enum(['day', 'week', 'month']).default('week').meta({ description: "Calendar periods in the request's time_zone (weeks start on Monday)." }),
  periods: z.int().min(1).max(MAX_RETENTION_PERIODS).default(12).meta({ description: "Periods followed after each cohort's own." }),
});
export type RetentionBody = z.infer<typeof RetentionBody>;

export const RetentionCohort = z.object({
  start: z.string().meta({ description: "The cohort's period start (ISO 8601 instant)." }),
  size: z.int().meta({ description: 'Actors whose first first_event fell in this period.' }),
  returned: z.array(z.int().nullable()).meta({
    description:
      "returned[i]: cohort actors with a return_event in period i + 1 after the cohort's own; null where that period starts at or after the window's end.",
  }),
  rates: z.array(z.number().nullable()).meta({ description: 'returned[i] / size.' }),
});

export const RetentionAnswer = z.object({
  by: AnalysisActor,
  interval: z.enum(['day', 'week', 'month']),
  periods: z.int(),
  cohorts: z.array(RetentionCohort),
  exact: z.boolean().meta({ description: 'False only when the OpenSearch backend met its documented cap (docs/management-api.md, Funnels and retention).' }),
});
export type RetentionAnswer = z.infer<typeof RetentionAnswer>;
