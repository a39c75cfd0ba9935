import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';
import { useApi } from '../../../lib/api-context';
import type { ApiSchema } from '../../../lib/api-types';
import { keysetPage, LIST_PAGE_SIZE, useKeysetPages } from '../../../lib/keyset-pages';

/** An alert rule as stored, the body that creates one, and what the preview and history answer (the OpenAPI document's types). */
export type AlertRule = ApiSchema<'AlertRule'>;
export type AlertRuleInput = ApiSchema<'AlertRuleCreate'>;
export type AlertPreviewRequest = ApiSchema<'AlertPreviewRequest'>;
export type AlertEvent = ApiSchema<'AlertEvent'>;

export function useAlertPages() {
  const api = useApi();
  return useKeysetPages<AlertRule>(['alerts', 'pages'], async (beforeId) =>
    keysetPage(await api.GET('/~/alerts', { params: { query: { take: LIST_PAGE_SIZE, ...(beforeId ? { before_id: beforeId } : {}) } } })),
  );
}

export function useAlert(id: string) {
  const api = useApi();
  return useQuery({ queryKey: ['alerts', id], queryFn: async () => dataOf(await api.GET('/~/alerts/{id}', { params: { path: { id } } })) });
}

/** Creates an alert, or replaces one's fields when `id` is given; the API names what it refuses. */
export function useSaveAlert() {
  return useApiMutation(['alerts'], async (api, input: { id?: string; alert: AlertRuleInput }) =>
    input.id
      ? dataOf(await api.POST('/~/alerts/{id}', { params: { path: { id: input.id } }, body: input.alert }))
      : dataOf(await api.POST('/~/alerts', { body: input.alert })),
  );
}

export function useDeleteAlert() {
  return useApiMutation(['alerts'], async (api, id: string) => dataOf(await api.DELETE('/~/alerts/{id}', { params: { path: { id } } })));
}

/** "Run now": evaluates the alert at once; its answer has each series' value and threshold now. */
export function useEvaluateAlert(id: string) {
  return useApiMutation(['alerts', id], async (api) => dataOf(await api.POST('/~/alerts/{id}/evaluate', { params: { path: { id } } })));
}

/** The alert's firings and resolves, newest first (the 100 latest), refreshed every 30 s while shown. */
export function useAlertHistory(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['alerts', id, 'history'],
    refetchInterval: 30_000,
    queryFn: async () => dataOf(await api.GET('/~/alerts/{id}/history', { params: { path: { id }, query: { take: 100 } } })),
  });
}

/** The metric and its threshold over recent windows, for the fields as they are (undefined: nothing to preview yet). */
export function useAlertPreview(request: AlertPreviewRequest | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: ['alerts', 'preview', request],
    enabled: request !== undefined,
    queryFn: async () => (request ? dataOf(await api.POST('/~/alerts/preview', { body: request })) : { points: [] }),
  });
}

/** The app's webhook channels (billing channels), to pick from. */
export function useWebhookChannels() {
  const api = useApi();
  return useQuery({
    queryKey: ['alerts', 'channels'],
    queryFn: async () => dataOf(await api.GET('/~/billing/channels', { params: { query: { take: 100 } } })),
  });
}

/** The app's governance rules with model quota, for a quota alert to watch. */
export function useQuotaRules() {
  const api = useApi();
  return useQuery({
    queryKey: ['alerts', 'quota-rules'],
    queryFn: async () => (dataOf(await api.GET('/~/governance/rules', { params: { query: { take: 100 } } })) ?? []).filter((rule) => rule.model === 'quota'),
  });
}
