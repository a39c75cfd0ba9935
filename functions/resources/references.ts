import { mapWithConcurrency } from '../shared/concurrency';
import { GoneError, NotFoundError, ValidationError, type FieldIssue } from '../shared/errors';
import { appRulesPartition } from './keys';
import type { ResourceContext } from './crud-operations';
import type { ResourceStore, StoredDocument } from './resource-store';

/** Reads in flight while checking one body's references. */
const REFERENCE_READS_IN_FLIGHT = 8;

/** The location of a kind's items in the caller's app. */
export const inApp = (ctx: Pick<ResourceContext, 'orgId' | 'appId'>, prefix: string) => ({ partition: appRulesPartition(ctx.orgId, ctx.appId), prefix });

export interface Reference {
  /** Where the id appears in the body: `dashboard_ids[2]`. */
  readonly field: string;
  readonly id: string;
}

/**
 * Loads the resources a body refers to (same org and app only); a reference to nothing, or to a
 * deleted resource, is a 400 naming the field. Answers the documents by id.
 */
export async function resolveReferences(
  store: ResourceStore,
  ctx: ResourceContext,
  prefix: string,
  noun: string,
  references: readonly Reference[],
): Promise<Map<string, StoredDocument>> {
  const at = inApp(ctx, prefix);
  const found = new Map<string, StoredDocument>();
  const issues: FieldIssue[] = [];
  const unique = [...new Map(references.map((ref) => [ref.id, ref])).values()];
  await mapWithConcurrency(unique, REFERENCE_READS_IN_FLIGHT, async (ref) => {
    try {
      found.set(ref.id, await store.get(at, ref.id, noun));
    } catch (error) {
      if (!(error instanceof NotFoundError) && !(error instanceof GoneError)) throw error;
    }
  });
  for (const ref of references) {
    if (!found.has(ref.id)) issues.push({ field: ref.field, reason: `no ${noun} ${ref.id} in this app` });
  }
  if (issues.length > 0) throw new ValidationError(`Unknown ${noun} references: ${issues.map((i) => i.field).join(', ')}`, issues.slice(0, 100));
  return found;
}

/** The list answers' paging header: the `before_id` of the next page, when one may follow. */
export function nextPageHeader(nextBeforeId: string | undefined): Record<string, string> {
  return nextBeforeId === undefined ? {} : { 'x-next-before-id': nextBeforeId };
}
