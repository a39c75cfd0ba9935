import type { App } from '../../schemas/app';
import type { ManagementTokenClaims } from '../../schemas/management-token';
import type { RecordKind } from '../../schemas/stream-record';
import { collectRequest } from './collector/collect';
import type { RecordPublisher } from './stream/publisher';
import { NotFoundError } from '../shared/errors';
import type { Operation } from '../shared/http/handler';

export interface ProfileWriteDeps {
  /** The ingest stream: the one path profiles take, whoever sends them. */
  readonly publisher: RecordPublisher;
  readonly apps: { getApp(orgId: string, appId: string): Promise<App | undefined> };
}

/**
 * Users, companies and subscriptions written with a management token (create:users,
 * create:companies): the same validation, limits, stream and merge as the collector's, and the
 * collector's answer (201 {"accepted": N}). Scripts and back offices need no collector application id.
 */
export function profileWriteOperations(deps: ProfileWriteDeps): Record<string, Operation<ManagementTokenClaims>> {
  const write =
    (kind: RecordKind, batch: boolean): Operation<ManagementTokenClaims> =>
    async (request, claims) => {
      const app = await deps.apps.getApp(claims.org_id, claims.app_id);
      // The token outlived its app (deleted since): nothing to write into.
      if (!app) throw new NotFoundError(`The token's app ${claims.app_id} no longer exists`);
      return collectRequest(deps.publisher, app, kind, batch, request);
    };
  return {
    writeUser: write('user', false),
    writeUsers: write('user', true),
    writeCompany: write('company', false),
    writeCompanies: write('company', true),
    writeSubscription: write('subscription', false),
    writeSubscriptions: write('subscription', true),
  };
}
