import * as z from 'zod';
import type { BillingReport } from '../../../schemas/billing/report';
import { bucketStart, formatKeyAsString, nextBucket, parseCalendarInterval, parseFixedInterval, type BucketInterval } from '../../search/dates/intervals';
import { ValidationError } from '../../shared/errors';
import { Decimal } from '../../../values/decimal';
import { ReportFilterParams, reportSelection } from './report-query';
import { reportKeyOf, type ReportStore, type ReportTenant } from './report-store';

/**
 * `GET /~/billing/reports/metrics`: billing reports bucketed by the start of their window, in the
 * requested time zone (calendar units follow its wall clock and DST, as search's date_histogram does;
 * `start` is written with the zone's offset).
 *   metric          the aggregator over the reports' `meter_usage`: sum | avg | min | max, or `terms`
 *                   = how many distinct subscriptions (companies, for unattributed usage) have a report;
 *                   avg / min / max of an empty bucket are null.
 *   amounts         per currency, the sum of the reports' `amount` (computed exactly, as decimals).
 *   ending_balance  per subscription, the ending balance of its latest report in the bucket that has
 *                   one; summed over subscriptions (zeros when none).
 * `group_by` adds `series`: the same buckets per value of the field (top series by total usage).
 */

export const AGGREGATORS = ['sum', 'avg', 'min', 'max', 'terms'] as const;
export const GROUP_BY_FIELDS = ['company_id', 'subscription_id', 'billing_meter_id', 'provider', 'status'] as const;
type GroupByField = (typeof GROUP_BY_FIELDS)[number];

export const ReportMetricsParams = z.strictObject({
  ...ReportFilterParams.shape,
  aggregator: z.enum(AGGREGATORS, { error: `must be one of ${AGGREGATORS.join(', ')}` }).default('sum'),
  /** Calendar (`hour`, `1d`, `week`, `1M`, `quarter`, `year`) or fixed (`5m`, `6h`, `2d`). */
  interval: z.string().max(32).default('1d'),
  group_by: z.enum(GROUP_BY_FIELDS, { error: `must be one of ${GROUP_BY_FIELDS.join(', ')}` }).optional(),
});
export type ReportMetricsParams = z.output<typeof ReportMetricsParams>;

export interface CreditFigures {
  current_balance: number;
  pending_activity: number;
  available_balance: number;
}

export interface MetricBucket {
  start: string;
  metric: number | null;
  amounts: Record<string, number>;
  ending_balance: CreditFigures;
}

export interface MetricsAnswer {
  buckets: MetricBucket[];
  aggregator: string;
  interval: string;
  time_zone: string;
  group_by?: string;
  series?: { key: string | null; buckets: MetricBucket[] }[];
  /** Series left out (beyond MAX_SERIES). */
  other_series_count?: number;
}

const MAX_BUCKETS = 2000;
const MAX_SERIES = 100;
/** Report groups one metrics request may read: beyond it, the range must be narrowed. */
const MAX_GROUPS = 20_000;
const DEFAULT_RANGE = '-1M';

/** A calendar name (`day`, `1d`, `1M` …) or a fixed duration (`5m`, `12h`); 400 naming `interval` otherwise. */
export function parseMetricsInterval(text: string): BucketInterval {
  try {
    return { calendar: parseCalendarInterval(text, 'interval') };
  } catch {
    return { fixedMs: parseFixedInterval(text, 'interval') };
  }
}

export async function reportMetrics(
  store: Pick<ReportStore, 'listWindows'>,
  tenant: ReportTenant,
  params: ReportMetricsParams,
  now: Date,
): Promise<MetricsAnswer> {
  const selection = reportSelection({ ...params, from: params.from ?? DEFAULT_RANGE }, now);
  const interval = parseMetricsInterval(params.interval);
  const zone = selection.timeZone;
  const starts: number[] = [];
  for (let at = bucketStart(selection.from.getTime(), interval, zone); at < selection.to.getTime(); at = nextBucket(at, interval, zone)) {
    if (starts.length === MAX_BUCKETS)
      throw new ValidationError(`More than ${MAX_BUCKETS} buckets: choose a longer interval or a shorter range`, [
        { field: 'interval', reason: `gives more than ${MAX_BUCKETS} buckets between from and to` },
      ]);
    starts.push(at);
  }
  const first = starts[0] ?? selection.from.getTime();
  const bucketIndex = (ms: number) => {
    // Binary search: the last bucket starting at or before ms.
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= ms) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  const overall = new BucketSet(starts.length);
  const series = new Map<string | null, BucketSet>();
  let groups = 0;
  let cursor: string | undefined;
  do {
    const page = await store.listWindows(tenant, {
      from: selection.from,
      to: selection.to,
      ...(selection.meterId !== undefined ? { meterId: selection.meterId } : {}),
      newestFirst: false,
      maxWindows: 50,
      ...(cursor ? { cursor } : {}),
    });
    for (const group of page.windows) {
      groups += 1;
      if (groups > MAX_GROUPS)
        throw new ValidationError(`The range holds more than ${MAX_GROUPS} report windows; narrow from/to or filter by billing_meter_id`, [
          { field: 'from', reason: `range holds more than ${MAX_GROUPS} report windows` },
        ]);
      const start = group.window.start.getTime();
      // Reports are counted in the bucket of their window's start, and only when that start is in [from, to).
      if (start < selection.from.getTime() || start >= selection.to.getTime() || start < first) continue;
      const index = bucketIndex(start);
      for (const report of group.reports) {
        if (!selection.matches(report)) continue;
        overall.add(index, report);
        if (params.group_by !== undefined) {
          const key = groupKey(report, params.group_by);
          let set = series.get(key);
          if (!set) series.set(key, (set = new BucketSet(starts.length)));
          set.add(index, report);
        }
      }
    }
    cursor = page.cursor;
  } while (cursor);

  // Starts are written in the requested zone ('2026-10-25T00:00:00.000+02:00'; 'Z' in UTC), as search's key_as_string.
  const render = (set: BucketSet) => starts.map((start, i) => set.bucket(i, formatKeyAsString(start, zone), params.aggregator));
  const answer: MetricsAnswer = { buckets: render(overall), aggregator: params.aggregator, interval: params.interval, time_zone: zone };
  if (params.group_by === undefined) return answer;
  const ranked = [...series.entries()].sort(
    ([ka, a], [kb, b]) => (b.totalUsage > a.totalUsage ? 1 : b.totalUsage < a.totalUsage ? -1 : 0) || String(ka).localeCompare(String(kb)),
  );
  return {
    ...answer,
    group_by: params.group_by,
    series: ranked.slice(0, MAX_SERIES).map(([key, set]) => ({ key, buckets: render(set) })),
    ...(ranked.length > MAX_SERIES ? { other_series_count: ranked.length - MAX_SERIES } : {}),
  };
}

function groupKey(report: BillingReport, field: GroupByField): string | null {
  return report[field] ?? null;
}

interface BucketAccumulator {
  /** Running figures, not the values: a bucket may hold hundreds of thousands of reports. */
  count: number;
  sum: bigint;
  min: number;
  max: number;
  keys: Set<string>;
  amounts: Map<string, Decimal>;
  /** Per report key: the latest report with an ending balance. */
  balances: Map<string, { end: string; sequence: number; figures: CreditFigures }>;
}

/** Accumulates reports per bucket (one set overall, one per series). */
class BucketSet {
  private readonly buckets: (BucketAccumulator | undefined)[];
  totalUsage = 0n;

  constructor(size: number) {
    this.buckets = new Array(size).fill(undefined);
  }

  add(index: number, report: BillingReport): void {
    let bucket = this.buckets[index];
    if (!bucket) this.buckets[index] = bucket = { count: 0, sum: 0n, min: Infinity, max: -Infinity, keys: new Set(), amounts: new Map(), balances: new Map() };
    bucket.count += 1;
    bucket.sum += BigInt(report.meter_usage);
    bucket.min = Math.min(bucket.min, report.meter_usage);
    bucket.max = Math.max(bucket.max, report.meter_usage);
    this.totalUsage += BigInt(report.meter_usage);
    const key = reportKeyOf(report);
    bucket.keys.add(key);
    const amount = report.amount_exact ?? (report.amount !== undefined ? String(report.amount) : undefined);
    if (report.currency && amount !== undefined && Decimal.isDecimalText(amount)) {
      bucket.amounts.set(report.currency, (bucket.amounts.get(report.currency) ?? Decimal.ZERO).plus(Decimal.from(amount)));
    }
    const balance = report.ending_balance;
    if (balance) {
      const seen = bucket.balances.get(key);
      if (!seen || report.usage_end_time > seen.end || (report.usage_end_time === seen.end && balance.sequence_id > seen.sequence)) {
        bucket.balances.set(key, {
          end: report.usage_end_time,
          sequence: balance.sequence_id,
          figures: { current_balance: balance.current_balance, pending_activity: balance.pending_activity, available_balance: balance.available_balance },
        });
      }
    }
  }

  bucket(index: number, start: string, aggregator: (typeof AGGREGATORS)[number]): MetricBucket {
    const bucket = this.buckets[index];
    const count = bucket?.count ?? 0;
    const sum = bucket?.sum ?? 0n;
    const metric =
      aggregator === 'sum'
        ? Number(sum)
        : aggregator === 'terms'
          ? (bucket?.keys.size ?? 0)
          : bucket === undefined || count === 0
            ? null
            : aggregator === 'avg'
              ? Decimal.from(sum).dividedBy(count, 6, 'nearest').toNumber()
              : aggregator === 'min'
                ? bucket.min
                : bucket.max;
    const totals = { current: Decimal.ZERO, pending: Decimal.ZERO, available: Decimal.ZERO };
    for (const { figures } of bucket?.balances.values() ?? []) {
      totals.current = totals.current.plus(Decimal.from(figures.current_balance));
      totals.pending = totals.pending.plus(Decimal.from(figures.pending_activity));
      totals.available = totals.available.plus(Decimal.from(figures.available_balance));
    }
    return {
      start,
      metric,
      amounts: Object.fromEntries(
        [...(bucket?.amounts ?? new Map<string, Decimal>()).entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([currency, value]) => [currency, value.toNumber()]),
      ),
      ending_balance: {
        current_balance: totals.current.toNumber(),
        pending_activity: totals.pending.toNumber(),
        available_balance: totals.available.toNumber(),
      },
    };
  }
}
