import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import { eventHitOf } from './event-types';

/** One event by id; `eventTime` (when the link carries it) lets the API look in one month's index. */
export function useEvent(eventId: string, eventTime?: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['events', 'one', eventId, eventTime],
    queryFn: async () =>
      eventHitOf(
        dataOf(
          await api.GET('/search/~/events/{id}', {
            params: { path: { id: eventId }, query: eventTime ? { event_time: eventTime } : {} },
          }),
        ),
      ),
  });
}
