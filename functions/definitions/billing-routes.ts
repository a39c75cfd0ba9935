import { manage, open, type RouteDefinition } from './route-types';

/** The route table's billing section: catalog, balances, reports, channels and meters (routes.ts). */
export const billingRoutes: readonly RouteDefinition[] = [
  // ── Billing: product catalog (the original's create/read/update/delete:plans|prices scopes are not in the spec's list: reports scopes stand in) ──
  manage('GET', '/~/billing/catalog/plans', 'catalogPlans.list', 'read:reports', 'List catalog plans (`provider`, `includes=prices`)'),
  manage('POST', '/~/billing/catalog/plans', 'catalogPlans.create', 'create:reports', 'Create a catalog plan'),
  manage('GET', '/~/billing/catalog/plans/{id}', 'catalogPlans.get', 'read:reports', 'One catalog plan with its prices'),
  manage('PUT', '/~/billing/catalog/plans/{id}', 'catalogPlans.update', 'create:reports', 'Update a catalog plan'),
  manage('POST', '/~/billing/catalog/plans/{id}', 'catalogPlans.update', 'create:reports', 'Update a catalog plan (POST alias)'),
  manage('DELETE', '/~/billing/catalog/plans/{id}', 'catalogPlans.delete', 'delete:reports', 'Delete a catalog plan without prices'),
  manage('GET', '/~/billing/catalog/prices', 'catalogPrices.list', 'read:reports', 'List catalog prices (`provider`, `plan_id`)'),
  manage('POST', '/~/billing/catalog/prices', 'catalogPrices.create', 'create:reports', 'Create a catalog price for a plan'),
  manage('GET', '/~/billing/catalog/prices/{id}', 'catalogPrices.get', 'read:reports', 'One catalog price'),
  manage('PUT', '/~/billing/catalog/prices/{id}', 'catalogPrices.update', 'create:reports', 'Update a catalog price'),
  manage('POST', '/~/billing/catalog/prices/{id}', 'catalogPrices.update', 'create:reports', 'Update a catalog price (POST alias)'),
  manage('DELETE', '/~/billing/catalog/prices/{id}', 'catalogPrices.delete', 'delete:reports', 'Delete a catalog price'),

  // ── Billing: sync in from a provider ──
  manage(
    'POST',
    '/~/billing/providers/{provider}/sync',
    'requestProviderSync',
    'create:reports',
    "Bring the provider's products, prices, customers and subscriptions in (a sync from the start; the one running is left to finish)",
  ),
  manage(
    'GET',
    '/~/billing/providers/{provider}/sync',
    'getProviderSync',
    'read:reports',
    "The app's sync with the provider: progress, counts, what was left out",
  ),
  // The provider holds no token: the event's signature with the endpoint's secret is the credential.
  {
    api: 'management',
    method: 'POST',
    path: '/public/providers/{provider}/webhooks/{orgId}/{appId}',
    lambda: 'management',
    operation: 'providerWebhook',
    auth: open,
    summary: "The provider's signed webhook events (Stripe: product.*, price.*, customer.*, customer.subscription.*), keeping synced records current",
  },

  // ── Billing: price simulation ──
  manage('POST', '/~/billing/simulations', 'simulatePrice', 'read:reports', "A meter's past periods priced under another catalog price, per subscription"),
  manage(
    'POST',
    '/~/billing/plan-change-previews',
    'previewPlanChange',
    'read:reports',
    "A subscription's current period priced as kept and as moved to another price now",
  ),

  // ── Billing: reconcile out ──
  manage(
    'POST',
    '/~/billing/meters/{meterId}/reconciliation',
    'reconcileMeter',
    'create:reports',
    "Read back what the meter's provider holds for every reported subscription this period, and compare with what was reported",
  ),
  manage(
    'GET',
    '/~/billing/meters/{meterId}/reconciliation',
    'getMeterReconciliation',
    'read:reports',
    "The meter's last reconciliation: matched, drift, unknown",
  ),
  manage(
    'POST',
    '/~/billing/meters/{meterId}/reconciliation/corrections',
    'correctMeterDrift',
    'create:reports',
    'Send the drift found now to the provider as one correction per subscription and period, then compare again',
  ),

  // ── Billing: completeness before close ──
  manage(
    'GET',
    '/~/billing/meters/{meterId}/completeness',
    'getMeterCompleteness',
    'read:reports',
    "The meter's grace period, how late its events arrive, which windows are final, in grace or open, and the late corrections after final",
  ),
  manage(
    'POST',
    '/~/billing/meters/{meterId}/completeness',
    'measureMeterLateness',
    'create:reports',
    "Measure how late the meter's events arrive now (else measured once a day), then answer its completeness",
  ),

  // ── Billing: balances ──
  manage(
    'POST',
    '/~/billing/reports/balance_transactions',
    'createBalanceTransaction',
    'create:reports',
    "Record a credit, debit, promotion or adjustment on a subscription's balance (idempotent per transaction_id)",
  ),
  manage(
    'GET',
    '/~/billing/reports/balance_transactions',
    'listBalanceTransactions',
    'read:reports',
    "A subscription's balance ledger, newest first (subscription_id, take, before_id)",
  ),
  manage('GET', '/~/billing/reports/balances', 'listBalances', 'read:reports', 'Credit balances by subscription_id or company_id'),

  // ── Billing: reports and channels (read → read:reports, create/update → create:reports, delete → delete:reports) ──
  manage(
    'GET',
    '/~/billing/channels',
    'billingChannels.list',
    'read:reports',
    'List webhook channels (newest first; status, take, before_id); secrets are never shown',
  ),
  manage('POST', '/~/billing/channels', 'billingChannels.create', 'create:reports', 'Create a webhook channel; the answer shows its signing secret once'),
  manage('GET', '/~/billing/channels/{channelId}', 'billingChannels.get', 'read:reports', 'One webhook channel'),
  manage(
    'POST',
    '/~/billing/channels/{channelId}',
    'billingChannels.update',
    'create:reports',
    'Update a webhook channel (secret / rotate_secret: the previous secret signs for 24 h more)',
  ),
  manage('PUT', '/~/billing/channels/{channelId}', 'billingChannels.update', 'create:reports', 'Update a webhook channel (alias of POST)'),
  manage('DELETE', '/~/billing/channels/{channelId}', 'billingChannels.delete', 'delete:reports', 'Delete a webhook channel'),
  manage(
    'POST',
    '/~/billing/meters/{meterId}/webhooks/channels/test',
    'billingChannels.test',
    'create:reports',
    "Send a signed test event to the meter's webhook channels (or body channel_id); answers each channel's request record",
  ),
  manage(
    'GET',
    '/~/billing/reports',
    'billingReports.list',
    'read:reports',
    'List billing reports, newest window first (from, to, time_zone, billing_meter_id, company_id, subscription_id, provider, success, status, type, take, before_id)',
  ),
  manage(
    'GET',
    '/~/billing/reports/metrics',
    'billingReports.metrics',
    'read:reports',
    'Billing metrics: buckets of usage, amounts and ending balances (from, to, aggregator, interval, group_by, time_zone, filters)',
  ),
  manage('GET', '/~/billing/reports/{reportId}', 'billingReports.get', 'read:reports', 'One billing report'),
  manage(
    'GET',
    '/~/billing/reports/{reportId}/explain',
    'billingReports.explain',
    'read:reports',
    "Re-run a report's usage query: recomputed usage, the query, sample event ids",
  ),
];
