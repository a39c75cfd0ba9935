import { SyncedProvider } from '../../../schemas/billing/provider-sync';
import type { ManagementCaller } from '../../management-tokens/management-auth';
import { contextOf } from '../../resources/crud-operations';
import type { ResourceStore } from '../../resources/resource-store';
import { NotFoundError, ValidationError } from '../../shared/errors';
import type { Operation } from '../../shared/http/handler';
import { readSync, requestSync } from './sync-records';

export interface SyncOperationDeps {
  readonly resources: ResourceStore;
  /** Runs the app's due syncs now where the runtime can (locally); on AWS the billing schedule takes the request up. */
  readonly startNow?: (tenant: { orgId: string; appId: string }) => void;
  readonly now?: () => Date;
}

type SyncOperation = Operation<ManagementCaller | undefined>;

function providerOf(value: string | undefined): SyncedProvider {
  const parsed = SyncedProvider.safeParse(value);
  if (!parsed.success)
    throw new ValidationError(`Records cannot be synced in from ${JSON.stringify(value)}`, [
      { field: 'provider', reason: `must be one of ${SyncedProvider.options.join(', ')}` },
    ]);
  return parsed.data;
}

/**
 * Sync in from a billing provider, for the token's app:
 * - POST /~/billing/providers/{provider}/sync → 202, the sync asked for (or the one running)
 * - GET  /~/billing/providers/{provider}/sync → its progress, counts and what was left out
 */
export function syncOperations(deps: SyncOperationDeps): Record<'requestProviderSync' | 'getProviderSync', SyncOperation> {
  const now = deps.now ?? (() => new Date());
  return {
    async requestProviderSync(request, caller) {
      const ctx = contextOf(request, caller, now());
      const sync = await requestSync(deps.resources, ctx, providerOf(request.pathParams['provider']), now());
      deps.startNow?.(ctx);
      return { status: 202, body: sync };
    },
    async getProviderSync(request, caller) {
      const ctx = contextOf(request, caller, now());
      const provider = providerOf(request.pathParams['provider']);
      const sync = await readSync(deps.resources, ctx, provider);
      if (!sync) throw new NotFoundError(`The app has never synced from ${provider}`);
      return { status: 200, body: sync };
    },
  };
}
