import { useQuery } from '@tanstack/react-query';
import type { ChartSpec } from '../utils/chart-spec';
import { useChartSource } from './chart-source';

/** A funnel view's answer: per step, who entered and converted. */
export function useFunnel(spec: ChartSpec) {
  const source = useChartSource();
  return useQuery({ queryKey: ['charts', 'funnel', ...source.key, spec], queryFn: () => source.funnel(spec) });
}

/** A retention view's answer: cohorts by first period and their returns. */
export function useRetention(spec: ChartSpec) {
  const source = useChartSource();
  return useQuery({ queryKey: ['charts', 'retention', ...source.key, spec], queryFn: () => source.retention(spec) });
}
