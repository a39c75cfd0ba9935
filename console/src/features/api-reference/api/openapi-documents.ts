import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import { outlineOf } from '../utils/openapi-outline';

export type DocumentedApi = 'management' | 'collector';

/** The OpenAPI document an API serves at /openapi.json (no credentials needed), as the reference outlines it. */
export function useApiOutline(which: DocumentedApi, collectorUrl: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: ['api-reference', which, collectorUrl],
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      if (which === 'management') return outlineOf(dataOf(await api.GET('/openapi.json')));
      const response = await fetch(`${collectorUrl ?? ''}/openapi.json`, { headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`The collector answered ${response.status} for its OpenAPI document`);
      const document: unknown = await response.json();
      return outlineOf(document);
    },
  });
}
