import { Decimal } from '../../../values/decimal';
import { idempotencyKey } from '../../../functions/billing/providers/idempotency-key';
import type { ProviderClient, UsageReportRequest } from '../../../functions/billing/providers/provider-port';
import { deliverReports, MAX_DELIVERY_RUNS, type DeliveryDeps } from '../../../functions/billing/run/deliver-reports';
import { runMeterOf, type RunMeter } from '../../../functions/billing/run/run-meter';
import { SubscriptionDirectory, type KnownSubscription } from '../../../functions/billing/run/subscription-directory';
import { attribute, buildWindowReports } from '../../../functions/billing/run/window-reports';
import type { BillingReport } from '../../../schemas/billing/report';

/**
 * The key a delivery sends: a report the run just built carries its version's key for the meter's
 * primary destination, which delivery uses as it is; reports read back are keyed again (the meter's
 * destinations may have changed since they were stored).
 */
const HOUR = 3_600_000;
const tenant = { orgId: 'org1', appId: 'app1' };
const windowStart = new Date(Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR);
const window = { start: windowStart, end: new Date(windowStart.getTime() + HOUR) };
const subscription: KnownSubscription = {
  subscriptionId: 'sub-a',
  companyId: 'acme',
  status: 'active',
  periodStart: null,
  periodEnd: null,
  items: [{ price_id: 'price_1' }],
  createdAt: null,
  metadata: { stripe_customer_id: 'cus_acme' },
};
const directory = new SubscriptionDirectory(new Map([['sub-a', subscription]]));

function stripeMeter(): RunMeter {
  const m = runMeterOf({
    _id: 'm1',
    name: 'calls',
    created_at: '2026-01-01T00:00:00Z',
    es_query: '{"query":{"match_all":{}}}',
    billing_plan: { provider_slug: 'stripe', params: { stripe_params: { event_name: 'api_calls', price_id: 'price_1' } } },
  });
  if ('error' in m) throw new Error(m.error);
  return m;
}

describe('billing delivery: idempotency keys', () => {
  const meter = stripeMeter();
  const sent: string[] = [];
  const client: ProviderClient<never> = {
    provider: 'stripe',
    async report(request: UsageReportRequest<never>) {
      sent.push(request.idempotencyKey);
      return {
        success: true,
        duplicate: false,
        requests: [
          { job_id: request.idempotencyKey, request_time: new Date().toISOString(), success: true, status_code: 200, error_code: null, error_message: null },
        ],
      };
    },
  };
  const deps: DeliveryDeps = {
    tenant,
    meter,
    directory,
    providerClient: () => client,
    channelClients: new Map(),
    ledger: undefined,
    balances: undefined as never,
    concurrency: 2,
    webhookBatchSize: 500,
    webhookOptions: undefined,
    maxDeliveryRuns: MAX_DELIVERY_RUNS,
    now: () => new Date(),
  };
  const built = (): BillingReport =>
    buildWindowReports({
      tenant,
      meter,
      window,
      usage: attribute({ bySubscription: new Map([['sub-a', Decimal.from(7)]]), byCompany: new Map() }, directory, meter),
      previous: new Map(),
      totals: new Map(),
      pricing: undefined,
      directory,
      now: new Date(),
    }).reports[0]!;
  const expectedKey = idempotencyKey({
    orgId: 'org1',
    appId: 'app1',
    meterId: 'm1',
    subscriptionId: 'sub-a',
    windowStart: window.start,
    windowEnd: window.end,
    reportVersion: 1,
    destination: 'stripe',
  });

  beforeEach(() => {
    sent.length = 0;
  });

  it('sends the key a report built by this run carries, which is the key of its version at the primary destination', async () => {
    const report = built();
    expect(report.idempotency_key).toBe(expectedKey);
    await deliverReports(deps, [report], { keysBuiltThisRun: true });
    await deliverReports(deps, [report]);
    expect(sent).toEqual([expectedKey, expectedKey]);
  });

  it('keys a report read back again instead of trusting the key it stored', async () => {
    const stale = { ...built(), idempotency_key: 'uab_stored_for_another_destination' };
    const result = await deliverReports(deps, [stale]);
    expect(sent).toEqual([expectedKey]);
    expect(result.reports[0]!.provider_requests.map((r) => r.job_id)).toEqual([expectedKey]);
  });
});
