import { useQuery } from '@tanstack/react-query';
import { dataOf, type ManagementClient } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';
import type { components } from '../../../lib/api-schema';
import { useApi } from '../../../lib/api-context';
import { keysetPage, LIST_PAGE_SIZE, useKeysetPages } from '../../../lib/keyset-pages';

/** An app as `GET /~/apps` shows it (its id is `id`). */
export interface App {
  readonly id: string;
  readonly name: string;
  readonly time_zone?: string;
}

/** The organisation's apps, a page at a time. */
export function useAppPages() {
  const api = useApi();
  return useKeysetPages<App>(['apps', 'pages'], async (beforeId) =>
    keysetPage(await api.GET('/~/apps', { params: { query: { take: LIST_PAGE_SIZE, ...(beforeId ? { before_id: beforeId } : {}) } } })),
  );
}

/** The collector application id of the token's app: what SDKs send as their application id. */
export function useCollectorApplicationId() {
  const api = useApi();
  return useQuery({
    queryKey: ['apps', 'collector-application-id'],
    queryFn: async () => (dataOf(await api.GET('/~/oauth/access_tokens', { params: { query: { target: 'collector' } } })) as { token: string }).token,
  });
}

export interface MintedToken {
  readonly _id: string;
  readonly token: string;
}

/** Mints a management token for scripts: the scopes asked for (within the caller's), until the expiration. */
export function useMintToken() {
  return useApiMutation(
    ['tokens'],
    async (api, input: { scopes: readonly string[]; expiration?: string }) =>
      dataOf(
        await api.GET('/~/oauth/access_tokens', {
          params: { query: { target: 'management', scope: input.scopes.join(' '), ...(input.expiration ? { expiration: input.expiration } : {}) } },
        }),
      ) as MintedToken,
  );
}

/** Revokes a token by its id: it is refused from the next request on. */
export function useRevokeToken() {
  return useApiMutation(['tokens'], async (api, tokenId: string) => {
    dataOf(await api.DELETE('/~/oauth/access_tokens/{tokenId}', { params: { path: { tokenId } } }));
    return tokenId;
  });
}

/** A token the signed-in user holds, as listed (never its text). */
export type IssuedToken = components['schemas']['IssuedToken'];

/** The signed-in user's tokens still usable, newest first. */
export function useIssuedTokens() {
  const api = useApi();
  return useQuery({
    queryKey: ['tokens'],
    queryFn: async () => dataOf(await api.GET('/~/oauth/access_tokens/issued')),
  });
}

const readApp = async (api: ManagementClient, appId: string) => dataOf(await api.GET('/~/apps/{id}', { params: { path: { id: appId } } }));

/** One read of the app for every form of its page, each taking its own part. */
function useAppPart<Part>(appId: string, part: (app: Awaited<ReturnType<typeof readApp>>) => Part) {
  const api = useApi();
  return useQuery({ queryKey: ['apps', appId], queryFn: () => readApp(api, appId), select: part });
}

/** The route templates of an app (`/handles/:handle`), tried before ids are found in paths automatically. */
export function useRouteTemplates(appId: string) {
  return useAppPart(appId, (app) => app.route_templates);
}

export function useSaveRouteTemplates(appId: string) {
  return useApiMutation(
    ['apps', appId],
    async (api, templates: string[]) =>
      dataOf(await api.POST('/~/apps/{id}', { params: { path: { id: appId } }, body: { route_templates: templates } })).route_templates,
  );
}

/** How many days the app keeps its events (null: forever). */
export function useDataRetention(appId: string) {
  return useAppPart(appId, (app) => app.data_retention_days ?? null);
}

export function useSaveDataRetention(appId: string) {
  return useApiMutation(
    ['apps', appId],
    async (api, days: number | null) =>
      dataOf(await api.POST('/~/apps/{id}', { params: { path: { id: appId } }, body: { data_retention_days: days } })).data_retention_days ?? null,
  );
}

/** The ingest backlog (records acknowledged and not yet searchable), read again every 5 s. */
export function useIngestBacklog() {
  const api = useApi();
  return useQuery({
    queryKey: ['apps', 'ingest-backlog'],
    refetchInterval: 5_000,
    queryFn: async () => dataOf(await api.GET('/~/ingest/backlog')),
  });
}
