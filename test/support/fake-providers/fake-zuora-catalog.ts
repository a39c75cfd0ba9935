import type { FakeReply, FakeRequest } from './fake-server';

/**
 * What the fake Zuora holds besides usage: product rate plans, their charges (with tiers), accounts
 * and subscriptions (with their account and rate plan charges), listed as the Object Query API lists
 * them (`GET /object-query/<list>?pageSize=` up to 99, `cursor`, `{data, nextPage}`) and read one at
 * a time (`GET /object-query/<list>/{key}`).
 */

type ZuoraObject = Record<string, unknown> & { id: string };
const LISTS = ['product-rate-plans', 'product-rate-plan-charges', 'accounts', 'subscriptions'] as const;
export type ZuoraListKind = (typeof LISTS)[number];

export class FakeZuoraCatalog {
  private readonly objects = new Map<ZuoraListKind, Map<string, ZuoraObject>>(LISTS.map((kind) => [kind, new Map()]));

  put(kind: ZuoraListKind, object: ZuoraObject): ZuoraObject {
    this.objects.get(kind)!.set(object.id, object);
    return object;
  }

  list(request: FakeRequest): FakeReply | undefined {
    const match = /^\/object-query\/([a-z-]+)(?:\/([^/]+))?$/.exec(request.path);
    const kind = match?.[1] as ZuoraListKind | undefined;
    if (request.method !== 'GET' || !kind || !this.objects.has(kind)) return undefined;
    const all = this.objects.get(kind)!;
    if (match![2] !== undefined) {
      const key = decodeURIComponent(match![2]);
      const found = all.get(key) ?? [...all.values()].find((o) => o['subscriptionNumber'] === key || o['accountNumber'] === key);
      return found ? { status: 200, body: found } : { status: 404, body: { reasons: [{ code: 'OBJECT_NOT_FOUND', message: `${kind} ${key} was not found` }] } };
    }
    const pageSize = Number(request.query.get('pageSize') ?? 10);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 99)
      return { status: 400, body: { reasons: [{ code: 'INVALID_VALUE', message: 'pageSize must be between 1 and 99' }] } };
    const start = Number(request.query.get('cursor') ?? 0);
    const items = [...all.values()];
    const more = start + pageSize < items.length;
    return { status: 200, body: { data: items.slice(start, start + pageSize), nextPage: more ? String(start + pageSize) : null } };
  }
}

/** Zuora-shaped objects for tests: only what differs from one to the next is given. */
export const zuoraObjects = {
  ratePlan: (id: string, name: string): ZuoraObject => ({ id, name, productId: `prod-${id}`, status: 'Active' }),
  charge: (id: string, ratePlanId: string, fields: Record<string, unknown>): ZuoraObject => ({
    id,
    name: id,
    productRatePlanId: ratePlanId,
    chargeType: 'Usage',
    chargeModel: 'PerUnit',
    uom: 'API Calls',
    ...fields,
  }),
  account: (id: string, accountNumber: string, name: string): ZuoraObject => ({ id, accountNumber, name, status: 'Active' }),
  subscription: (
    id: string,
    number: string,
    accountNumber: string,
    charges: readonly { ratePlanId: string; chargeId: string; chargeNumber: string }[],
    status = 'Active',
  ): ZuoraObject => ({
    id,
    subscriptionNumber: number,
    status,
    account: { accountNumber },
    ratePlans: charges.map((c) => ({
      productRatePlanId: c.ratePlanId,
      ratePlanCharges: [{ chargeNumber: c.chargeNumber, productRatePlanChargeId: c.chargeId }],
    })),
  }),
};
