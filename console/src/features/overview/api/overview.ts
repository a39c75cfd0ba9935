import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import { previousWindow } from '../../../lib/previous-period';
import { overviewBody, readOverview, type Overview } from '../utils/overview-body';

/** How often the overview reads its numbers again while it is open. */
export const OVERVIEW_REFRESH_MS = 30_000;

/** The overview of `from`–now and of the period before it, read again every OVERVIEW_REFRESH_MS. */
export function useOverview(from: string, timeZone: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['overview', from, timeZone],
    refetchInterval: OVERVIEW_REFRESH_MS,
    queryFn: async (): Promise<{ current: Overview; previous: Overview | undefined; at: number }> => {
      const before = previousWindow(from, 'now');
      const [current, previous] = await Promise.all([
        api.POST('/search/~/search/events', { params: { query: { from, to: 'now', time_zone: timeZone } }, body: overviewBody(from, timeZone) }),
        before
          ? api.POST('/search/~/search/events', { params: { query: { ...before, time_zone: timeZone } }, body: overviewBody(from, timeZone, true) })
          : undefined,
      ]);
      return { current: readOverview(dataOf(current)), previous: previous && readOverview(dataOf(previous)), at: Date.now() };
    },
  });
}
