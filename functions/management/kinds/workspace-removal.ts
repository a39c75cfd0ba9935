import { GoneError, NotFoundError } from '../../shared/errors';
import type { ResourceContext } from '../../resources/crud-operations';
import { MAX_TAKE, type ResourceStore } from '../../resources/resource-store';
import { WORKSPACE_PREFIX } from './dashboard-tree';
import { inApp } from '../../resources/references';

/** Comments of a workspace: `COMMENT#<workspaceId>#<commentId>` in the app's partition. */
export const commentsOf = (ctx: Pick<ResourceContext, 'orgId' | 'appId'>, workspaceId: string) => inApp(ctx, `COMMENT#${workspaceId}`);

/**
 * Deletes a workspace (tombstone: 410 afterwards), then its comments. Comments go after the
 * workspace so a failure part-way leaves only unreachable comments (their workspace answers 410),
 * never a live workspace whose summary disagrees with its comments.
 */
export async function deleteWorkspace(store: ResourceStore, ctx: ResourceContext, workspaceId: string): Promise<void> {
  await store.delete(inApp(ctx, WORKSPACE_PREFIX), workspaceId, 'workspace');
  const at = commentsOf(ctx, workspaceId);
  for (;;) {
    const page = await store.list(at, { take: MAX_TAKE });
    if (page.items.length === 0) return;
    for (const item of page.items) {
      try {
        await store.delete(at, item.id, 'comment');
      } catch (error) {
        // Someone else removed it meanwhile: the goal is reached.
        if (!(error instanceof NotFoundError) && !(error instanceof GoneError)) throw error;
      }
    }
  }
}
