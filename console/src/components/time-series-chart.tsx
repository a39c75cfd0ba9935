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
}: {
  series: readonly Series[];
  annotations?: readonly Annotation[];
  label: string;
  stacked?: boolean;
}) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!element.current) return undefined;
    const chart = echarts.init(element.current, undefined, { renderer: 'canvas' });
    const markLines = annotations.map((a) => (a.direction === 'vertical' ? { name: a.name, xAxis: a.value } : { name: a.name, yAxis: a.value }));
    chart.setOption({
      animation: false,
      tooltip: { trigger: 'axis' },
      legend: { show: series.length > 1, type: 'scroll', bottom: 0 },
      grid: { left: 48, right: 16, top: 16, bottom: series.length > 1 ? 40 : 24, containLabel: true },
      xAxis: { type: 'time' },
      yAxis: { type: 'value' },
      series: series.map((s, i) => ({
        name: s.name,
        type: stacked ? 'bar' : 'line',
        ...(stacked ? { stack: 'total' } : {}),
        // Markers only where a line has few points (a lone bucket would otherwise draw nothing).
        showSymbol: s.points.filter(([, value]) => value !== null && value !== 0).length < 40,
        connectNulls: false,
        data: s.points,
        ...(i === 0 && markLines.length > 0 ? { markLine: { symbol: 'none', label: { formatter: '{b}', position: 'insideEndTop' }, data: markLines } } : {}),
      })),
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [series, annotations, stacked]);
  return <div ref={element} className="chart" role="img" aria-label={label} data-series={series.length} />;
}
