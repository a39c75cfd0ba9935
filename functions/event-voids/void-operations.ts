import { EventReplacementRequest, EventVoidRequest } from '../../schemas/event-voids';
import type { ManagementCaller } from '../management-tokens/management-auth';
import { contextOf, listOptions, readObjectBody } from '../resources/crud-operations';
import type { Operation } from '../shared/http/handler';
import { parseBody } from '../shared/invalid-input';
import { replaceEvents, type ReplaceDeps } from './replace-events';
import { voidEvents } from './void-events';
import { listVoids, readVoid } from './void-records';

type VoidOperation = Operation<ManagementCaller | undefined>;

/**
 * Voids of the token's app's events, and their audit log:
 * - POST /~/events/voids → 201, the void done: events marked, billing told (void-events.ts)
 * - POST /~/events/replacements → 201, a range's wrong events voided and the corrected ones collected (replace-events.ts); 200 for a retry of a logged id
 * - GET  /~/events/voids → the audit log, newest first (`take`, `before_id`; `x-next-before-id`)
 * - GET  /~/events/voids/{voidId} → one void
 */
export function voidOperations(deps: ReplaceDeps): Record<'createEventVoid' | 'replaceEvents' | 'listEventVoids' | 'getEventVoid', VoidOperation> {
  return {
    async replaceEvents(request, caller) {
      const ctx = contextOf(request, caller, deps.now());
      const input = parseBody(EventReplacementRequest, readObjectBody(request));
      const { created, replacement } = await replaceEvents(deps, { orgId: ctx.orgId, appId: ctx.appId, subject: ctx.caller.sub }, input);
      return { status: created ? 201 : 200, body: replacement };
    },
    async createEventVoid(request, caller) {
      const ctx = contextOf(request, caller, deps.now());
      const input = parseBody(EventVoidRequest, readObjectBody(request));
      return { status: 201, body: await voidEvents(deps, { orgId: ctx.orgId, appId: ctx.appId, subject: ctx.caller.sub }, input) };
    },
    async listEventVoids(request, caller) {
      const ctx = contextOf(request, caller, deps.now());
      const page = await listVoids(deps.resources, ctx, listOptions(request.query));
      const headers: Record<string, string> = page.nextBeforeId ? { 'x-next-before-id': page.nextBeforeId } : {};
      return { status: 200, body: page.voids, headers };
    },
    async getEventVoid(request, caller) {
      const ctx = contextOf(request, caller, deps.now());
      return { status: 200, body: await readVoid(deps.resources, ctx, request.pathParams['voidId'] ?? '') };
    },
  };
}
