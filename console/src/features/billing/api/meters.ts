import type { ApiSchema } from '../../../lib/api-types';
import { useMutation, useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';
import type { components } from '../../../lib/api-schema';
import { useApi } from '../../../lib/api-context';
import { isJsonObject } from '../../../lib/json-object';

export type Provider = 'webhook' | 'stripe' | 'chargebee' | 'recurly' | 'zuora';

/** A meter as the editor holds it; `billing_plan.params` as the API takes it. */
export interface MeterInput {
  readonly name: string;
  readonly slug: string;
  readonly status: 'active' | 'inactive';
  readonly es_query: Record<string, unknown>;
  readonly billing_plan: { provider_slug: Provider; params: Record<string, unknown> };
}

export interface StoredMeter extends MeterInput {
  readonly _id: string;
}

/** A meter as the editor holds it: the API answers its query as JSON text; the console works with the object. */
function meterOf(stored: ApiSchema<'BillingMeter'>): StoredMeter {
  // Text per the document; an object is taken as it is.
  const query: unknown = typeof stored.es_query === 'string' ? JSON.parse(stored.es_query) : stored.es_query;
  const { _id, name, slug, status, billing_plan } = stored;
  return {
    _id,
    name,
    slug,
    status,
    billing_plan: { provider_slug: billing_plan.provider_slug, params: billing_plan.params ?? {} },
    es_query: isJsonObject(query) ? query : {},
  };
}

export function useMeter(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['billing', 'meters', id],
    queryFn: async () => meterOf(dataOf(await api.GET('/~/billing/meters/{meterId}', { params: { path: { meterId: id } } }))),
  });
}

/** Creates a meter, or updates one when `id` is given; the API checks the query and the plan and names what it refuses. */
export function useSaveMeter() {
  return useApiMutation(['billing', 'meters'], async (api, input: { id?: string; meter: MeterInput }) => {
    const result = input.id
      ? await api.POST('/~/billing/meters/{meterId}', { params: { path: { meterId: input.id } }, body: input.meter })
      : await api.POST('/~/billing/meters', { body: input.meter });
    return meterOf(dataOf(result));
  });
}

export interface NamedItem {
  readonly id: string;
  readonly name: string;
}

/** Webhook channels and catalog plans a webhook meter can name. */
export function useMeterChoices() {
  const api = useApi();
  return useQuery({
    queryKey: ['billing', 'meter-choices'],
    queryFn: async () => {
      const [channels, plans] = await Promise.all([
        api.GET('/~/billing/channels', { params: { query: { take: 100 } } }),
        api.GET('/~/billing/catalog/plans', { params: { query: {} } }),
      ]);
      const named = (items: unknown) =>
        (items as { _id?: string; id?: string; name: string }[]).map((item) => ({ id: String(item.id ?? item._id), name: item.name }));
      return { channels: named(dataOf(channels)), plans: named(dataOf(plans)) };
    },
  });
}

/** What a meter bills: the ids subscriptions must carry, matching subscriptions, warnings, usage per subscription. */
export type MeterPreview = components['schemas']['MeterPreview'];

/** The preview of a saved meter (its page shows it before anything is changed). */
export function useSavedMeterPreview(id: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: ['billing', 'meters', id, 'preview'],
    enabled: id !== undefined,
    queryFn: async () => dataOf(await api.GET('/~/billing/meters/{meterId}/preview', { params: { path: { meterId: id ?? '' } } })),
  });
}

/** Previews the meter as the editor holds it, without saving it. */
export function usePreviewMeter() {
  const api = useApi();
  return useMutation({
    mutationFn: async (meter: MeterInput) => dataOf(await api.POST('/~/billing/meters/preview', { body: meter })),
  });
}
