import { MAX_TAKE, type ListOptions, type ListPage, type ResourceLocation, type ResourceStore, type StoredDocument } from './resource-store';

/**
 * A list page of the items that pass `keep`, for filters the store cannot express (list membership,
 * ranges). Scans newest first from `before_id` until `take` items passed; the next page's
 * `before_id` is the last item returned, so paging stays gap-free.
 */
export async function filteredList(
  store: ResourceStore,
  at: ResourceLocation,
  options: ListOptions,
  keep: (document: StoredDocument) => boolean,
): Promise<ListPage> {
  const take = options.take ?? 50;
  const items: ListPage['items'] = [];
  let beforeId = options.beforeId;
  for (;;) {
    const scan: ListOptions = { take: MAX_TAKE, ...(beforeId === undefined ? {} : { beforeId }), ...(options.where ? { where: options.where } : {}) };
    const page = await store.list(at, scan);
    for (const item of page.items) {
      if (!keep(item.document)) continue;
      items.push(item);
      if (items.length === take) return { items, nextBeforeId: item.id };
    }
    if (page.nextBeforeId === undefined) return { items };
    beforeId = page.nextBeforeId;
  }
}
