import { randomUUID } from 'node:crypto';

const routes = ['/v1/orders', '/v1/orders/123', '/v1/customers', '/v1/customers/42/invoices', '/v2/search', '/v1/items', '/health'];
const verbs = ['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE'];
const statuses = [200, 200, 200, 200, 201, 204, 400, 401, 404, 500];

/** What a caller may choose of a realistic call; the rest follows from its ordinal. */
export interface CallChoices {
  readonly requestTime?: string;
  readonly uri?: string;
  readonly verb?: string;
  readonly responseTime?: string;
  readonly status?: number;
  readonly transactionId?: string;
}

/**
 * A realistic API call (~1 KB) as an SDK sends it: headers, small JSON bodies, ids, metadata. What
 * `chosen` gives is not computed (the search data set draws it, for millions of calls).
 */
export function realisticEvent(i: number, at: Date = new Date(), chosen: CallChoices = {}): Record<string, unknown> {
  const startMs = at.getTime() - (i % 1000);
  return {
    request: {
      time: chosen.requestTime ?? new Date(startMs).toISOString(),
      uri: chosen.uri ?? `https://api.example.com${routes[i % routes.length]!}?page=${i % 10}&limit=50`,
      verb: chosen.verb ?? verbs[i % verbs.length],
      api_version: '2024-06-01',
      ip_address: `198.51.100.${i % 255}`,
      headers: {
        host: 'api.example.com',
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer sk_live_${(i % 500).toString(36).padStart(8, '0')}`,
        'x-request-id': `req_${i}`,
      },
      body: { query: 'status:open', filters: { region: 'eu-west-1', tags: ['a', 'b'] }, page: i % 10 },
      transfer_encoding: 'json',
    },
    response: {
      time: chosen.responseTime ?? new Date(startMs + 20 + (i % 300)).toISOString(),
      status: chosen.status ?? statuses[i % statuses.length],
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-ratelimit-remaining': String(1000 - (i % 1000)) },
      body: { id: i, object: 'order', amount: (i % 97) * 100, currency: 'usd', items: [{ sku: `sku_${i % 40}`, qty: 1 + (i % 3) }] },
      transfer_encoding: 'json',
    },
    transaction_id: chosen.transactionId ?? randomUUID(),
    user_id: `user_${i % 5000}`,
    company_id: `company_${i % 2000}`,
    session_token: `sess_${i % 800}`,
    direction: 'Incoming',
    metadata: { plan: i % 2 ? 'pro' : 'free', region: 'eu', feature_flags: ['new_checkout'] },
  };
}

export function realisticBatch(size: number, at: Date = new Date()): Record<string, unknown>[] {
  return Array.from({ length: size }, (_, i) => realisticEvent(i, at));
}
