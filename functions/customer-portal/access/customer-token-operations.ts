import {
  CustomerTokenCreate,
  DEFAULT_CUSTOMER_TOKEN_SECONDS,
  type CustomerClaims,
  type CustomerToken,
  type CustomerTokenCreate as CustomerTokenInput,
} from '../../../schemas/resources/customer-access';
import { contextOf, listOptions, readObjectBody } from '../../resources/crud-operations';
import { nextPageHeader } from '../../resources/references';
import type { ResourceOperationTable } from '../../resources/resource-deps';
import { resourceKey, type ResourceStore } from '../../resources/resource-store';
import type { SigningKeyProvider } from '../../management-tokens/signing-key';
import { assertTimeZone } from '../../search/dates/time-zone';
import type { SearchableIndex, TenantScope } from '../../search/port';
import { checkedTimeRanges } from '../../shared-views/time-ranges';
import { targetLocation } from '../../shared-views/signed-token-records';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { originOf } from '../../shared/http/origin';
import { parseBody } from '../../shared/invalid-input';
import { signCustomerToken } from './customer-token';
import { customerRevocations } from './customer-revocations';

export interface CustomerTokenDeps {
  readonly store: ResourceStore;
  /** Where the subscription a token narrows to is looked up (it must be the company's own). */
  readonly index: SearchableIndex;
  readonly signingKey: SigningKeyProvider;
  readonly now?: () => Date;
}

/** The pages a customer token opens (served by the management API under /console/). */
export const customerPageUrls = (origin: string, token: string) => ({
  usage_url: `${origin}/console/customer/${encodeURIComponent(token)}`,
  templates_url: `${origin}/console/customer/${encodeURIComponent(token)}/templates`,
});

/**
 * Customer tokens, server to server: `POST /~/customer_tokens` signs one for a company (nothing is
 * stored), and `/~/customer_tokens/revocations` lists, revokes and restores customers.
 */
export function customerTokenOperations(deps: CustomerTokenDeps): ResourceOperationTable {
  const now = deps.now ?? (() => new Date());
  const revocations = customerRevocations(deps.store);
  return {
    'customerTokens.create': async (request, caller) => {
      const at = now();
      const ctx = contextOf(request, caller, at);
      const input = parseBody(CustomerTokenCreate, readObjectBody(request));
      const timeZone = assertTimeZone(input.time_zone ?? 'UTC', 'time_zone');
      if (input.time_ranges) checkedTimeRanges(input.time_ranges, timeZone, at);
      if (input.templates) await assertTemplates(deps.store, ctx.orgId, ctx.appId, input.templates);
      if (input.subscription_id !== undefined)
        await assertOwnSubscription(deps.index, { org_id: ctx.orgId, app_id: ctx.appId }, input.company_id, input.subscription_id);
      const claims: CustomerClaims = {
        typ: 'customer',
        org_id: ctx.orgId,
        app_id: ctx.appId,
        company_id: input.company_id,
        ...(input.subscription_id === undefined ? {} : { subscription_id: input.subscription_id }),
        values: boundValues(input),
        ...(input.templates === undefined ? {} : { templates: [...new Set(input.templates)] }),
        ...(input.time_ranges === undefined ? {} : { time_ranges: input.time_ranges }),
        time_zone: timeZone,
        iat_ms: at.getTime(),
        exp: Math.floor(at.getTime() / 1000) + (input.expires_in ?? DEFAULT_CUSTOMER_TOKEN_SECONDS),
      };
      const token = signCustomerToken(claims, await deps.signingKey());
      const answer: CustomerToken = {
        token,
        company_id: claims.company_id,
        ...(claims.subscription_id === undefined ? {} : { subscription_id: claims.subscription_id }),
        expires_at: new Date(claims.exp * 1000).toISOString(),
        ...customerPageUrls(originOf(request), token),
      };
      return { status: 201, body: answer };
    },
    'customerTokens.revocations.list': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const page = await revocations.list(ctx.orgId, ctx.appId, listOptions(request.query));
      return { status: 200, body: page.items, headers: nextPageHeader(page.nextBeforeId) };
    },
    'customerTokens.revocations.put': async (request, caller) => {
      const at = now();
      const ctx = contextOf(request, caller, at);
      const record = await revocations.revoke(ctx.orgId, ctx.appId, companyParam(request.pathParams), ctx.caller.sub, at);
      return { status: 200, body: record };
    },
    'customerTokens.revocations.delete': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const companyId = companyParam(request.pathParams);
      if (!(await revocations.restore(ctx.orgId, ctx.appId, companyId))) throw new NotFoundError(`The customer ${companyId} is not revoked`);
      return { status: 204 };
    },
  };
}

/** Every value the token binds: company_id and subscription_id under their own names, then the others. */
function boundValues(input: CustomerTokenInput): Record<string, string> {
  for (const field of ['company_id', 'subscription_id'] as const) {
    if (input.values?.[field] !== undefined)
      throw new ValidationError(`Invalid values.${field}: give it as ${field}`, [
        { field: `values.${field}`, reason: `give it as ${field}, not among values` },
      ]);
  }
  return {
    ...input.values,
    company_id: input.company_id,
    ...(input.subscription_id === undefined ? {} : { subscription_id: input.subscription_id }),
  };
}

function companyParam(params: Readonly<Record<string, string>>): string {
  const companyId = params['companyId'] ?? '';
  if (companyId === '' || companyId.length > 256)
    throw new ValidationError('Invalid companyId', [{ field: 'companyId', reason: 'must be 1 to 256 characters' }]);
  return companyId;
}

/**
 * A token narrowed to a subscription must name one of the company's own: the subscription's profile
 * must exist and name the company (400 naming subscription_id otherwise), so no token can be minted
 * that reaches another company's subscription.
 */
async function assertOwnSubscription(index: SearchableIndex, scope: TenantScope, companyId: string, subscriptionId: string): Promise<void> {
  const profile = await index.get(scope, 'subscriptions', subscriptionId);
  const owner = profile?._source['company_id'];
  if (owner === companyId) return;
  const reason =
    profile === undefined
      ? `no subscription with this id (it must be one of company ${companyId}'s)`
      : `is a subscription of another company, not of ${companyId}`;
  throw new ValidationError(`Invalid subscription_id: ${reason}`, [{ field: 'subscription_id', reason }]);
}

/** Each named template exists and is a template workspace (400 naming the first that is not). */
async function assertTemplates(store: ResourceStore, orgId: string, appId: string, ids: readonly string[]): Promise<void> {
  const at = targetLocation(orgId, appId, 'workspace');
  const found = new Map((await store.getItems(ids.map((id) => resourceKey(at, id)))).map((item) => [String(item['_id']), item]));
  ids.forEach((id, i) => {
    const workspace = found.get(id);
    const reason = !workspace ? 'no such workspace' : workspace['is_template'] !== true ? 'the workspace is not a template' : undefined;
    if (reason) throw new ValidationError(`Invalid templates[${i}]: ${reason}`, [{ field: `templates[${i}]`, reason }]);
  });
}
