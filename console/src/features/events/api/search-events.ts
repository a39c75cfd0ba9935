import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { dataOf, type ManagementClient } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import { useAppTimeZone } from '../../../lib/app-time-zone';
import { PAGE_SIZE, streamBody, type EventFilters } from '../utils/stream-query';
import { eventHitOf, type EventHit } from './event-types';

/** How often the newest page of the stream is read again while it is live. */
export const LIVE_REFRESH_MS = 2_000;

interface EventPage {
  readonly hits: EventHit[];
  readonly total: number;
}

export async function searchEvents(api: ManagementClient, filters: EventFilters, timeZone: string, after?: readonly unknown[]): Promise<EventPage> {
  const answer = dataOf(
    await api.POST('/search/~/search/events', {
      // Dates typed without an offset mean the app's time zone.
      params: { query: { from: filters.from, to: filters.to, time_zone: timeZone, ...(filters.voided ? { voided: filters.voided } : {}) } },
      body: streamBody(filters, after),
    }),
  );
  // The document's _source is the event as stored: the console reads the fields it shows (EventSource).
  return { hits: answer.hits.hits.map(eventHitOf), total: answer.hits.total };
}

/**
 * The event stream: newest first, pages of 50 reached with search_after (keyset paging), and the
 * pages shown read again every LIVE_REFRESH_MS while `live`, so new events appear without a reload.
 */
export function useEventStream(filters: EventFilters, live: boolean) {
  const api = useApi();
  const timeZone = useAppTimeZone();
  return useInfiniteQuery({
    queryKey: ['events', 'stream', filters, timeZone],
    queryFn: ({ pageParam }) => searchEvents(api, filters, timeZone, pageParam),
    initialPageParam: undefined as readonly unknown[] | undefined,
    getNextPageParam: (last) => (last.hits.length < PAGE_SIZE ? undefined : last.hits[last.hits.length - 1]?.sort),
    refetchInterval: live ? LIVE_REFRESH_MS : false,
    placeholderData: keepPreviousData,
  });
}
