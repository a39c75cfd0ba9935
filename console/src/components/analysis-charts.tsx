import { BarChart, FunnelChart as EchartsFunnel, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([BarChart, EchartsFunnel, LineChart, PieChart, GridComponent, TooltipComponent, CanvasRenderer]);

/**
 * The drawn forms of the analyses, by Apache ECharts (loaded lazily with React.lazy, so ECharts
 * stays out of the first page): a funnel of steps, a retention curve of shares per period, and the
 * totals of a field's top values.
 */

function useEchart(label: string, option: Record<string, unknown>) {
  const element = useRef<HTMLDivElement>(null);
  // Drawn again when what it shows changes, not when a render builds an equal option object.
  const shown = JSON.stringify(option);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `shown` stands for `option` by value
  useEffect(() => {
    if (!element.current) return undefined;
    const chart = echarts.init(element.current, undefined, { renderer: 'canvas' });
    chart.setOption({ animation: false, ...option });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `shown` is the option's content
  }, [shown]);
  return <div ref={element} className="chart" role="img" aria-label={label} />;
}

/** Steps as a funnel: each as wide as the share of those who entered it. */
export function FunnelChart({ steps, label }: { steps: readonly { name: string; value: number }[]; label: string }) {
  const first = steps[0]?.value ?? 0;
  return useEchart(label, {
    tooltip: { trigger: 'item', formatter: '{b}: {c}' },
    series: [
      {
        type: 'funnel',
        sort: 'none',
        left: '10%',
        width: '80%',
        min: 0,
        max: Math.max(first, 1),
        gap: 2,
        label: { show: true, position: 'inside', formatter: '{b}: {c}' },
        data: steps.map((step) => ({ name: step.name, value: step.value })),
      },
    ],
  });
}

/** Shares per period after the first, as a line (0–100 %); null where no cohort's period is over. */
export function RetentionCurve({ periods, label }: { periods: readonly { name: string; rate: number | null }[]; label: string }) {
  return useEchart(label, {
    tooltip: { trigger: 'axis', valueFormatter: (value: number) => `${value.toFixed(1)} %` },
    grid: { left: 48, right: 16, top: 16, bottom: 24, containLabel: true },
    xAxis: { type: 'category', data: periods.map((p) => p.name) },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value} %' } },
    series: [{ type: 'line', connectNulls: false, data: periods.map((p) => (p.rate === null ? null : Math.round(p.rate * 1000) / 10)) }],
  });
}

/** Totals of the top values: horizontal bars, largest on top, or a pie of their shares. */
export function TotalsChart({ totals, display, label }: { totals: readonly { name: string; value: number | null }[]; display: 'bar' | 'pie'; label: string }) {
  const data = totals.map((total) => ({ name: total.name, value: total.value ?? 0 }));
  const pie = {
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d} %)' },
    series: [{ type: 'pie', radius: ['30%', '65%'], label: { formatter: '{b}: {d} %' }, data }],
  };
  const bars = {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 16, right: 32, top: 8, bottom: 16, containLabel: true },
    xAxis: { type: 'value' },
    yAxis: { type: 'category', inverse: true, data: data.map((d) => d.name), axisLabel: { width: 220, overflow: 'truncate' } },
    series: [{ type: 'bar', data: data.map((d) => d.value), label: { show: true, position: 'right' } }],
  };
  return useEchart(label, display === 'pie' ? pie : bars);
}
