import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { Drawing } from '../api/workspaces';
import type { Series } from '../utils/chart-spec';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, MarkLineComponent, CanvasRenderer]);

/**
 * Series over time, drawn by Apache ECharts: lines, or bars stacked per interval (segmentation).
 * Drawings (annotations) are lines across the chart: `horizontal` at a value, `vertical` at a time (epoch ms).
 */
export default function TimeSeriesChart({ series, drawings = [], label, stacked = false }: { series: readonly Series[]; drawings?: readonly Drawing[]; label: string; stacked?: boolean }) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!element.current) return undefined;
    const chart = echarts.init(element.current, undefined, { renderer: 'canvas' });
    const markLines = drawings.map((d) => (d.direction === 'vertical' ? { name: d.name, xAxis: d.value } : { name: d.name, yAxis: d.value }));
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
        ...(i === 0 && markLines.length > 0 ? { markLine: { symbol: 'none', label: { formatter: '{b}' }, data: markLines } } : {}),
      })),
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [series, drawings, stacked]);
  return <div ref={element} className="chart" role="img" aria-label={label} data-series={series.length} />;
}
