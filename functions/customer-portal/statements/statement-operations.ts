import { CustomerStatementQuery, StatementEventsQuery, StatementVerificationInput, type StatementKey } from '../../../schemas/billing/customer-statement';
import type { CustomerClaims } from '../../../schemas/resources/customer-access';
import { readObjectBody } from '../../resources/crud-operations';
import type { AppStore } from '../../organisations/app-store';
import type { RateLimiter } from '../../rate-limit/rate-limiter';
import { NotFoundError } from '../../shared/errors';
import type { Operation } from '../../shared/http/handler';
import { parseBody, parseQueryParams } from '../../shared/invalid-input';
import type { CustomerCaller } from '../customer-portal-operations';
import { currentStatement, issuedStatement, statementAsk, type StatementDeps, type StatementInput } from './customer-statement';
import { statementKeyPair, STATEMENT_SIGNATURE_ALGORITHM } from './statement-keys';
import { statementEventsPage } from './statement-events';
import { verifyStatement, type VerificationDeps } from './statement-verification';

/**
 * The statement routes. Through a customer token: a closed period's signed statement
 * (`/public/customers/{token}/statement`) and the events behind one of its meters, a page at a time
 * (`…/statement/events`). Open to anyone: an app's public key and the verification of a statement.
 */
export function statementOperations(deps: StatementDeps & { readonly now?: () => Date }): Record<string, Operation<CustomerCaller>> {
  const now = deps.now ?? (() => new Date());
  const inputOf = (claims: CustomerClaims, query: { subscription_id: string; period_start: string }): StatementInput => {
    // A token narrowed to one subscription opens that one's statements only.
    if (claims.subscription_id !== undefined && claims.subscription_id !== query.subscription_id)
      throw new NotFoundError(`The customer token opens the subscription ${claims.subscription_id} only`);
    return {
      tenant: { orgId: claims.org_id, appId: claims.app_id },
      companyId: claims.company_id,
      subscriptionId: query.subscription_id,
      periodStart: new Date(query.period_start),
      now: now(),
    };
  };
  return {
    customerStatement: async (request, { claims }) => {
      const query = parseQueryParams(CustomerStatementQuery, request.query);
      const input = inputOf(claims, query);
      const statement = query.version === undefined ? await currentStatement(deps, input) : await issuedStatement(deps, input, query.version);
      return { status: 200, body: statement };
    },

    customerStatementEvents: async (request, { claims }) => {
      const query = parseQueryParams(StatementEventsQuery, request.query);
      const input = inputOf(claims, query);
      // Each page finds its line again from the subscription and the meter alone: no usage is computed.
      const ask = await statementAsk(deps, input, query.billing_meter_id);
      const page = await statementEventsPage({ index: deps.index, scope: { org_id: claims.org_id, app_id: claims.app_id }, now: input.now }, ask, query.after);
      return { status: 200, body: { billing_meter_id: ask.meter.id, ...page } };
    },
  };
}

/** The open statement routes: an app's public key, and checking a statement. */
export function statementKeyOperations(
  deps: StatementDeps & {
    readonly apps: Pick<AppStore, 'getApp'>;
    /** The per-org counter of statement checks. */
    readonly statementChecks: Pick<RateLimiter, 'take'>;
    readonly now?: () => Date;
  },
): Record<string, Operation<unknown>> {
  const now = deps.now ?? (() => new Date());
  const verification: VerificationDeps = {
    resources: deps.resources,
    signingKey: deps.signingKey,
    admit: (tenant) => deps.statementChecks.take(tenant.orgId),
    current: (tenant, statement) =>
      currentStatement(deps, {
        tenant,
        companyId: statement.company_id,
        subscriptionId: statement.subscription_id,
        periodStart: new Date(statement.period_start),
        now: now(),
      }),
  };
  return {
    statementKey: async (request) => {
      const tenant = { orgId: request.pathParams['orgId'] ?? '', appId: request.pathParams['appId'] ?? '' };
      // Every pair of ids has a key; only an app's is published.
      if (!(await deps.apps.getApp(tenant.orgId, tenant.appId))) throw new NotFoundError(`There is no app ${tenant.appId} in the org ${tenant.orgId}`);
      const pair = statementKeyPair(await deps.signingKey(), tenant);
      const key: StatementKey = {
        key_id: pair.keyId,
        algorithm: STATEMENT_SIGNATURE_ALGORITHM,
        public_key: pair.publicKeyRaw,
        public_key_pem: pair.publicKeyPem,
      };
      return { status: 200, body: key };
    },

    verifyStatement: async (request) => {
      const input = parseBody(StatementVerificationInput, readObjectBody(request));
      return { status: 200, body: await verifyStatement(verification, input.statement, input.event_digests) };
    },
  };
}
