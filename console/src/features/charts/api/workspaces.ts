import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';
import { useApi } from '../../../lib/api-context';
import { keysetPage, LIST_PAGE_SIZE, useKeysetPages } from '../../../lib/keyset-pages';
import { workspaceChart, type ChartSpec } from '../utils/chart-spec';

export interface Drawing {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly direction: string;
  readonly value: number;
}

export interface Workspace {
  readonly _id: string;
  readonly name: string;
  readonly chart: { view: string; url_query?: string; from?: string; to?: string; time_zone?: string; es_query?: Record<string, unknown> };
  readonly drawings?: readonly Drawing[];
  /** Present on a template: the fields a customer token binds, and whether the customer picks the time. */
  readonly template?: { dynamic_fields: string[]; dynamic_time?: boolean };
}

/** Saves a chart as a workspace (its `chart` says how to draw it again). */
export function useSaveWorkspace() {
  const api = useApi();
  return useMutation({
    mutationFn: async (input: { name: string; spec: ChartSpec }) =>
      dataOf(
        await api.POST('/~/workspaces', {
          body: { name: input.name, policy: { acl: [], resource: {} }, chart: workspaceChart(input.spec), drawings: [] },
        }),
      ) as Workspace,
  });
}

export function useWorkspace(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['workspaces', id],
    queryFn: async () => dataOf(await api.GET('/~/workspaces/{id}', { params: { path: { id } } })) as Workspace,
  });
}

/** The saved workspaces, a page at a time. */
export function useWorkspacePages() {
  const api = useApi();
  return useKeysetPages<Workspace>(['workspaces', 'pages'], async (beforeId) =>
    keysetPage(await api.GET('/~/workspaces', { params: { query: { take: LIST_PAGE_SIZE, ...(beforeId ? { before_id: beforeId } : {}) } } })),
  );
}

export function useRenameWorkspace() {
  return useApiMutation(['workspaces'], async (api, input: { id: string; name: string }) =>
    dataOf(await api.POST('/~/workspaces/{id}', { params: { path: { id: input.id } }, body: { name: input.name } })),
  );
}

/** Deletes a workspace; a dashboard still listing it shows its tile as gone, with Remove. */
export function useDeleteWorkspace() {
  const api = useApi();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => dataOf(await api.DELETE('/~/workspaces/{id}', { params: { path: { id } } })),
    onSuccess: () => Promise.all([cache.invalidateQueries({ queryKey: ['workspaces'] }), cache.invalidateQueries({ queryKey: ['dashboards'] })]),
  });
}
