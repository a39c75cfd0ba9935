/**
 * One page of a list computed whole and sorted by a text key (a rule's or a cohort's members): the
 * `take` items whose key comes after `after`, and `next_after` (the last key) when more follow.
 */
export function pageAfter<T>(
  sorted: readonly T[],
  keyOf: (item: T) => string,
  page: { take: number; after?: string | undefined },
): { items: T[]; next_after?: string } {
  const from = page.after === undefined ? 0 : sorted.findIndex((item) => keyOf(item) > page.after!);
  const items = from < 0 ? [] : sorted.slice(from, from + page.take);
  const last = items.at(-1);
  return from >= 0 && from + page.take < sorted.length && last !== undefined ? { items, next_after: keyOf(last) } : { items };
}

/** Text keys in code-unit order, the order `after` is compared in. */
export const byKey =
  <T>(keyOf: (item: T) => string) =>
  (a: T, b: T) =>
    keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0;
