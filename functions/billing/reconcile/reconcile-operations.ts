import type { ManagementCaller } from '../../management-tokens/management-auth';
import { contextOf } from '../../resources/crud-operations';
import { NotFoundError } from '../../shared/errors';
import type { Operation } from '../../shared/http/handler';
import { lastReconciliation, reconcileMeter, type ReconcileDeps } from './reconciliation';

type ReconcileOperation = Operation<ManagementCaller | undefined>;

/**
 * Reconcile out, for the token's app:
 * - POST /~/billing/meters/{meterId}/reconciliation → reads back what Stripe holds now and compares
 * - GET  /~/billing/meters/{meterId}/reconciliation → the last comparison
 */
export function reconcileOperations(deps: ReconcileDeps | undefined): Record<'reconcileMeter' | 'getMeterReconciliation', ReconcileOperation> {
  return {
    async reconcileMeter(request, caller) {
      if (!deps) throw new NotFoundError('Reconciliation is not served here');
      const ctx = contextOf(request, caller, new Date());
      return { status: 200, body: await reconcileMeter(deps, ctx, request.pathParams['meterId'] ?? '') };
    },
    async getMeterReconciliation(request, caller) {
      if (!deps) throw new NotFoundError('Reconciliation is not served here');
      const ctx = contextOf(request, caller, new Date());
      const meterId = request.pathParams['meterId'] ?? '';
      const found = await lastReconciliation(deps.resources, ctx, meterId);
      if (!found) throw new NotFoundError(`The meter ${meterId} has not been reconciled yet`);
      return { status: 200, body: found };
    },
  };
}
