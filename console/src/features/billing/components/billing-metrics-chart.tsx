import { EmptyState } from '../../../components/empty-state';
import { Loading } from '../../../components/loading';
import { useTimeSeriesChart } from '../../../components/use-time-series-chart';
import { useBillingMetrics } from '../api/balances';
import { QueryState } from '../../../components/query-state';

/** Billed usage and amounts per day (or the interval given), from the billing reports. */
export function BillingMetricsChart({ from, interval, meterId }: { from: string; interval: string; meterId?: string }) {
  // ECharts loads while the metrics are fetched.
  const TimeSeriesChart = useTimeSeriesChart();
  const metrics = useBillingMetrics({ from, interval, ...(meterId ? { meterId } : {}) });
  if (!metrics.isSuccess) return <QueryState query={metrics} loading="Loading billing metrics…" />;
  const buckets = metrics.data.buckets;
  if (buckets.every((bucket) => !bucket.metric)) return <EmptyState title="No billed usage in this range" />;
  const currencies = [...new Set(buckets.flatMap((bucket) => Object.keys(bucket.amounts)))];
  const series = [
    { name: 'Billed usage', points: buckets.map((bucket): [number, number | null] => [Date.parse(bucket.start), bucket.metric]) },
    ...currencies.map((currency) => ({
      name: `Amount (${currency.toUpperCase()})`,
      points: buckets.map((bucket): [number, number | null] => [Date.parse(bucket.start), bucket.amounts[currency] ?? 0]),
    })),
  ];
  if (!TimeSeriesChart) return <Loading label="Drawing the chart…" />;
  return <TimeSeriesChart series={series} label={`Billed usage and amounts per ${interval}`} />;
}
