import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import type { components } from '../../../lib/api-schema';
import { useApiMutation } from '../../../lib/api-mutation';
import { storedChartSource, type ChartSource } from './chart-source';

export type CustomerView = components['schemas']['CustomerView'];
export type CustomerToken = components['schemas']['CustomerToken'];
export type CustomerTokenInput = components['schemas']['CustomerTokenCreate'];
export type TemplateSettings = { dynamic_fields: string[]; dynamic_time: boolean } | null;

/** What a customer token opens (no session needed). */
export function useCustomerView(token: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['customer', token, 'view'],
    queryFn: async () => dataOf(await api.GET('/public/customers/{token}', { params: { path: { token } } })),
    retry: false,
  });
}

/** A template's answers for the customer: its stored query, its dynamic fields bound by the service to the token's values. */
export function customerChartSource(api: ReturnType<typeof useApi>, token: string, workspaceId: string, range: number): ChartSource {
  return storedChartSource(
    ['customer', token, workspaceId, range],
    async () =>
      dataOf(
        await api.GET('/public/customers/{token}/workspaces/{workspaceId}/data', { params: { path: { token, workspaceId }, query: { range: String(range) } } }),
      ),
    'template',
  );
}

/** Marks a workspace as a template (its dynamic fields and whether its time is dynamic), or unmarks it (null). */
export function useSaveTemplate(workspaceId: string) {
  return useApiMutation(['workspaces', workspaceId], async (api, template: TemplateSettings) =>
    dataOf(await api.POST('/~/workspaces/{id}', { params: { path: { id: workspaceId } }, body: { template } })),
  );
}

/** Mints a customer token (server to server in production; here, to try a template as one customer). */
export function useMintCustomerToken() {
  return useApiMutation(['customer-tokens'], async (api, input: CustomerTokenInput) => dataOf(await api.POST('/~/customer_tokens', { body: input })));
}
