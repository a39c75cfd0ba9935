import type { ApiSchema } from '../../../lib/api-types';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';
import { useApi } from '../../../lib/api-context';
import { keysetPage, LIST_PAGE_SIZE, useKeysetPages } from '../../../lib/keyset-pages';

/** A dashboard: its workspaces laid out in rows, in order. */
export type Dashboard = ApiSchema<'Dashboard'>;

export function useDashboards() {
  const api = useApi();
  return useQuery({
    queryKey: ['dashboards'],
    queryFn: async () => dataOf(await api.GET('/~/dashboards', { params: { query: { take: 100 } } })),
  });
}

/** The dashboards, a page at a time. */
export function useDashboardPages() {
  const api = useApi();
  return useKeysetPages<Dashboard>(['dashboards', 'pages'], async (beforeId) =>
    keysetPage(await api.GET('/~/dashboards', { params: { query: { take: LIST_PAGE_SIZE, ...(beforeId ? { before_id: beforeId } : {}) } } })),
  );
}

export function useDashboard(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['dashboards', id],
    queryFn: async () => dataOf(await api.GET('/~/dashboards/{dashId}', { params: { path: { dashId: id } } })),
  });
}

export function useCreateDashboard() {
  return useApiMutation(['dashboards'], async (api, name: string) => dataOf(await api.POST('/~/dashboards', { body: { name } })));
}

/** Adds a workspace to a dashboard, as a row of its own at the end. */
export function useAddToDashboard() {
  const api = useApi();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: async (input: { dashboardId: string; workspaceId: string }) => {
      const current = dataOf(await api.GET('/~/dashboards/{dashId}', { params: { path: { dashId: input.dashboardId } } }));
      const rows = [...current.workspace_ids.map((row) => [...row]), [input.workspaceId]];
      return dataOf(await api.POST('/~/dashboards/{dashId}', { params: { path: { dashId: input.dashboardId } }, body: { workspace_ids: rows } }));
    },
    onSuccess: (_, input) => cache.invalidateQueries({ queryKey: ['dashboards', input.dashboardId] }),
  });
}

type DashboardTile = NonNullable<Dashboard['layout']>[number];

/**
 * Renames a dashboard or lays its workspaces out again on the grid: the layout sent alone also sets
 * the rows (a workspace left out leaves the dashboard).
 */
export function useUpdateDashboard() {
  return useApiMutation(['dashboards'], async (api, input: { id: string; name?: string; layout?: readonly DashboardTile[] }) =>
    dataOf(
      await api.POST('/~/dashboards/{dashId}', {
        params: { path: { dashId: input.id } },
        body: {
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.layout === undefined ? {} : { layout: [...input.layout] }),
        },
      }),
    ),
  );
}

export function useDeleteDashboard() {
  return useApiMutation(['dashboards'], async (api, id: string) => dataOf(await api.DELETE('/~/dashboards/{dashId}', { params: { path: { dashId: id } } })));
}
