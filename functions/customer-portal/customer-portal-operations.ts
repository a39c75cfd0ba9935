import type { CustomerClaims, CustomerView } from '../../schemas/resources/customer-access';
import { CustomerDataQuery, CustomerUsageQuery, NoQuery } from '../../schemas/resources/customer-access';
import { SpendCapInput, type SpendCap } from '../../schemas/resources/spend-cap';
import type { ResourceStore } from '../resources/resource-store';
import type { CustomerBound } from '../search/port';
import { runStoredChart, type StoredChartDeps } from '../shared-views/stored-chart';
import { allowedRange } from '../shared-views/time-ranges';
import { NotFoundError } from '../shared/errors';
import type { Operation } from '../shared/http/handler';
import { readObjectBody } from '../resources/crud-operations';
import { parseBody, parseQueryParams } from '../shared/invalid-input';
import { assertCatalogCurrency } from './spend-caps/spend-cap-currency';
import { standingOf, type SpendCapDeps } from './spend-caps/spend-cap-standing';
import { openedTemplate, openedTemplates } from './templates/customer-templates';
import { customerUsage } from './usage/customer-usage';

/** The customer a token's reads are confined to: its company, and its subscription when it binds one. */
const customerBoundOf = (claims: CustomerClaims): CustomerBound => ({
  company_id: claims.company_id,
  ...(claims.subscription_id === undefined ? {} : { subscription_id: claims.subscription_id }),
});

/** Who is calling a customer route: the verified, unrevoked token's claims. */
export interface CustomerCaller {
  readonly claims: CustomerClaims;
}

export interface CustomerPortalDeps extends StoredChartDeps, SpendCapDeps {
  readonly store: ResourceStore;
  readonly now?: () => Date;
}

/**
 * What a customer token opens (`/public/customers/{token}/…`): the template workspaces bound to the
 * customer, its usage and bill, and its spend cap. Every answer is about the token's company only:
 * the company id comes from the signed claims, never from the request.
 */
export function customerPortalOperations(deps: CustomerPortalDeps): Record<string, Operation<CustomerCaller>> {
  const now = deps.now ?? (() => new Date());
  const tenantOf = (claims: CustomerClaims) => ({ orgId: claims.org_id, appId: claims.app_id });
  // A spend cap is the company's, whatever subscription a token narrows its pages to.
  const companyUsageOf = (claims: CustomerClaims, at: Date) => customerUsage(deps, { tenant: tenantOf(claims), companyId: claims.company_id, now: at });
  const usageOf = (claims: CustomerClaims, at: Date, periodStart?: Date) =>
    customerUsage(deps, {
      tenant: tenantOf(claims),
      companyId: claims.company_id,
      ...(claims.subscription_id === undefined ? {} : { subscriptionId: claims.subscription_id }),
      ...(periodStart === undefined ? {} : { periodStart }),
      now: at,
    });

  return {
    customerView: async (request, { claims }) => {
      parseQueryParams(NoQuery, request.query);
      const view: CustomerView = {
        company_id: claims.company_id,
        ...(claims.subscription_id === undefined ? {} : { subscription_id: claims.subscription_id }),
        values: claims.values,
        time_zone: claims.time_zone,
        expires_at: new Date(claims.exp * 1000).toISOString(),
        templates: await openedTemplates(deps.store, claims),
      };
      return { status: 200, body: view };
    },

    customerTemplateData: async (request, { claims }) => {
      const query = parseQueryParams(CustomerDataQuery, request.query);
      const opened = await openedTemplate(deps.store, claims, request.pathParams['workspaceId'] ?? '');
      const answer = await runStoredChart(deps, {
        scope: { org_id: claims.org_id, app_id: claims.app_id },
        workspace: opened.workspace,
        range: allowedRange(opened.timeRanges, query.range, 'customer token'),
        timeZone: claims.time_zone,
        now: now(),
        required: opened.required,
        // Whatever the template's fields and the token's values say, only the token's customer is read.
        customer: customerBoundOf(claims),
        ...(request.disconnected ? { disconnected: request.disconnected } : {}),
      });
      return { status: 200, body: answer };
    },

    customerUsage: async (request, { claims }) => {
      const query = parseQueryParams(CustomerUsageQuery, request.query);
      const periodStart = query.period_start === undefined ? undefined : new Date(query.period_start);
      return { status: 200, body: await usageOf(claims, now(), periodStart) };
    },

    customerSpendCapGet: async (request, { claims }) => {
      parseQueryParams(NoQuery, request.query);
      const cap = await deps.caps.get(claims.org_id, claims.app_id, claims.company_id);
      if (!cap) throw new NotFoundError(`The customer ${claims.company_id} has set no spend cap`);
      return { status: 200, body: standingOf(cap, await companyUsageOf(claims, now())) };
    },

    customerSpendCapPut: async (request, { claims }) => {
      parseQueryParams(NoQuery, request.query);
      const input = parseBody(SpendCapInput, readObjectBody(request));
      await assertCatalogCurrency(deps.store, { orgId: claims.org_id, appId: claims.app_id }, input.currency);
      const at = now();
      const cap: SpendCap = {
        company_id: claims.company_id,
        budget: input.budget,
        currency: input.currency,
        ...(input.warn_at_percent === undefined ? {} : { warn_at_percent: input.warn_at_percent }),
        hard_cap: input.hard_cap,
        updated_at: at.toISOString(),
      };
      await deps.caps.put(claims.org_id, claims.app_id, cap);
      return { status: 200, body: standingOf(cap, await companyUsageOf(claims, at)) };
    },

    customerSpendCapDelete: async (request, { claims }) => {
      parseQueryParams(NoQuery, request.query);
      if (!(await deps.caps.delete(claims.org_id, claims.app_id, claims.company_id)))
        throw new NotFoundError(`The customer ${claims.company_id} has set no spend cap`);
      return { status: 204 };
    },
  };
}
