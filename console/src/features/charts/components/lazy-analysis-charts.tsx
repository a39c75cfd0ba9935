import { lazy } from 'react';

/** The analysis charts, with ECharts in their own chunk (not in the first page's JavaScript). */
export const LazyFunnelChart = lazy(() => import('../../../components/analysis-charts').then((module) => ({ default: module.FunnelChart })));
export const LazyRetentionCurve = lazy(() => import('../../../components/analysis-charts').then((module) => ({ default: module.RetentionCurve })));
export const LazyTotalsChart = lazy(() => import('../../../components/analysis-charts').then((module) => ({ default: module.TotalsChart })));
