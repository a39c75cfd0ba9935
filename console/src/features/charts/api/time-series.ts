import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import { seriesOf, timeSeriesBody, type ChartSpec, type Series } from '../utils/chart-spec';

/** A chart's series, from one search of the events (size 0, a date histogram). */
export function useTimeSeries(spec: ChartSpec) {
  const api = useApi();
  return useQuery({
    queryKey: ['charts', 'time-series', spec],
    queryFn: async (): Promise<Series[]> => {
      const answer = dataOf(await api.POST('/search/~/search/events', {
        params: { query: { from: spec.from, to: spec.to, time_zone: spec.timeZone } },
        body: timeSeriesBody(spec) as never,
      })) as { aggregations?: unknown };
      return seriesOf(spec, answer.aggregations);
    },
  });
}
