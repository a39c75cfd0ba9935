import { EmptyState } from '../../../components/empty-state';
import { Loading } from '../../../components/loading';
import { QueryState } from '../../../components/query-state';
import { useTimeSeriesChart } from '../../../components/use-time-series-chart';
import { useAlertPreview, type AlertPreviewRequest } from '../api/alerts';

/** The alert's metric over recent windows with its threshold drawn: a line for a dynamic threshold, a rule for a fixed one. */
export function AlertChart({ request }: { request: AlertPreviewRequest | undefined }) {
  // ECharts loads while the preview is computed.
  const TimeSeriesChart = useTimeSeriesChart();
  const preview = useAlertPreview(request);
  if (!request) return <p className="muted">Fill in the metric and the condition to see them charted.</p>;
  if (!preview.isSuccess) return <QueryState query={preview} loading="Measuring recent windows…" />;
  const points = preview.data.points;
  if (points.every((point) => point.value === null || point.value === 0)) return <EmptyState title="No events in these windows" />;
  const value = { name: request.metric, points: points.map((p): [number, number | null] => [Date.parse(p.time), p.value]) };
  const condition = request.condition;
  const series =
    condition.type === 'dynamic'
      ? [value, { name: 'threshold', points: points.map((p): [number, number | null] => [Date.parse(p.time), p.threshold]) }]
      : [value];
  const annotations = condition.type === 'static' ? [{ name: `threshold ${condition.threshold}`, direction: 'horizontal', value: condition.threshold }] : [];
  if (!TimeSeriesChart) return <Loading label="Drawing the chart…" />;
  return (
    <TimeSeriesChart series={series} annotations={annotations} label={`${request.metric} per ${request.window_minutes}-minute window, with the threshold`} />
  );
}
