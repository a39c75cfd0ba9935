import { useMutation, useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';

/** What an email's unsubscribe link names (its token is the credential; no session). */
export function useUnsubscribeLink(token: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['unsubscribe', token],
    queryFn: async () => dataOf(await api.GET('/public/emails/unsubscribe/{token}', { params: { path: { token } } })),
    retry: false,
  });
}

export function useUnsubscribe(token: string) {
  const api = useApi();
  return useMutation({
    mutationFn: async (all: boolean) => dataOf(await api.POST('/public/emails/unsubscribe/{token}', { params: { path: { token } }, body: { all } })),
  });
}
