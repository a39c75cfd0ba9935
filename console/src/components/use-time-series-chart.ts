import { useEffect, useState, type ComponentType } from 'react';
import { moduleLoader } from '../lib/module-loader';
import type TimeSeriesChart from './time-series-chart';

type ChartComponent = ComponentType<Parameters<typeof TimeSeriesChart>[0]>;

const timeSeriesChart = moduleLoader<ChartComponent>(() => import('./time-series-chart').then((module) => module.default));

/** Starts loading ECharts (its own chunk, kept out of the first page); the same promise for every caller. */
export function loadTimeSeriesChart(): Promise<ChartComponent> {
  return timeSeriesChart.load();
}

/**
 * The chart component once ECharts has loaded, else undefined. Loading starts when a chart is first
 * asked for, so it runs while the chart's search does; and once loaded the chart is drawn at once
 * (no Suspense fallback, which React keeps on screen for at least 300 ms).
 */
export function useTimeSeriesChart(): ChartComponent | undefined {
  const [component, setComponent] = useState<ChartComponent | undefined>(() => timeSeriesChart.loaded);
  useEffect(() => {
    if (component) return undefined;
    let live = true;
    void loadTimeSeriesChart().then((chart) => {
      if (live) setComponent(() => chart);
    });
    return () => {
      live = false;
    };
  }, [component]);
  return component;
}
