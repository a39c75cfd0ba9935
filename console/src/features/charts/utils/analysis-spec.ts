import type { ApiSchema } from '../../../lib/api-types';
/**
 * The settings of the two analysis views, `funnel` and `retention`, and the request bodies they
 * send (POST /search/~/funnels/events and /search/~/retention/events). Steps and events are filters
 * in the query-string form the other views use (`request.verb:POST`); an empty one is any event.
 */
export const ACTORS = { user_id: 'Users', company_id: 'Companies' } as const;
export type Actor = keyof typeof ACTORS;

export const CONVERSION_WINDOWS = { '1h': 'An hour', '1d': 'A day', '7d': 'A week', '30d': '30 days' } as const;
export type ConversionWindow = keyof typeof CONVERSION_WINDOWS;

export const RETENTION_INTERVALS = { day: 'Day', week: 'Week', month: 'Month' } as const;
export type RetentionInterval = keyof typeof RETENTION_INTERVALS;

/** Steps the funnel form offers (the API takes up to 10). */
export const MAX_FORM_STEPS = 5;

export interface AnalysisSettings {
  readonly by: Actor;
  readonly steps: readonly string[];
  readonly conversionWindow: ConversionWindow;
  readonly firstEvent: string;
  readonly returnEvent: string;
  readonly every: RetentionInterval;
  readonly periods: number;
}

export const DEFAULT_ANALYSIS: AnalysisSettings = {
  by: 'user_id',
  steps: ['request.verb:POST', 'request.verb:GET'],
  conversionWindow: '1d',
  firstEvent: 'request.verb:POST',
  returnEvent: '',
  every: 'week',
  periods: 8,
};

function filterQuery(text: string): Record<string, unknown> {
  return text.trim() ? { query_string: { query: text.trim() } } : { match_all: {} };
}

/** The steps a funnel runs: the first two always (blank is any event), later ones when filled in. */
export function funnelSteps(settings: AnalysisSettings): string[] {
  return settings.steps.filter((step, i) => i < 2 || step.trim() !== '');
}

export function funnelBody(settings: AnalysisSettings): ApiSchema<'FunnelBody'> {
  const steps = funnelSteps(settings);
  return {
    by: settings.by,
    conversion_window: settings.conversionWindow,
    steps: steps.map((step) => ({ name: step.trim() || 'Any event', query: filterQuery(step) })),
  };
}

export function retentionBody(settings: AnalysisSettings): ApiSchema<'RetentionBody'> {
  return {
    by: settings.by,
    interval: settings.every,
    periods: settings.periods,
    first_event: filterQuery(settings.firstEvent),
    return_event: filterQuery(settings.returnEvent),
  };
}

/** The settings as URL parameters (added to the chart's own). */
export function analysisToParams(settings: AnalysisSettings, params: URLSearchParams): void {
  params.set('by', settings.by);
  for (const step of settings.steps) params.append('step', step);
  params.set('window', settings.conversionWindow);
  params.set('first', settings.firstEvent);
  params.set('return', settings.returnEvent);
  params.set('every', settings.every);
  params.set('periods', String(settings.periods));
}

export function analysisFromParams(params: URLSearchParams): AnalysisSettings {
  const by = params.get('by');
  const window = params.get('window');
  const every = params.get('every');
  const periods = Number(params.get('periods'));
  const steps = params.getAll('step');
  return {
    by: by && by in ACTORS ? (by as Actor) : DEFAULT_ANALYSIS.by,
    steps: steps.length >= 2 ? steps.slice(0, MAX_FORM_STEPS) : DEFAULT_ANALYSIS.steps,
    conversionWindow: window && window in CONVERSION_WINDOWS ? (window as ConversionWindow) : DEFAULT_ANALYSIS.conversionWindow,
    firstEvent: params.get('first') ?? DEFAULT_ANALYSIS.firstEvent,
    returnEvent: params.get('return') ?? DEFAULT_ANALYSIS.returnEvent,
    every: every && every in RETENTION_INTERVALS ? (every as RetentionInterval) : DEFAULT_ANALYSIS.every,
    periods: Number.isInteger(periods) && periods >= 1 && periods <= 104 ? periods : DEFAULT_ANALYSIS.periods,
  };
}

/** A duration in ms as people read it: 42 s, 5 min, 3.5 h, 2 d. */
export function readableDuration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  if (ms < 86_400_000) return `${(ms / 3_600_000).toFixed(1).replace(/\.0$/, '')} h`;
  return `${(ms / 86_400_000).toFixed(1).replace(/\.0$/, '')} d`;
}

/** A retention period's start as its cohort is named: the day (or the month) in the chart's time zone. */
export function formatPeriod(iso: string, interval: RetentionInterval, timeZone: string): string {
  const date = new Date(iso);
  const options: Intl.DateTimeFormatOptions =
    interval === 'month' ? { timeZone, year: 'numeric', month: 'long' } : { timeZone, year: 'numeric', month: 'short', day: '2-digit' };
  return `${interval === 'week' ? 'Week of ' : ''}${date.toLocaleDateString(undefined, options)}`;
}

/**
 * The average row of a retention table: per period, the share of all cohorts' members who came
 * back, over the cohorts whose period is over (weighted by size, so a big cohort counts more than
 * a small one); null where none is over.
 */
export function averageRetention(cohorts: readonly { size: number; returned: readonly (number | null)[] }[], periods: number): (number | null)[] {
  return Array.from({ length: periods }, (_, i) => {
    let returned = 0;
    let size = 0;
    for (const cohort of cohorts) {
      const count = cohort.returned[i];
      if (count === null || count === undefined || cohort.size === 0) continue;
      returned += count;
      size += cohort.size;
    }
    return size === 0 ? null : returned / size;
  });
}
