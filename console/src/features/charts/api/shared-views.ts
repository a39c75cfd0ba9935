import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import type { components } from '../../../lib/api-schema';
import { storedChartSource, type ChartSource } from './chart-source';

export type SharedView = components['schemas']['SharedView'];
export type SharedViewToken = components['schemas']['SharedViewToken'];
export type SharedTimeRange = SharedView['time_ranges'][number];

/** What a signed link shows (no session needed). */
export function useSharedView(token: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['shared-views', token],
    queryFn: async () => dataOf(await api.GET('/public/views/{token}', { params: { path: { token } } })),
    retry: false,
  });
}

/**
 * A shared workspace's answers: its stored query, run by the service over the allowed range picked
 * (the spec only says how to draw the answer; the viewer sends no query).
 */
export function sharedChartSource(api: ReturnType<typeof useApi>, token: string, workspaceId: string, range: number): ChartSource {
  return storedChartSource(
    ['shared', token, workspaceId, range],
    async () =>
      dataOf(
        await api.GET('/public/views/{token}/workspaces/{workspaceId}/data', { params: { path: { token, workspaceId }, query: { range: String(range) } } }),
      ),
    'shared chart',
  );
}

type Target = { kind: 'workspace' | 'dashboard'; id: string };

/** The live signed links of a workspace or dashboard. */
export function useSignedTokens(target: Target) {
  const api = useApi();
  return useQuery({
    queryKey: ['signed-tokens', target.kind, target.id],
    queryFn: async () =>
      target.kind === 'workspace'
        ? dataOf(await api.GET('/~/workspaces/{id}/signed_tokens', { params: { path: { id: target.id } } }))
        : dataOf(await api.GET('/~/dashboards/{dashId}/signed_tokens', { params: { path: { dashId: target.id } } })),
  });
}

export interface NewSignedToken {
  readonly time_ranges: SharedTimeRange[];
  readonly expires_in: number;
  readonly description?: string;
}

/** Mints a link; its token is in this answer only. */
export function useCreateSignedToken(target: Target) {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (body: NewSignedToken) =>
      target.kind === 'workspace'
        ? dataOf(await api.POST('/~/workspaces/{id}/signed_tokens', { params: { path: { id: target.id } }, body }))
        : dataOf(await api.POST('/~/dashboards/{dashId}/signed_tokens', { params: { path: { dashId: target.id } }, body })),
    onSuccess: () => queries.invalidateQueries({ queryKey: ['signed-tokens', target.kind, target.id] }),
  });
}

export function useRevokeSignedToken(target: Target) {
  const api = useApi();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (tokenId: string) => {
      const result =
        target.kind === 'workspace'
          ? await api.DELETE('/~/workspaces/{id}/signed_tokens/{tokenId}', { params: { path: { id: target.id, tokenId } } })
          : await api.DELETE('/~/dashboards/{dashId}/signed_tokens/{tokenId}', { params: { path: { dashId: target.id, tokenId } } });
      dataOf(result);
    },
    onSuccess: () => queries.invalidateQueries({ queryKey: ['signed-tokens', target.kind, target.id] }),
  });
}
