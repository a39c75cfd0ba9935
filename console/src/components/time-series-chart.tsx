import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { Annotation, Series } from './chart-types';

export type { Annotation, Series };

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, MarkLineComponent, CanvasRenderer]);

/**
 * Series over time, drawn by Apache ECharts: lines, or bars stacked per interval. Loaded lazily
 * (React.lazy) by whoever draws one, so ECharts stays out of the first page's JavaScript.
 */
export default function TimeSeriesChart({
  series,
  annotations = [],
  label,
  stacked = false,
  daily = false,
}: {
  series: readonly Series[];
  annotations?: readonly Annotation[];
  label: string;
  stacked?: boolean;
  /**
   * One point a UTC day: each day is a slot of its own on the axis, so a bar is one day wide however
   * few days there are (on a time axis ECharts widened a lone day's bar to three days).
   */
  daily?: boolean;
}) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!element.current) return undefined;
    const chart = echarts.init(element.current, undefined, { renderer: 'canvas' });
    const days = daily ? [...new Set(series.flatMap((s) => s.points.map(([at]) => at)))].sort((a, b) => a - b) : [];
    const markLines = annotations.map((a) => (a.direction === 'vertical' ? { name: a.name, xAxis: a.value } : { name: a.name, yAxis: a.value }));
    chart.setOption({
      animation: false,
      tooltip: { trigger: 'axis' },
      legend: { show: series.length > 1, type: 'scroll', bottom: 0 },
      grid: { left: 48, right: 16, top: 16, bottom: series.length > 1 ? 40 : 24, containLabel: true },
      xAxis: daily ? { type: 'category', data: days.map(dayLabel) } : { type: 'time' },
      yAxis: { type: 'value' },
      series: series.map((s, i) => ({
        name: s.name,
        type: stacked ? 'bar' : 'line',
        ...(stacked ? { stack: 'total' } : {}),
        // Markers only where a line has few points (a lone bucket would otherwise draw nothing).
        showSymbol: s.points.filter(([, value]) => value !== null && value !== 0).length < 40,
        connectNulls: false,
        ...(s.dashed ? { lineStyle: { type: 'dashed', opacity: 0.7 }, itemStyle: { opacity: 0.7 } } : {}),
        data: daily ? onDays(s, days) : s.points,
        // A day's slot fills the width while there are few days: a bar no wider than this still reads as one day.
        ...(daily ? { barMaxWidth: 48 } : {}),
        ...(i === 0 && markLines.length > 0 ? { markLine: { symbol: 'none', label: { formatter: '{b}', position: 'insideEndTop' }, data: markLines } } : {}),
      })),
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [series, annotations, stacked, daily]);
  return <div ref={element} className="chart" role="img" aria-label={label} data-series={series.length} />;
}

const dayLabel = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** A series' values on the chart's days (every series' days together), null where it has none. */
function onDays(s: Series, days: readonly number[]): (number | null)[] {
  const byDay = new Map(s.points);
  return days.map((day) => byDay.get(day) ?? null);
}
