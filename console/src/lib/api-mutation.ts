import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { ManagementClient } from './api-client';
import { useApi } from './api-context';

/**
 * A write through the management API that, once it succeeds, marks the cached answers under
 * `invalidates` stale, so every list and detail showing them is read again.
 */
export function useApiMutation<Input, Output>(invalidates: QueryKey, write: (api: ManagementClient, input: Input) => Promise<Output>) {
  const api = useApi();
  const cache = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => write(api, input),
    onSuccess: () => cache.invalidateQueries({ queryKey: invalidates }),
  });
}
