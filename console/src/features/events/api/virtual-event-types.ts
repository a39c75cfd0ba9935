import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';
import type { components } from '../../../lib/api-schema';
import { useApi } from '../../../lib/api-context';

/** A virtual event type: a name for the events a query matches, usable in every filter as `virtual_event_types`. */
export type VirtualEventType = components['schemas']['VirtualEventType'];
export type VirtualEventTypeInput = components['schemas']['VirtualEventTypeCreate'];

const TYPES = ['events', 'virtual-types'] as const;

export function useVirtualEventTypes() {
  const api = useApi();
  return useQuery({
    queryKey: TYPES,
    queryFn: async () => dataOf(await api.GET('/~/virtual_eventtypes', { params: { query: { take: 100 } } })),
  });
}

export function useSaveVirtualEventType() {
  return useApiMutation(['events'], async (api, input: { id?: string; type: VirtualEventTypeInput }) =>
    input.id
      ? dataOf(await api.POST('/~/virtual_eventtypes/{id}', { params: { path: { id: input.id } }, body: input.type }))
      : dataOf(await api.POST('/~/virtual_eventtypes', { body: input.type })),
  );
}

export function useDeleteVirtualEventType() {
  return useApiMutation(['events'], async (api, id: string) => dataOf(await api.DELETE('/~/virtual_eventtypes/{id}', { params: { path: { id } } })));
}

/** How many events of the last 7 days a query matches (the count a type would have), while it is typed. */
export function useMatchingEventCount(query: Record<string, unknown> | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: ['events', 'count', query],
    enabled: query !== undefined,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      dataOf(
        await api.POST('/search/~/search/events', {
          params: { query: { from: '-7d', to: 'now' } },
          body: { query: query ?? {}, size: 0, track_total_hits: true },
        }),
      ).hits.total,
  });
}
