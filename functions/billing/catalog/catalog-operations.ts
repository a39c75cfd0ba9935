import { PlanInput, PlanUpdate, PriceInput, PriceUpdate } from '../../../schemas/billing/catalog';
import { appRulesPartition, PLAN_PREFIX, PRICE_PREFIX } from '../../resources/keys';
import { contextOf, crudOperations, type CrudKind, type ResourceContext } from '../../resources/crud-operations';
import { namedOperations, type ResourceOperationTable } from '../../resources/resource-deps';
import type { ResourceStore, StoredDocument } from '../../resources/resource-store';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors';
import type { Operation } from '../../shared/http/handler';
import { parseBody } from '../../shared/invalid-input';

export { PLAN_PREFIX, PRICE_PREFIX };
/** A plan's prices are listed with it; a plan with more is a data-entry mistake, not a catalog. */
const MAX_PRICES_PER_PLAN = 1000;

export interface CatalogDeps {
  readonly resources: ResourceStore;
  readonly now?: () => Date;
}

/** The API's view of a catalog item: `id`, `created_at`, `updated_at` (the original service's names). */
function catalogDocument(stored: StoredDocument): Record<string, unknown> {
  const { _id, modified_at, org_id: _org, app_id: _app, ...rest } = stored;
  return { id: _id, ...rest, updated_at: modified_at };
}

/** Fields the API shows but the service sets: an update may echo them unchanged. */
const CATALOG_READ_ONLY = ['id', 'created_at', 'updated_at', 'org_id', 'app_id', '_id', 'modified_at'];

const providerFilter = (query: Readonly<Record<string, string>>) =>
  query.provider && query.provider !== 'all' ? { attribute: 'provider', value: query.provider } : undefined;

/**
 * The product catalog: `/~/billing/catalog/plans` and `/~/billing/catalog/prices` (per app). Prices
 * belong to a plan of the same app and provider; they are what billing reports compute `amount` with.
 * Updates use PUT as the original service does (POST is accepted as an alias).
 */
export function catalogOperations(deps: CatalogDeps): ResourceOperationTable {
  const store = deps.resources;
  const at = (ctx: ResourceContext, prefix: string) => ({ partition: appRulesPartition(ctx.orgId, ctx.appId), prefix });

  const pricesOf = async (ctx: ResourceContext, planId: string): Promise<StoredDocument[]> => {
    const page = await store.list(at(ctx, PRICE_PREFIX), { take: MAX_PRICES_PER_PLAN, where: { attribute: 'plan_id', value: planId } });
    return page.items.map((item) => item.document);
  };

  const checkPlanOf = async (ctx: ResourceContext, price: { plan_id: string; provider: string }): Promise<void> => {
    let plan: StoredDocument;
    try {
      plan = await store.get(at(ctx, PLAN_PREFIX), price.plan_id, 'plan');
    } catch (error) {
      if (error instanceof NotFoundError || (error as { status?: number }).status === 410) {
        throw new ValidationError(`plan_id ${price.plan_id} is not a plan of this app`, [{ field: 'plan_id', reason: 'no such plan' }]);
      }
      throw error;
    }
    if (plan.provider !== price.provider) {
      throw new ValidationError(`The plan belongs to provider ${String(plan.provider)}, not ${price.provider}`, [
        { field: 'provider', reason: `must match the plan's provider (${String(plan.provider)})` },
      ]);
    }
  };

  const planKind: CrudKind<PlanInput, PlanUpdate> = {
    noun: 'plan',
    prefix: PLAN_PREFIX,
    idParam: 'id',
    createSchema: PlanInput,
    updateSchema: PlanUpdate,
    readOnly: CATALOG_READ_ONLY,
    immutable: ['provider'],
    chosenId: (input) => input.id,
    toStored: ({ id: _chosen, ...input }, _ctx, system) => ({ ...system, ...input }),
    present: catalogDocument,
    listFilter: providerFilter,
  };

  const priceKind: CrudKind<PriceInput, PriceUpdate> = {
    noun: 'price',
    prefix: PRICE_PREFIX,
    idParam: 'id',
    createSchema: PriceInput,
    updateSchema: PriceUpdate,
    readOnly: CATALOG_READ_ONLY,
    immutable: ['plan_id', 'provider'],
    chosenId: (input) => input.id,
    toStored: async ({ id: _chosen, ...input }, ctx, system) => {
      await checkPlanOf(ctx, input);
      return { ...system, ...input };
    },
    // The merged price is validated as a whole: a change of model must bring what the model needs.
    applyUpdate: (current, input) => {
      const { _id, org_id, app_id, created_at, modified_at, ...fields } = current;
      const merged = parseBody(PriceInput, { ...fields, ...stripUndefined(input) });
      return { _id, org_id, app_id, created_at, modified_at, ...merged };
    },
    present: catalogDocument,
    listFilter: (query) => providerFilter(query) ?? (query.plan_id ? { attribute: 'plan_id', value: query.plan_id } : undefined),
  };

  const now = deps.now ?? (() => new Date());
  // A record synced in from a provider is the provider's: a change here would be undone by the next sync.
  const unlessSynced =
    <C>(prefix: string, noun: string, operation: Operation<C>): Operation<C> =>
    async (request, caller) => {
      const ctx = contextOf(request, caller as never, now());
      const id = request.pathParams.id ?? '';
      const current = await store.get(at(ctx, prefix), id, noun).catch(() => undefined);
      const from = current?.synced_from as { provider?: string } | undefined;
      if (from?.provider)
        throw new ConflictError(`The ${noun} ${id} is synced from ${providerTitle(from.provider)}: change it there, and the next sync brings the change here`);
      return operation(request, caller);
    };
  const plans = crudOperations(planKind, { store, now: deps.now });
  const prices = crudOperations(priceKind, { store, now: deps.now });

  return {
    ...namedOperations('catalogPlans', {
      ...plans,
      // `includes=prices` embeds each plan's prices, as the original service's clients ask for.
      async list(request, caller) {
        const result = await plans.list(request, caller);
        if (!request.query.includes?.split(',').includes('prices')) return result;
        const ctx = contextOf(request, caller, now());
        const body = await Promise.all(
          (result.body as Record<string, unknown>[]).map(async (plan) => ({ ...plan, prices: (await pricesOf(ctx, String(plan.id))).map(catalogDocument) })),
        );
        return { ...result, body };
      },
      async get(request, caller) {
        const result = await plans.get(request, caller);
        const ctx = contextOf(request, caller, now());
        const plan = result.body as Record<string, unknown>;
        return { ...result, body: { ...plan, prices: (await pricesOf(ctx, String(plan.id))).map(catalogDocument) } };
      },
      update: unlessSynced(PLAN_PREFIX, 'plan', plans.update),
      // A plan with prices is not deleted: its prices would point at nothing.
      delete: unlessSynced(PLAN_PREFIX, 'plan', async (request, caller) => {
        const ctx = contextOf(request, caller, now());
        const id = request.pathParams.id ?? '';
        const remaining = await pricesOf(ctx, id);
        if (remaining.length > 0) {
          throw new ValidationError(`The plan still has ${remaining.length} price(s); delete them first`, [
            { field: 'id', reason: `plan has ${remaining.length} price(s)` },
          ]);
        }
        return plans.delete(request, caller);
      }),
    }),
    ...namedOperations('catalogPrices', {
      ...prices,
      update: unlessSynced(PRICE_PREFIX, 'price', prices.update),
      delete: unlessSynced(PRICE_PREFIX, 'price', prices.delete),
    }),
  };
}

const PROVIDER_TITLES: Record<string, string> = { stripe: 'Stripe', chargebee: 'Chargebee', recurly: 'Recurly', zuora: 'Zuora' };
const providerTitle = (provider: string) => PROVIDER_TITLES[provider] ?? provider;

function stripUndefined(input: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
}
