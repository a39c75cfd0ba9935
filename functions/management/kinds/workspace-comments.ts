import { CommentCreate, CommentUpdate, type CommentDocument, type StoredComment } from '../../../schemas/resources/workspace';
import { GoneError, NotFoundError, UnauthorizedError, ValidationError } from '../../shared/errors';
import { contextOf, listOptions, readObjectBody, type ResourceContext } from '../../resources/crud-operations';
import { newResourceId, MAX_TAKE, type StoredDocument } from '../../resources/resource-store';
import type { ResourceDeps, ResourceOperationTable } from '../../resources/resource-deps';
import type { HttpRequest } from '../../shared/http/types';
import { WORKSPACE_PREFIX } from './dashboard-tree';
import { inApp, nextPageHeader } from '../../resources/references';
import { commentsOf } from './workspace-removal';
import { parseBody } from '../../shared/invalid-input';

/** A workspace takes at most this many comments (its summary is recounted on every change). */
export const MAX_COMMENTS_PER_WORKSPACE = 1000;

/**
 * Comments on a workspace: `POST/GET /~/workspaces/{id}/comments`, `POST/DELETE
 * /~/workspaces/{id}/comments/{commentId}` (only the comment's author, the token's `sub`, may edit or
 * delete it: 401 otherwise). Each comment is its own item (`COMMENT#<workspaceId>#<commentId>`).
 * The workspace's `comments.summary` {count, latest_comment} is recomputed from the comment items
 * after every change, inside the workspace's optimistic update: concurrent changes each end with a
 * recount that sees the others, so the summary converges to the truth.
 */
export function commentOperations(deps: ResourceDeps, workspaceParam: string): ResourceOperationTable {
  const now = deps.now ?? (() => new Date());
  const workspaceAt = (ctx: ResourceContext) => inApp(ctx, WORKSPACE_PREFIX);
  const workspaceIdOf = (request: HttpRequest) => request.pathParams[workspaceParam] ?? '';

  /** Recounts the comments and stores the summary on the workspace. */
  const refreshSummary = (ctx: ResourceContext, workspaceId: string) =>
    deps.store.update(workspaceAt(ctx), workspaceId, 'workspace', async (current, modifiedAt) => {
      const at = commentsOf(ctx, workspaceId);
      let count = 0;
      let latest: StoredComment | undefined;
      let beforeId: string | undefined;
      do {
        const page = await deps.store.list(at, beforeId === undefined ? { take: MAX_TAKE } : { take: MAX_TAKE, beforeId });
        latest ??= page.items[0] && commentOf(page.items[0].document);
        count += page.items.length;
        beforeId = page.nextBeforeId;
      } while (beforeId !== undefined);
      const summary = latest === undefined ? { count } : { count, latest_comment: latest };
      return { ...current, comments: { summary }, modified_at: modifiedAt };
    });

  /** The comment, after checking its workspace is live (404/410 for the workspace first). */
  const ownComment = async (ctx: ResourceContext, workspaceId: string, commentId: string) => {
    await deps.store.get(workspaceAt(ctx), workspaceId, 'workspace');
    const comment = await deps.store.get(commentsOf(ctx, workspaceId), commentId, 'comment');
    if (comment.auth_user_id !== ctx.caller.sub) {
      throw new UnauthorizedError('Only the author of a comment may change or delete it', [{ field: 'commentId', reason: 'belongs to another user' }]);
    }
    return comment;
  };

  return {
    'workspaces.comments.create': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const workspaceId = workspaceIdOf(request);
      const input = parseBody(CommentCreate, readObjectBody(request));
      const workspace = await deps.store.get(workspaceAt(ctx), workspaceId, 'workspace');
      const count = (workspace.comments as { summary?: { count?: number } } | undefined)?.summary?.count ?? 0;
      if (count >= MAX_COMMENTS_PER_WORKSPACE) {
        throw new ValidationError(`A workspace takes at most ${MAX_COMMENTS_PER_WORKSPACE} comments`, [
          { field: 'body', reason: 'the workspace has too many comments' },
        ]);
      }
      const id = newResourceId(Date.parse(ctx.now));
      const stored: StoredDocument = {
        comment_id: id,
        workspace_id: workspaceId,
        org_id: ctx.orgId,
        app_id: ctx.appId,
        auth_user_id: ctx.caller.sub,
        message: input.message,
        mentions: input.mentions,
        created_at: ctx.now,
        updated_at: ctx.now,
        modified_at: ctx.now,
      };
      const at = commentsOf(ctx, workspaceId);
      if (!(await deps.store.create(at, id, stored))) throw new Error(`comment id ${id} already taken`);
      try {
        await refreshSummary(ctx, workspaceId);
      } catch (error) {
        // The workspace went away meanwhile: take the comment back so nothing is half-written.
        if (error instanceof NotFoundError || error instanceof GoneError) await deps.store.delete(at, id, 'comment').catch(() => undefined);
        throw error;
      }
      return { status: 201, body: commentOf(stored) };
    },

    'workspaces.comments.list': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const workspaceId = workspaceIdOf(request);
      const options = listOptions(request.query);
      await deps.store.get(workspaceAt(ctx), workspaceId, 'workspace');
      const page = await deps.store.list(commentsOf(ctx, workspaceId), options);
      return { status: 200, body: page.items.map((item) => commentOf(item.document)), headers: nextPageHeader(page.nextBeforeId) };
    },

    'workspaces.comments.update': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const workspaceId = workspaceIdOf(request);
      const commentId = request.pathParams.commentId ?? '';
      const input = parseBody(CommentUpdate, readObjectBody(request));
      await ownComment(ctx, workspaceId, commentId);
      const updated = await deps.store.update(commentsOf(ctx, workspaceId), commentId, 'comment', (current, modifiedAt) => ({
        ...current,
        ...(input.message === undefined ? {} : { message: input.message }),
        ...(input.mentions === undefined ? {} : { mentions: input.mentions }),
        updated_at: ctx.now,
        modified_at: modifiedAt,
      }));
      await refreshSummary(ctx, workspaceId);
      return { status: 200, body: commentOf(updated) };
    },

    'workspaces.comments.delete': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const workspaceId = workspaceIdOf(request);
      const commentId = request.pathParams.commentId ?? '';
      await ownComment(ctx, workspaceId, commentId);
      await deps.store.delete(commentsOf(ctx, workspaceId), commentId, 'comment');
      await refreshSummary(ctx, workspaceId);
      return { status: 204 };
    },
  };
}

/** The API's view of a stored comment (spec: CreateCommentItem, plus the workspace it is on). */
function commentOf(stored: StoredDocument): CommentDocument {
  const comment: CommentDocument = {
    comment_id: String(stored.comment_id),
    workspace_id: String(stored.workspace_id),
    auth_user_id: String(stored.auth_user_id),
    message: String(stored.message),
    mentions: Array.isArray(stored.mentions) ? stored.mentions.map(String) : [],
    created_at: String(stored.created_at),
    updated_at: String(stored.updated_at),
  };
  if (typeof stored.partner_user_id === 'string') comment.partner_user_id = stored.partner_user_id;
  return comment;
}
