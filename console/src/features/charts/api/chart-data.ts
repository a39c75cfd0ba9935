import { useQuery } from '@tanstack/react-query';
import { seriesOf, singleValue, totalsOf, type ChartSpec, type Series, type Total } from '../utils/chart-spec';
import { useChartSource } from './chart-source';

export type ChartData =
  | { readonly kind: 'series'; readonly series: Series[] }
  | { readonly kind: 'value'; readonly value: number | null }
  | { readonly kind: 'totals'; readonly totals: Total[] };

/** What a chart draws, from one search of the events (run only while `enabled`). */
export function useChartData(spec: ChartSpec, enabled = true) {
  const source = useChartSource();
  return useQuery({
    enabled,
    queryKey: ['charts', 'data', ...source.key, spec],
    queryFn: async (): Promise<ChartData> => {
      const answer = await source.search(spec);
      if (spec.view === 'metric') return { kind: 'value', value: singleValue(spec, answer) };
      if (spec.view === 'top_values') return { kind: 'totals', totals: totalsOf(spec, answer) };
      return { kind: 'series', series: seriesOf(spec, answer.aggregations) };
    },
  });
}
