import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import { chartBody, seriesOf, singleValue, windowOf, type ChartSpec, type Series } from '../utils/chart-spec';

export type ChartData = { readonly kind: 'series'; readonly series: Series[] } | { readonly kind: 'value'; readonly value: number | null };

/** What a chart draws, from one search of the events. */
export function useChartData(spec: ChartSpec) {
  const api = useApi();
  return useQuery({
    queryKey: ['charts', 'data', spec],
    queryFn: async (): Promise<ChartData> => {
      const answer = dataOf(await api.POST('/search/~/search/events', {
        params: windowOf(spec),
        body: chartBody(spec) as never,
      }));
      if (spec.view === 'metric') return { kind: 'value', value: singleValue(spec, answer) };
      return { kind: 'series', series: seriesOf(spec, answer.aggregations) };
    },
  });
}
