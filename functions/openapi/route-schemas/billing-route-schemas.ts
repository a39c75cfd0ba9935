import * as z from 'zod';
import { ProviderSync, SyncedFrom } from '../../../schemas/billing/provider-sync';
import { MeterCompleteness } from '../../../schemas/billing/completeness';
import { PriceSimulation, PriceSimulationRequest } from '../../../schemas/billing/price-simulation';
import { PlanChangePreview, PlanChangePreviewRequest } from '../../../schemas/billing/plan-change';
import { DriftCorrectionOutcome, DriftCorrectionRequest, Reconciliation } from '../../../schemas/billing/reconciliation';
import { BalanceEntry, BalanceTransactionCreate, MAX_BALANCE_ID_LENGTH, SubscriptionBalance } from '../../../schemas/billing/balance';
import { PlanInput, PlanUpdate, PriceFields, PriceInput, PriceUpdate } from '../../../schemas/billing/catalog';
import { ChannelCreate, ChannelStatus, ChannelTestRequest, ChannelUpdate, StoredChannel } from '../../../schemas/billing/channel';
import { BillingReportAnswer } from '../../../schemas/billing/report';
import { ReportMetricsParams } from '../../billing/reports/report-metrics';
import { ReportListParams } from '../../billing/reports/report-query';
import { ReportExplain, ReportMetrics } from '../report-answers';
import { ChannelTestOutcome } from '../response-schemas';
import { crud, named, NEXT_PAGE, ListQuery, type RouteSchema } from './route-schema';

/** The billing catalog, channels, reports and balances. */
// ── Management: billing catalog ──

/** What the service adds to a catalog item's fields (the original service's names). */
const CATALOG_STAMP = {
  id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  synced_from: named('SyncedFrom', SyncedFrom)
    .optional()
    .meta({ description: 'Set when the item was synced in from a provider: it is changed there, not here (409).' }),
};

/** A price as the API answers it: its create body's fields as stored (aliases resolved, defaults filled). */
export const CatalogPrice = named(
  'CatalogPrice',
  z
    .looseObject({
      ...PriceFields.shape,
      pricing_model: z.enum(['per_unit', 'package', 'volume', 'graduated']).meta({ description: 'The pricing model, aliases resolved.' }),
      currency: z.string().meta({ description: 'ISO 4217 code, lower case.' }),
      ...CATALOG_STAMP,
    })
    .meta({ description: 'A catalog price: the fields of its create body as stored, plus id, created_at and updated_at.' }),
);

/** A plan as the API answers it; `prices` only where the request asked for them (`includes=prices`) and in the get. */
export const CatalogPlan = named(
  'CatalogPlan',
  z
    .looseObject({ ...PlanInput.shape, ...CATALOG_STAMP, prices: z.array(CatalogPrice).optional() })
    .meta({ description: 'A catalog plan: the fields of its create body as stored, plus id, created_at and updated_at.' }),
);

export const catalogSchemas: Record<string, RouteSchema> = {
  ...crud('catalogPlans', {
    noun: 'catalog plan',
    plural: 'catalog plans',
    idParam: 'id',
    create: named('PlanInput', PlanInput),
    update: named('PlanUpdate', PlanUpdate),
    document: CatalogPlan,
    filters: z.object({
      provider: z.string().optional().meta({ description: 'Only plans of this provider (`all`: every provider).' }),
      includes: z.string().optional().meta({ description: "`prices` embeds each plan's prices." }),
    }),
    updateNote: 'provider must be unchanged.',
    createConflicts: true,
  }),
  ...crud('catalogPrices', {
    noun: 'catalog price',
    plural: 'catalog prices',
    idParam: 'id',
    create: named('PriceInput', PriceInput),
    update: named('PriceUpdate', PriceUpdate),
    document: CatalogPrice,
    filters: z.object({
      provider: z.string().optional().meta({ description: 'Only prices of this provider (`all`: every provider).' }),
      plan_id: z.string().optional().meta({ description: 'Only prices of this plan.' }),
    }),
    updateNote: 'plan_id and provider must be unchanged; the merged price is validated as a whole.',
    createConflicts: true,
  }),
};
// The catalog's get embeds the plan's prices.
catalogSchemas['catalogPlans.get'] = {
  ...catalogSchemas['catalogPlans.get']!,
  description: 'One catalog plan with its prices.',
  response: CatalogPlan.extend({ prices: z.array(CatalogPrice) }),
};
catalogSchemas['catalogPlans.delete'] = {
  ...catalogSchemas['catalogPlans.delete']!,
  description: 'Deletes a catalog plan that has no prices (a 400 names the plan otherwise); afterwards its id answers 410.',
  errors: [...(catalogSchemas['catalogPlans.delete']!.errors ?? []), 400],
};
// A plan or price synced in from a provider is changed at the provider: 409 names it.
for (const name of ['catalogPlans.update', 'catalogPlans.delete', 'catalogPrices.update', 'catalogPrices.delete']) {
  const schema = catalogSchemas[name]!;
  const errors = schema.errors ?? [];
  catalogSchemas[name] = { ...schema, errors: errors.includes(409) ? errors : [...errors, 409] };
}

// ── Management: billing webhook channels (helper P) ──

/** A channel as the API shows it: never its secret, only a hint (the create or rotate answer adds the new secret once). */
export const ChannelSchema = named(
  'Channel',
  StoredChannel.omit({ secret: true, previous_secret: true }).extend({
    secret_hint: z.string().meta({ description: "The secret's last four characters." }),
    secret: z.string().optional().meta({ description: 'Only in the answer that created the channel or set / rotated its secret.' }),
  }),
);

export const channelSchemas: Record<string, RouteSchema> = {
  ...crud('billingChannels', {
    noun: 'webhook channel',
    plural: 'webhook channels',
    idParam: 'channelId',
    create: named('ChannelCreate', ChannelCreate),
    update: named('ChannelUpdate', ChannelUpdate),
    document: ChannelSchema,
    filters: z.object({ status: ChannelStatus.optional() }),
    updateNote: 'A new secret (or rotate_secret: true) keeps the previous one signing for 24 h.',
  }),
  'billingChannels.test': {
    description:
      "Sends a signed billing.test event to each channel of the meter's webhook_params.channel_ids (or the body's channel_id), as usage deliveries are sent, and answers each channel's request record.",
    params: { meterId: "The billing meter's id." },
    body: ChannelTestRequest,
    bodyOptional: true,
    responseStatus: 200,
    response: z.object({
      billing_meter_id: z.string(),
      event_id: z.string(),
      success: z.boolean().meta({ description: 'Every channel answered 2xx.' }),
      channel_requests: z.array(ChannelTestOutcome),
    }),
    errors: [404, 410],
  },
};

// ── Management: billing reports (helper P) ──

export const BillingReportSchema = named('BillingReport', BillingReportAnswer);

export const reportSchemas: Record<string, RouteSchema> = {
  'billingReports.list': {
    description:
      'Billing reports whose window overlaps [from, to) (relative and zoned dates as in search; default: everything up to now), newest window first, filtered by the other parameters (status: comma-separated).',
    query: ReportListParams,
    responseStatus: 200,
    response: z.array(BillingReportSchema),
    responseHeaders: NEXT_PAGE,
  },
  'billingReports.get': {
    description: 'One billing report.',
    params: { reportId: "The report's _id." },
    responseStatus: 200,
    response: BillingReportSchema,
    errors: [404],
  },
  'billingReports.metrics': {
    description:
      'Buckets of the reports in [from, to) (default the last month): the aggregator over meter_usage, amounts per currency and the ending credit balance; with group_by, one series per value.',
    query: ReportMetricsParams,
    responseStatus: 200,
    response: named('BillingMetrics', ReportMetrics),
  },
  'billingReports.explain': {
    runsQuery: true,
    description:
      "Re-runs a report's usage query for its window and subscription through the search index: the recomputed usage, whether it matches, the exact query, and sample events.",
    params: { reportId: "The report's _id." },
    responseStatus: 200,
    response: named('ReportExplanation', ReportExplain),
    errors: [404],
  },
};

// ── Management: sync in from a provider ──

const SyncPath = { provider: 'The provider to sync from: stripe (another answers 404).' };
const ProviderSyncSchema = named('ProviderSync', ProviderSync);

export const syncSchemas: Record<string, RouteSchema> = {
  requestProviderSync: {
    description:
      "Asks for a sync from the provider (the app's connection in the billing providers secret): products become catalog plans, prices catalog prices, customers companies, subscriptions subscriptions, each marked `synced_from`. It runs in the background (locally at once, on AWS with the next billing run), page by page, resumable; once complete the sweep reads everything again every 6 hours. A sync already running is answered as it is.",
    params: SyncPath,
    responseStatus: 202,
    response: ProviderSyncSchema,
    errors: [404],
  },
  getProviderSync: {
    description: "The app's sync with the provider: its status and phase, counts per kind, what was left out and why, when the sweep runs next.",
    params: SyncPath,
    responseStatus: 200,
    response: ProviderSyncSchema,
    errors: [404],
  },
  providerWebhook: {
    description:
      "Where the provider sends its webhook events. Stripe: register this URL with the events product.*, price.*, customer.* and customer.subscription.*, and put the endpoint's signing secret in the app's connection as webhook_secret (Stripe-Signature, within 5 minutes). Recurly: a JSON webhook endpoint with account and subscription events, its secret as the connection's webhook_secret (recurly-signature, within 5 minutes). Chargebee: a webhook with basic authentication whose password is the connection's webhook_secret. Zuora: a callout notification with basic authentication (password: webhook_secret) whose body is {event, subscription_number | account_number | product_rate_plan_charge_id | product_rate_plan_id}; its Zuora-Notification-Id header is the event id. 401 with WWW-Authenticate when basic authentication is missing or wrong. An event is taken once per event id; the object it names is read from the provider as it is now and written as the sync writes it, so repeated, late or out-of-order events leave the record as the provider has it. 404 when the app has no webhook secret for the provider.",

    params: { ...SyncPath, orgId: "The app's organisation.", appId: 'The app.' },
    body: named(
      'ProviderWebhookEvent',
      z.union([
        z.looseObject({ id: z.string(), type: z.string(), created: z.number().int(), data: z.looseObject({ object: z.looseObject({ id: z.string() }) }) }),
        z.looseObject({ id: z.string(), object_type: z.string(), event_type: z.string() }),
        z.looseObject({ id: z.string(), event_type: z.string(), content: z.looseObject({}) }),
        z.looseObject({
          event: z.string(),
          subscription_number: z.string().optional(),
          account_number: z.string().optional(),
          product_rate_plan_charge_id: z.string().optional(),
          product_rate_plan_id: z.string().optional(),
        }),
      ]),
    ),
    responseStatus: 200,
    response: named(
      'ProviderWebhookOutcome',
      z.object({ received: z.literal(true), event_id: z.string(), outcome: z.enum(['applied', 'duplicate', 'ignored']) }),
    ),
    errors: [400, 401, 404, 503],
  },
};

// ── Management: reconcile out ──

const ReconciliationSchema = named('Reconciliation', Reconciliation);

export const reconcileSchemas: Record<string, RouteSchema> = {
  reconcileMeter: {
    description:
      "Reads back what Stripe holds for each subscription the meter has reported this period (the meter's event summaries for the subscription's customer over the period) and compares it with the run's period-to-date total: matched, drift (by how much, since when) or unknown (why). Meters reporting to Stripe only, so far.",
    params: { meterId: 'The billing meter.' },
    responseStatus: 200,
    response: ReconciliationSchema,
    errors: [400, 404],
  },
  getMeterReconciliation: {
    description: "The meter's last reconciliation.",
    params: { meterId: 'The billing meter.' },
    responseStatus: 200,
    response: ReconciliationSchema,
    errors: [404],
  },
  correctMeterDrift: {
    description:
      "Compares the meter with Stripe again, then sends each drifting subscription's difference (reported − held) as one meter event dated at its period's start, with an idempotency key per subscription, period and correction version (a retried action is taken once). Answers what was sent and the comparison made afterwards. At most the 500 largest drifts a call; only whole differences.",
    params: { meterId: 'The billing meter.' },
    body: named('DriftCorrectionRequest', DriftCorrectionRequest),
    responseStatus: 200,
    response: named('DriftCorrectionOutcome', DriftCorrectionOutcome),
    errors: [400, 404],
  },
};

// ── Management: price simulation ──

export const simulationSchemas: Record<string, RouteSchema> = {
  simulatePrice: {
    description:
      "Prices a meter's past usage under another catalog price (any status: a draft price need not be live): for each subscription (of one company, of one catalog plan, or every one the meter bills), each billing period that ended within [from, to), with the usage the run reported for it (late corrections included), the amount it was billed at its own catalog price, and the amount under the price tried; per subscription and in total, with the difference. Both amounts are one computation (exact tiers, the period total rounded once to the currency), so trying a subscription's own price reproduces what it was billed to the cent. Subscriptions whose price is in another currency are listed apart. 400 naming the field for an unknown price, a meter without a catalog price, or a range that is not past.",
    body: named('PriceSimulationRequest', PriceSimulationRequest),
    responseStatus: 200,
    response: named('PriceSimulation', PriceSimulation),
    errors: [404],
  },
};

export const planChangeSchemas: Record<string, RouteSchema> = {
  previewPlanChange: {
    description:
      "Previews moving a subscription's metered usage to another catalog price now. Each meter's usage this period, as the customer page estimates it (so far, and at the rate so far to the period's end), is priced as kept (the whole estimate at the current price) and as changed now: the usage so far at the current price, tiers counted from the period's start, plus the rest at the new price, tiers counted from the change. Usage is not prorated by time; each unit costs the price in force when it was used. Meters billed in another currency, or priced by a provider, are listed under left_out. 404 for an unknown subscription; 400 naming the field for an unknown price or a subscription without a period now.",
    body: named('PlanChangePreviewRequest', PlanChangePreviewRequest),
    responseStatus: 200,
    response: named('PlanChangePreview', PlanChangePreview),
    errors: [404],
  },
};

// ── Management: completeness before close ──

const MeterCompletenessSchema = named('MeterCompleteness', MeterCompleteness);

export const completenessSchemas: Record<string, RouteSchema> = {
  getMeterCompleteness: {
    description:
      "Where the meter's data stands: the grace period its windows wait after they close before their first report (set by billing_plan.params.grace_period_minutes, else chosen from the lateness observed, else 6 minutes), the lateness last measured (events by how long after their time they arrived, over the last 7 days, the app's and the meter's), which windows are final, in grace or open, and the late corrections made after a billing period was final.",
    params: { meterId: 'The billing meter.' },
    responseStatus: 200,
    response: MeterCompletenessSchema,
    errors: [400, 404],
  },
  measureMeterLateness: {
    description:
      "Measures how late the meter's events arrive now (one aggregation over 7 days of its events, one over the app's), keeps it, and answers the meter's completeness.",
    params: { meterId: 'The billing meter.' },
    responseStatus: 200,
    response: MeterCompletenessSchema,
    errors: [400, 404],
  },
};

// ── Management: credit balances ──

const BalanceId = z.string().min(1).max(MAX_BALANCE_ID_LENGTH);

export const balanceSchemas: Record<string, RouteSchema> = {
  createBalanceTransaction: {
    description:
      "Records a credit, debit, promotion or adjustment on a subscription's balance. Idempotent per transaction_id: repeating an identical one answers 204 again.",
    body: named('BalanceTransactionCreate', BalanceTransactionCreate),
    responseStatus: 204,
  },
  listBalanceTransactions: {
    description: "A subscription's balance ledger, newest first.",
    query: z.object({
      subscription_id: BalanceId.meta({ description: 'The subscription whose ledger to list.' }),
      take: ListQuery.shape.take,
      before_id: z
        .string()
        .regex(/^[1-9][0-9]{0,11}$/)
        .optional()
        .meta({ description: 'The x-next-before-id (a sequence_id) of the previous page.' }),
    }),
    responseStatus: 200,
    response: z.array(named('BalanceEntry', BalanceEntry)),
    responseHeaders: NEXT_PAGE,
  },
  listBalances: {
    description: 'Credit balances of one subscription or of every subscription of a company (give subscription_id or company_id).',
    query: z.object({
      subscription_id: BalanceId.optional(),
      company_id: BalanceId.optional(),
    }),
    responseStatus: 200,
    response: z.array(named('SubscriptionBalance', SubscriptionBalance)),
  },
};
