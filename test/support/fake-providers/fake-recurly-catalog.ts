import { createHmac } from 'node:crypto';
import type { FakeReply, FakeRequest } from './fake-server';

/**
 * What the fake Recurly holds besides usage (API v3): plans, the site's add-ons, accounts and
 * subscriptions, listed as Recurly lists them (`GET /<list>?limit=` up to 200, `has_more`, `next`
 * naming the following page by an opaque `cursor`) and read one at a time (`GET /<list>/{id}`).
 */

type RecurlyObject = Record<string, unknown> & { id: string };
const KINDS = { plans: 'plan', add_ons: 'add_on', accounts: 'account', subscriptions: 'subscription' } as const;
export type RecurlyListKind = keyof typeof KINDS;

export class FakeRecurlyCatalog {
  private readonly objects: Record<RecurlyListKind, Map<string, RecurlyObject>> = {
    plans: new Map(),
    add_ons: new Map(),
    accounts: new Map(),
    subscriptions: new Map(),
  };

  put(kind: RecurlyListKind, object: RecurlyObject): RecurlyObject {
    const stored = { object: KINDS[kind], ...object };
    this.objects[kind].set(object.id, stored);
    return stored;
  }

  /** A GET of a list or of one object, or undefined when the request is neither. */
  list(request: FakeRequest): FakeReply | undefined {
    const [kind, id, ...rest] = request.path.replace(/^\//, '').split('/') as [RecurlyListKind, string | undefined, ...string[]];
    if (request.method !== 'GET' || !(kind in this.objects) || rest.length > 0) return undefined;
    if (id !== undefined) {
      // Recurly takes `code-<code>` (plans, accounts) and `uuid-<uuid>` (subscriptions) beside ids.
      const key = decodeURIComponent(id);
      const found = key.startsWith('code-')
        ? [...this.objects[kind].values()].find((o) => o['code'] === key.slice(5))
        : key.startsWith('uuid-')
          ? [...this.objects[kind].values()].find((o) => o['uuid'] === key.slice(5))
          : this.objects[kind].get(key);
      return found
        ? { status: 200, body: found }
        : { status: 404, body: { error: { type: 'not_found', message: `Couldn't find ${KINDS[kind]} with id = ${id}` } } };
    }
    const limit = Number(request.query.get('limit') ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200)
      return { status: 400, body: { error: { type: 'invalid_request', message: 'limit must be 1 to 200' } } };
    const start = Number(request.query.get('cursor') ?? 0);
    const all = [...this.objects[kind].values()];
    const more = start + limit < all.length;
    return {
      status: 200,
      body: { object: 'list', has_more: more, next: more ? `/${kind}?limit=${limit}&cursor=${start + limit}` : null, data: all.slice(start, start + limit) },
    };
  }
}

/** Recurly-shaped objects for tests: only what differs from one to the next is given. */
export const recurlyObjects = {
  plan: (id: string, code: string, name: string): RecurlyObject => ({ id, code, name, state: 'active', currencies: [{ currency: 'USD', unit_amount: 10 }] }),
  addOn: (id: string, code: string, planId: string, fields: Record<string, unknown>): RecurlyObject => ({
    id,
    code,
    name: code,
    plan_id: planId,
    state: 'active',
    add_on_type: 'usage',
    usage_type: 'price',
    tier_type: 'flat',
    ...fields,
  }),
  account: (id: string, code: string, fields: Record<string, unknown> = {}): RecurlyObject => ({ id, code, state: 'active', ...fields }),
  subscription: (
    id: string,
    account: { id: string; code: string },
    plan: { id: string; code: string },
    addOns: readonly { id: string; code: string }[],
    period: { start: string; end: string },
    state = 'active',
  ): RecurlyObject => ({
    id,
    uuid: `uuid${id.replace(/[^a-z0-9]/gi, '')}`,
    state,
    account,
    plan,
    current_period_started_at: period.start,
    current_period_ends_at: period.end,
    created_at: period.start,
    add_ons: addOns.map((addOn) => ({ object: 'subscription_add_on', add_on: addOn })),
  }),
};

/** A webhook delivery as Recurly signs it: the JSON body and its recurly-signature header (a timestamp in ms, then the HMAC-SHA256 of `timestamp.body`). */
export function signedRecurlyEvent(secret: string, event: Record<string, unknown>, at: Date = new Date()): { body: string; signature: string } {
  const body = JSON.stringify(event);
  const timestamp = String(at.getTime());
  return { body, signature: `${timestamp},${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}` };
}
