import type { DriftCorrectionOutcome, ReconciliationCorrection, ReconciliationDrift } from '../../../schemas/billing/reconciliation';
import { mapWithConcurrency } from '../../shared/concurrency';
import { idempotencyKey, type ReportIdentity } from '../providers/idempotency-key';
import type { UsageReportRequest } from '../providers/provider-port';
import { ValidationError } from '../../shared/errors';
import { lastReconciliation, reconcileMeter, reconciledMeterOf, recordCorrections, type ReconcileDeps, type ReconcileTenant } from './reconciliation';

/**
 * Drift corrected in one action: the meter is compared with its provider again (so only drift that is
 * still there is corrected), and each drifting subscription's difference is sent as one more usage
 * in its period (a Stripe meter event, a Recurly or Zuora usage record; for Chargebee, which takes no
 * negative usage, a shortfall only), through the same client, retry policy and idempotency keys as
 * the run's versioned corrections, so afterwards the provider holds what was reported; the
 * comparison made after sending is the answer.
 *
 * Each correction is a version per subscription and period (`reconcile:<subscription>` in the key):
 * the action retried after a crash, or run twice at once, sends the same key, which Stripe takes once.
 */

const SENDS_IN_FLIGHT = 8;

export async function correctDrift(deps: ReconcileDeps, tenant: ReconcileTenant, meterId: string, only?: readonly string[]): Promise<DriftCorrectionOutcome> {
  const { meter, provider, account } = await reconciledMeterOf(deps, tenant, meterId);
  const client = account?.corrections;
  if (!client)
    // Only a webhook meter has no provider client: its receiver's drift is what it refused or never confirmed.
    throw new ValidationError(
      "A webhook receiver's drift comes from deliveries it refused or never confirmed (the reports say which): this action does not send them again; the next correction of those windows carries them",
      [{ field: 'billing_plan.provider_slug', reason: 'drift is corrected for meters reporting to a billing provider' }],
    );
  const [current, previous] = await Promise.all([reconcileMeter(deps, tenant, meterId, account), lastReconciliation(deps.resources, tenant, meterId)]);
  const wanted = only ? new Set(only) : undefined;
  const earlier = previous?.corrections ?? [];
  const params = meter.params as never;
  const chosen = current.drift.filter((drift) => !wanted || wanted.has(drift.subscription_id));
  const refused = await withRefusedDeliveries(deps, tenant, meterId, chosen, deps.now());
  const corrections = await mapWithConcurrency(chosen, SENDS_IN_FLIGHT, async (drift): Promise<ReconciliationCorrection> => {
    const version =
      earlier.filter((c) => c.subscription_id === drift.subscription_id && c.period_start === drift.period_start && c.outcome !== 'failed').length + 1;
    const request =
      account?.correctsBy === 'added-usage'
        ? shortfallRequest(tenant, meterId, drift, version, params)
        : correctionRequest(tenant, meterId, drift, version, provider, params);
    const base = {
      subscription_id: drift.subscription_id,
      customer: drift.customer,
      period_start: drift.period_start,
      period_end: drift.period_end,
      correction_version: version,
      sent: -drift.difference,
      idempotency_key: request.idempotencyKey,
      at: deps.now().toISOString(),
    };
    const refusal = (reason: string): ReconciliationCorrection => ({ ...base, sent: 0, outcome: 'failed', reason, attempts: 0 });
    if (!Number.isInteger(drift.difference)) return refusal(`${provider} holds a fractional total; only whole differences are corrected`);
    if (account?.correctsBy === 'added-usage' && drift.difference > 0)
      return refusal(`${provider} holds more than was reported and takes no negative usage: remove the extra usage there`);
    // Its own refused version would be sent twice: the window's next correction carries it.
    if (refused.has(drift.subscription_id))
      return refusal("a report of the period was refused by the provider (status failed): the window's next correction carries it, so it is not sent here too");
    const outcome = await client.report(request);
    const failure = outcome.requests.at(-1);
    return {
      ...base,
      outcome: outcome.success ? (outcome.duplicate ? 'duplicate' : 'sent') : 'failed',
      ...(outcome.success ? {} : { reason: failure?.error_message ?? `${provider} did not take the correction` }),
      attempts: outcome.requests.length,
    };
  });
  await recordCorrections(deps.resources, tenant, meterId, corrections);
  if (corrections.some((c) => c.outcome !== 'failed')) await reconcileMeter(deps, tenant, meterId, account);
  return { corrections, reconciliation: (await lastReconciliation(deps.resources, tenant, meterId)) ?? current };
}

/** The drifting subscriptions whose period holds a report the provider refused (`failed`): read from the periods' windows once. */
async function withRefusedDeliveries(
  deps: ReconcileDeps,
  tenant: ReconcileTenant,
  meterId: string,
  drift: readonly ReconciliationDrift[],
  now: Date,
): Promise<Set<string>> {
  const refused = new Set<string>();
  if (drift.length === 0) return refused;
  const wanted = new Map(drift.map((d) => [d.subscription_id, d]));
  const from = new Date(Math.min(...drift.map((d) => Date.parse(d.period_start))));
  for await (const group of deps.reports.windowsBetween(tenant, { from, to: now, meterId }))
    for (const report of group.reports) {
      const period = report.subscription_id === null ? undefined : wanted.get(report.subscription_id);
      if (period && report.status === 'failed' && report.subscription_period_start === period.period_start) refused.add(period.subscription_id);
    }
  return refused;
}

/**
 * The correction as a usage report: the period as its window (Stripe dates the event at the period's
 * start, so it lands on the period's invoice), the reported total as the quantity and what Stripe
 * holds as what was sent before; the client sends the difference of the two.
 */
function correctionRequest(
  tenant: ReconcileTenant,
  meterId: string,
  drift: ReconciliationDrift,
  version: number,
  provider: string,
  params: never,
): UsageReportRequest<never> {
  const identity: ReportIdentity = {
    orgId: tenant.orgId,
    appId: tenant.appId,
    meterId,
    subscriptionId: `reconcile:${drift.subscription_id}`,
    windowStart: new Date(drift.period_start),
    windowEnd: new Date(drift.period_end),
    reportVersion: version,
    destination: provider,
  };
  return {
    identity,
    idempotencyKey: idempotencyKey(identity),
    meter: { id: meterId },
    subscription: { subscriptionId: drift.subscription_id, companyId: drift.customer, customerId: drift.customer },
    window: { start: identity.windowStart, end: identity.windowEnd },
    quantity: BigInt(drift.reported),
    previousQuantity: BigInt(drift.provider),
    reportTotalUsage: BigInt(drift.reported),
    params,
  };
}

/**
 * A shortfall as a usage of its own, for a provider that keeps one usage per date (Chargebee): dated
 * `version` seconds into the period, a date no window's usage has (windows start on whole minutes),
 * with the shortfall as its quantity; its own key per version.
 */
function shortfallRequest(tenant: ReconcileTenant, meterId: string, drift: ReconciliationDrift, version: number, params: never): UsageReportRequest<never> {
  const start = new Date(Date.parse(drift.period_start) + version * 1000);
  const identity: ReportIdentity = {
    orgId: tenant.orgId,
    appId: tenant.appId,
    meterId,
    subscriptionId: `reconcile:${drift.subscription_id}`,
    windowStart: start,
    windowEnd: new Date(start.getTime() + 1000),
    reportVersion: 1,
    destination: 'chargebee',
  };
  return {
    identity,
    idempotencyKey: idempotencyKey(identity),
    meter: { id: meterId },
    subscription: { subscriptionId: drift.subscription_id, companyId: drift.customer, customerId: drift.customer },
    window: { start, end: identity.windowEnd },
    quantity: BigInt(-drift.difference),
    previousQuantity: 0n,
    reportTotalUsage: BigInt(drift.reported),
    params,
  };
}
