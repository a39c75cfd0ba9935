import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { dataOf } from './api-client';

/** One page of a managed-resource list: its items, and where the next page starts (the API's X-Next-Before-Id). */
export interface KeysetPage<T> {
  readonly items: T[];
  readonly next?: string;
}

export const LIST_PAGE_SIZE = 50;

/** Reads a list answer into a page. */
export function keysetPage<T>(result: { data?: unknown; error?: unknown; response: Response }): KeysetPage<T> {
  const items = dataOf(result) as T[];
  const next = result.response.headers.get('x-next-before-id');
  return { items, ...(next ? { next } : {}) };
}

/** A list the API pages with `take` and `before_id`: the pages read so far, and the next on demand. */
export function useKeysetPages<T>(queryKey: readonly unknown[], fetchPage: (beforeId: string | undefined) => Promise<KeysetPage<T>>) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next,
    placeholderData: keepPreviousData,
  });
}
