import * as z from 'zod';
import { resolveDateMath } from '../dates/date-math';
import { assertDateFormat } from '../dates/date-format';
import { parseCalendarInterval, parseFixedInterval, parseOffset } from '../dates/intervals';
import { assertTimeZone } from '../dates/time-zone';
import type { IndexKind } from '../port';
import { OrderSpec, aggregatableField } from './aggregation-rules';
import { MAX_PRECISION_THRESHOLD, MAX_TERMS_SIZE, MAX_TOP_HITS_WINDOW } from './limits';
import { FieldName, INVALID, IntLike, type ParseOptions, ScalarValue, checkAt, issue } from './parse-support';
import { Query } from './query';
import { SourceSpec, sortList } from './sort';

/** The schema of each supported aggregation type. */

export const Missing = ScalarValue.optional();

/** The schemas of every aggregation type (built once per index kind and request time zone). */
export function aggregationSchemas(kind: IndexKind, options: Required<ParseOptions>): Record<string, z.ZodType<Record<string, unknown>>> {
  const field = (numeric: boolean) =>
    FieldName.superRefine((name, ctx) => {
      aggregatableField(kind, ctx, name, numeric);
    });

  const terms = z
    .strictObject({
      field: field(false),
      size: IntLike(1, MAX_TERMS_SIZE, 'size').optional(),
      shard_size: IntLike(1, Number.MAX_SAFE_INTEGER, 'shard_size').optional(),
      order: OrderSpec.optional(),
      min_doc_count: IntLike(0, Number.MAX_SAFE_INTEGER, 'min_doc_count').optional(),
      missing: Missing,
    })
    .transform((body) => {
      return {
        type: 'terms' as const,
        field: body.field,
        size: body.size ?? 10,
        order: body.order,
        min_doc_count: body.min_doc_count ?? 1,
        ...(body.missing === undefined ? {} : { missing: body.missing }),
        ...(body.shard_size === undefined ? {} : { shard_size: body.shard_size }),
      };
    });

  const Bounds = z.strictObject({ min: ScalarValue, max: ScalarValue });
  const dateHistogram = z
    .strictObject({
      field: field(true),
      calendar_interval: z.string().optional(),
      fixed_interval: z.string().optional(),
      interval: z.unknown().optional(),
      time_zone: z.string().optional(),
      min_doc_count: IntLike(0, Number.MAX_SAFE_INTEGER, 'min_doc_count').optional(),
      extended_bounds: Bounds.optional(),
      format: z.string().optional(),
      offset: z.union([z.string(), z.number().int()]).optional(),
      order: OrderSpec.optional(),
    })
    .transform((body, ctx) => {
      if (body.interval !== undefined) {
        issue(ctx, ['interval'], 'interval is deprecated and ambiguous: use calendar_interval or fixed_interval');
        return z.NEVER;
      }
      if ((body.calendar_interval === undefined) === (body.fixed_interval === undefined)) {
        issue(ctx, body.calendar_interval === undefined ? [] : ['fixed_interval'], 'give exactly one of calendar_interval or fixed_interval');
        return z.NEVER;
      }
      const valid = [
        body.calendar_interval === undefined ? true : checkAt(ctx, ['calendar_interval'], () => parseCalendarInterval(body.calendar_interval as string)),
        body.fixed_interval === undefined ? true : checkAt(ctx, ['fixed_interval'], () => parseFixedInterval(body.fixed_interval as string)),
        body.offset === undefined ? true : checkAt(ctx, ['offset'], () => parseOffset(body.offset as string | number)),
        body.format === undefined ? true : checkAt(ctx, ['format'], () => assertDateFormat(body.format as string)),
      ];
      const timeZone = body.time_zone === undefined ? options.timeZone : checkAt(ctx, ['time_zone'], () => assertTimeZone(body.time_zone as string));
      if (valid.includes(INVALID) || timeZone === INVALID) return z.NEVER;
      if (body.extended_bounds !== undefined) {
        for (const bound of ['min', 'max'] as const) {
          const value = body.extended_bounds[bound];
          if (typeof value === 'boolean') issue(ctx, ['extended_bounds', bound], 'must be a date or epoch milliseconds');
          else checkAt(ctx, ['extended_bounds', bound], () => resolveDateMath(value, new Date(0), timeZone, false, { format: body.format }));
        }
      }
      return {
        type: 'date_histogram' as const,
        field: body.field,
        ...(body.calendar_interval === undefined ? {} : { calendar_interval: body.calendar_interval }),
        ...(body.fixed_interval === undefined ? {} : { fixed_interval: body.fixed_interval }),
        time_zone: timeZone,
        min_doc_count: body.min_doc_count ?? 0,
        ...(body.extended_bounds === undefined ? {} : { extended_bounds: body.extended_bounds }),
        ...(body.format === undefined ? {} : { format: body.format }),
        ...(body.offset === undefined ? {} : { offset: String(body.offset) }),
        order: body.order,
      };
    });

  const histogram = z
    .strictObject({
      field: field(true),
      interval: z.number({ error: 'interval must be a number' }).positive({ error: 'interval must be above 0' }),
      min_doc_count: IntLike(0, Number.MAX_SAFE_INTEGER, 'min_doc_count').optional(),
      extended_bounds: z.strictObject({ min: z.number(), max: z.number() }).optional(),
      offset: z.number().optional(),
      order: OrderSpec.optional(),
    })
    .transform((body) => ({
      type: 'histogram' as const,
      field: body.field,
      interval: body.interval,
      min_doc_count: body.min_doc_count ?? 0,
      ...(body.extended_bounds === undefined ? {} : { extended_bounds: body.extended_bounds }),
      offset: body.offset ?? 0,
      order: body.order,
    }));

  const RangeBound = z.union([z.number(), z.string()]).nullable().optional();
  const rangeAgg = z
    .strictObject({
      field: field(true),
      ranges: z
        .array(z.strictObject({ key: z.string().optional(), from: RangeBound, to: RangeBound }))
        .min(1, { error: 'give at least one range' })
        .max(MAX_TERMS_SIZE),
      keyed: z.boolean().optional(),
    })
    .transform((body) => ({
      type: 'range' as const,
      field: body.field,
      ranges: body.ranges.map((r) => ({
        ...(r.key === undefined ? {} : { key: r.key }),
        ...(r.from === undefined || r.from === null ? {} : { from: r.from }),
        ...(r.to === undefined || r.to === null ? {} : { to: r.to }),
      })),
      keyed: body.keyed ?? false,
    }));

  const filter = Query.transform((query) => ({ type: 'filter' as const, filter: query }));

  const filters = z
    .strictObject({
      filters: z.union([z.record(z.string(), Query), z.array(Query)], { error: 'filters is an object of named queries or an array of queries' }),
      other_bucket: z.boolean().optional(),
      other_bucket_key: z.string().min(1).optional(),
    })
    .superRefine((body, ctx) => {
      const count = Array.isArray(body.filters) ? body.filters.length : Object.keys(body.filters).length;
      if (count > MAX_TERMS_SIZE) issue(ctx, ['filters'], `at most ${MAX_TERMS_SIZE} filters`);
    })
    .transform((body) => {
      const keyed = !Array.isArray(body.filters);
      const entries = Array.isArray(body.filters) ? body.filters.map((query, position) => [String(position), query] as const) : Object.entries(body.filters);
      const other = body.other_bucket_key ?? (body.other_bucket === true ? '_other_' : undefined);
      return {
        type: 'filters' as const,
        filters: entries.map(([key, query]) => ({ key, filter: query })),
        keyed,
        ...(other === undefined || body.other_bucket === false ? {} : { other_bucket_key: other }),
      };
    });

  const metric = <T extends 'sum' | 'avg' | 'min' | 'max' | 'value_count' | 'cardinality' | 'stats'>(type: T, numeric: boolean) =>
    z
      .strictObject({
        field: field(numeric),
        missing: Missing,
        ...(type === 'cardinality'
          ? {
              precision_threshold: z
                .number()
                .int()
                .min(0)
                .max(MAX_PRECISION_THRESHOLD, { error: `precision_threshold is at most ${MAX_PRECISION_THRESHOLD}` })
                .optional(),
            }
          : {}),
      })
      .transform((body) => ({
        type,
        field: body.field,
        ...(body.missing === undefined ? {} : { missing: body.missing }),
        ...('precision_threshold' in body && typeof body.precision_threshold === 'number' ? { precision_threshold: body.precision_threshold } : {}),
      }));

  const percentiles = z
    .strictObject({
      field: field(true),
      percents: z.array(z.number().min(0).max(100), { error: 'percents must be numbers from 0 to 100' }).min(1).max(100).optional(),
      keyed: z.boolean().optional(),
      missing: Missing,
    })
    .transform((body) => ({
      type: 'percentiles' as const,
      field: body.field,
      percents: body.percents ?? [1, 5, 25, 50, 75, 95, 99],
      keyed: body.keyed ?? true,
      ...(body.missing === undefined ? {} : { missing: body.missing }),
    }));

  const topHits = z
    .strictObject({
      size: IntLike(0, MAX_TOP_HITS_WINDOW, 'size').optional(),
      from: IntLike(0, MAX_TOP_HITS_WINDOW, 'from').optional(),
      sort: sortList(kind).optional(),
      _source: SourceSpec.optional(),
    })
    .superRefine((body, ctx) => {
      if ((body.from ?? 0) + (body.size ?? 3) > MAX_TOP_HITS_WINDOW) issue(ctx, ['size'], `from + size must be at most ${MAX_TOP_HITS_WINDOW}`);
    })
    .transform((body) => ({
      type: 'top_hits' as const,
      size: body.size ?? 3,
      from: body.from ?? 0,
      sort: body.sort ?? [],
      _source: body._source ?? { includes: [], excludes: [] },
    }));

  return {
    terms,
    date_histogram: dateHistogram,
    histogram,
    range: rangeAgg,
    filter,
    filters,
    sum: metric('sum', true),
    avg: metric('avg', true),
    min: metric('min', true),
    max: metric('max', true),
    value_count: metric('value_count', false),
    cardinality: metric('cardinality', false),
    stats: metric('stats', true),
    percentiles,
    top_hits: topHits,
  };
}
