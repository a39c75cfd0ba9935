import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import { funnelBody, retentionBody } from '../utils/analysis-spec';
import { windowOf, type ChartSpec } from '../utils/chart-spec';

/** A funnel view's answer: per step, who entered and converted. */
export function useFunnel(spec: ChartSpec) {
  const api = useApi();
  return useQuery({
    queryKey: ['charts', 'funnel', spec],
    queryFn: async () => dataOf(await api.POST('/search/~/funnels/events', { params: windowOf(spec), body: funnelBody(spec.analysis) as never })),
  });
}

/** A retention view's answer: cohorts by first period and their returns. */
export function useRetention(spec: ChartSpec) {
  const api = useApi();
  return useQuery({
    queryKey: ['charts', 'retention', spec],
    queryFn: async () => dataOf(await api.POST('/search/~/retention/events', { params: windowOf(spec), body: retentionBody(spec.analysis) as never })),
  });
}
