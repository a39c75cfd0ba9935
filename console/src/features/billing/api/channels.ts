import { useMutation, useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';
import type { components } from '../../../lib/api-schema';
import { useApi } from '../../../lib/api-context';

/** A webhook channel: where webhook meters deliver signed usage reports. Its secret is shown once. */
export type Channel = components['schemas']['Channel'];
export type ChannelCreate = components['schemas']['ChannelCreate'];
export type ChannelUpdate = components['schemas']['ChannelUpdate'];

const CHANNELS = ['billing', 'channels'] as const;

export function useChannels() {
  const api = useApi();
  return useQuery({
    queryKey: CHANNELS,
    queryFn: async () => dataOf(await api.GET('/~/billing/channels', { params: { query: { take: 100 } } })),
  });
}

/** Creates a channel, or updates one when `id` is given; the answer carries a new secret once. */
export function useSaveChannel() {
  return useApiMutation(['billing'], async (api, input: { id: string; update: ChannelUpdate } | { create: ChannelCreate }) =>
    'create' in input
      ? dataOf(await api.POST('/~/billing/channels', { body: input.create }))
      : dataOf(await api.POST('/~/billing/channels/{channelId}', { params: { path: { channelId: input.id } }, body: input.update })),
  );
}

export function useDeleteChannel() {
  return useApiMutation(['billing'], async (api, id: string) =>
    dataOf(await api.DELETE('/~/billing/channels/{channelId}', { params: { path: { channelId: id } } })),
  );
}

/** Sends a signed test event to a meter's channels, as usage deliveries are sent. */
export function useTestChannels() {
  const api = useApi();
  return useMutation({
    mutationFn: async (meterId: string) =>
      dataOf(await api.POST('/~/billing/meters/{meterId}/webhooks/channels/test', { params: { path: { meterId } }, body: {} })),
  });
}
