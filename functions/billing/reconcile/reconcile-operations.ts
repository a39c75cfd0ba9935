import type { ManagementCaller } from '../../management-tokens/management-auth';
import { contextOf, readObjectBody } from '../../resources/crud-operations';
import { NotFoundError } from '../../shared/errors';
import type { Operation } from '../../shared/http/handler';
import { DriftCorrectionRequest } from '../../../schemas/billing/reconciliation';
import { parseBody } from '../../shared/invalid-input';
import { correctDrift } from './drift-correction';
import { lastReconciliation, reconcileMeter, type ReconcileDeps } from './reconciliation';

type ReconcileOperation = Operation<ManagementCaller | undefined>;

/**
 * Reconcile out, for the token's app:
 * - POST /~/billing/meters/{meterId}/reconciliation → reads back what Stripe holds now and compares
 * - GET  /~/billing/meters/{meterId}/reconciliation → the last comparison
 * - POST /~/billing/meters/{meterId}/reconciliation/corrections → sends the drift found now, then compares again
 */
export function reconcileOperations(
  deps: ReconcileDeps | undefined,
): Record<'reconcileMeter' | 'getMeterReconciliation' | 'correctMeterDrift', ReconcileOperation> {
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
    async correctMeterDrift(request, caller) {
      if (!deps) throw new NotFoundError('Reconciliation is not served here');
      const ctx = contextOf(request, caller, new Date());
      // No body: every subscription with drift.
      const empty = request.rawBody.length === 0 && !request.bodyText;
      const body = parseBody(DriftCorrectionRequest, empty ? {} : readObjectBody(request));
      return { status: 200, body: await correctDrift(deps, ctx, request.pathParams['meterId'] ?? '', body.subscription_ids) };
    },
  };
}
