import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import { useApiMutation } from '../../../lib/api-mutation';
import type { components } from '../../../lib/api-schema';
import { keysetPage, LIST_PAGE_SIZE, useKeysetPages } from '../../../lib/keyset-pages';

export type EventVoid = components['schemas']['EventVoid'];
export type EventVoidRequest = components['schemas']['EventVoidRequest'];
export type EventReplacementRequest = components['schemas']['EventReplacementRequest'];

/** How many live events a query matches in a fixed range: what a void of it would mark. */
export function useVoidPreview(query: Record<string, unknown>, from: string | undefined, to: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: ['events', 'void-preview', query, from, to],
    enabled: from !== undefined && to !== undefined,
    queryFn: async () => dataOf(await api.POST('/search/~/count/events', { params: { query: { from, to } }, body: { query } })).count,
  });
}

/** Voids events; the stream, counts and the audit log are read again after. */
export function useVoidEvents() {
  return useApiMutation(['events'], async (api, body: EventVoidRequest) => dataOf(await api.POST('/~/events/voids', { body })));
}

/** Replaces the range's matching events with a corrected set; the stream, counts and the audit log are read again after. */
export function useReplaceEvents() {
  return useApiMutation(['events'], async (api, body: EventReplacementRequest) => dataOf(await api.POST('/~/events/replacements', { body })));
}

/** The audit log of voids, newest first, a page at a time. */
export function useVoidLog() {
  const api = useApi();
  return useKeysetPages<EventVoid>(['events', 'voids'], async (beforeId) =>
    keysetPage<EventVoid>(await api.GET('/~/events/voids', { params: { query: { take: LIST_PAGE_SIZE, ...(beforeId ? { before_id: beforeId } : {}) } } })),
  );
}

/** Every void of the log (pages of 1,000), for a download. */
export async function allVoids(api: ReturnType<typeof useApi>): Promise<EventVoid[]> {
  const voids: EventVoid[] = [];
  for (let beforeId: string | undefined; ; ) {
    const page = keysetPage<EventVoid>(await api.GET('/~/events/voids', { params: { query: { take: 1000, ...(beforeId ? { before_id: beforeId } : {}) } } }));
    voids.push(...page.items);
    if (!page.next) return voids;
    beforeId = page.next;
  }
}
