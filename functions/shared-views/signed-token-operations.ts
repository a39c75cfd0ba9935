import {
  DEFAULT_SHARED_TOKEN_SECONDS,
  MAX_SHARED_TOKEN_SECONDS,
  SharedViewTokenCreate,
  type SharedTargetKind,
  type SharedViewToken,
  type SharedViewTokenRecord,
} from '../../schemas/resources/shared-view';
import { contextOf, listOptions, readObjectBody, type ResourceContext } from '../resources/crud-operations';
import { nextPageHeader } from '../resources/references';
import type { ResourceOperationTable } from '../resources/resource-deps';
import { newResourceId, type ResourceStore, type StoredDocument } from '../resources/resource-store';
import type { SigningKeyProvider } from '../management-tokens/signing-key';
import { assertTimeZone } from '../search/dates/time-zone';
import { NotFoundError, ServiceUnavailableError, ValidationError } from '../shared/errors';
import { checkedTimeRanges, ownRange } from './time-ranges';
import { originOf } from '../shared/http/origin';
import type { HttpRequest } from '../shared/http/types';
import { signSharedViewToken } from './shared-view-token';
import { isLive, signedTokenLocation, targetLocation, tokenRecordOf } from './signed-token-records';
import { parseBody } from '../shared/invalid-input';

export interface SignedTokenDeps {
  readonly store: ResourceStore;
  readonly signingKey: SigningKeyProvider;
  readonly now?: () => Date;
}

/** The console pages that show a shared view (served by the management API under /console/). */
export const sharedViewUrls = (origin: string, token: string) => ({
  url: `${origin}/console/shared/${encodeURIComponent(token)}`,
  embed_url: `${origin}/console/embed/${encodeURIComponent(token)}`,
});

/**
 * Signed tokens of workspaces and dashboards (`/~/workspaces/{id}/signed_tokens`,
 * `/~/dashboards/{dashId}/signed_tokens`) and the app's live ones (`/~/workspaces/public`). A token
 * is shown once, when made; the record (what it shares, until when, over which time ranges) stays
 * until it is revoked, which is what every use of the token checks.
 */
export function signedTokenOperations(deps: SignedTokenDeps): ResourceOperationTable {
  const now = deps.now ?? (() => new Date());
  const kinds: { kind: SharedTargetKind; name: string; idParam: string }[] = [
    { kind: 'workspace', name: 'workspaces', idParam: 'id' },
    { kind: 'dashboard', name: 'dashboards', idParam: 'dashId' },
  ];
  const table: ResourceOperationTable = {
    'sharedViews.list': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      return liveTokens(deps.store, ctx, request);
    },
  };
  for (const { kind, name, idParam } of kinds) {
    const targetOf = async (ctx: ResourceContext) => {
      const id = ctx.request.pathParams[idParam] ?? '';
      return { id, document: await deps.store.get(targetLocation(ctx.orgId, ctx.appId, kind), id, kind) };
    };
    table[`${name}.signedTokens.create`] = async (request, caller) => {
      const at = now();
      const ctx = contextOf(request, caller, at);
      const input = parseBody(SharedViewTokenCreate, readObjectBody(request));
      const target = await targetOf(ctx);
      const record = newRecord(ctx, kind, target, input, at);
      if (!(await deps.store.create(signedTokenLocation(ctx.orgId, ctx.appId), record._id, record)))
        throw new ServiceUnavailableError('A token id was taken twice; try again');
      const token = signSharedViewToken(
        {
          typ: 'shared_view',
          org_id: ctx.orgId,
          app_id: ctx.appId,
          tid: record._id,
          kind,
          id: target.id,
          iat: Math.floor(at.getTime() / 1000),
          exp: Math.floor(Date.parse(record.expires_at) / 1000),
        },
        await deps.signingKey(),
      );
      const answer: SharedViewToken = { ...record, token, ...sharedViewUrls(originOf(request), token) };
      return { status: 201, body: answer };
    };
    table[`${name}.signedTokens.list`] = async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const target = await targetOf(ctx);
      return liveTokens(deps.store, ctx, request, target.id);
    };
    table[`${name}.signedTokens.delete`] = async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const target = await targetOf(ctx);
      const tokenId = request.pathParams['tokenId'] ?? '';
      const at = signedTokenLocation(ctx.orgId, ctx.appId);
      const record = tokenRecordOf(await deps.store.get(at, tokenId, 'signed token'));
      // A token of another workspace is not this one's to revoke: as if it did not exist.
      if (!record || record.target_kind !== kind || record.target_id !== target.id)
        throw new NotFoundError(`The ${kind} ${target.id} has no signed token ${tokenId}`);
      await deps.store.delete(at, tokenId, 'signed token');
      return { status: 204 };
    };
  }
  return table;
}

/** Live (unexpired) token records, newest first; of one target when `targetId` is given. */
async function liveTokens(store: ResourceStore, ctx: ResourceContext, request: HttpRequest, targetId?: string) {
  const at = new Date(ctx.now);
  const page = await store.list(signedTokenLocation(ctx.orgId, ctx.appId), {
    ...listOptions(request.query),
    ...(targetId === undefined ? {} : { where: { attribute: 'target_id', value: targetId } }),
  });
  const records = page.items
    .map((item) => tokenRecordOf(item.document))
    .filter((record): record is SharedViewTokenRecord => record !== undefined && isLive(record, at));
  return { status: 200, body: records, headers: nextPageHeader(page.nextBeforeId) };
}

function newRecord(
  ctx: ResourceContext,
  kind: SharedTargetKind,
  target: { id: string; document: StoredDocument },
  input: SharedViewTokenCreate,
  at: Date,
): SharedViewTokenRecord {
  const chart = (kind === 'workspace' ? target.document['chart'] : undefined) as { from?: unknown; to?: unknown; time_zone?: unknown } | undefined;
  const timeZone = assertTimeZone(input.time_zone ?? (typeof chart?.time_zone === 'string' ? chart.time_zone : 'UTC'), 'time_zone');
  const timeRanges = input.time_ranges ?? [ownRange(chart)];
  checkedTimeRanges(timeRanges, timeZone, at);
  return {
    _id: newResourceId(at.getTime()),
    org_id: ctx.orgId,
    app_id: ctx.appId,
    target_kind: kind,
    target_id: target.id,
    time_ranges: timeRanges,
    time_zone: timeZone,
    expires_at: expiryOf(input, at).toISOString(),
    ...(input.description === undefined ? {} : { description: input.description }),
    created_by: ctx.caller.sub,
    created_at: ctx.now,
    modified_at: ctx.now,
  };
}

function expiryOf(input: SharedViewTokenCreate, at: Date): Date {
  if (input.expires_at !== undefined && input.expires_in !== undefined) {
    throw new ValidationError('Give expires_at or expires_in, not both', [{ field: 'expires_in', reason: 'expires_at is given too' }]);
  }
  if (input.expires_at === undefined) return new Date(at.getTime() + (input.expires_in ?? DEFAULT_SHARED_TOKEN_SECONDS) * 1000);
  const expires = Date.parse(input.expires_at);
  const reason =
    !/^\d{4}-\d{2}-\d{2}T/.test(input.expires_at) || Number.isNaN(expires)
      ? 'is not an ISO 8601 date-time'
      : expires <= at.getTime() + 60_000
        ? 'must be at least a minute in the future'
        : expires > at.getTime() + MAX_SHARED_TOKEN_SECONDS * 1000
          ? 'must be at most 366 days ahead'
          : undefined;
  if (reason) throw new ValidationError(`Invalid expires_at: ${reason}`, [{ field: 'expires_at', reason }]);
  return new Date(expires);
}
